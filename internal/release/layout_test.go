package release

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// modPath is the root module, which cmd/ requires.
const modPath = "github.com/iggywire/iggywire"

// goFile is what go mod edit -json and go work edit -json print, in part.
type goFile struct {
	Go      string
	Require []struct{ Path, Version string }
	Use     []struct{ DiskPath string }
	Replace []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}
}

// readGoFile reads cmd/go.mod or cmd/go.work through the go command, which
// needs no network for it.
func readGoFile(t *testing.T, verb, name string) goFile {
	t.Helper()
	out, err := exec.Command("go", verb, "edit", "-json", filepath.Join("..", "..", "cmd", name)).Output()
	if err != nil {
		t.Fatalf("go %s edit -json cmd/%s: %v", verb, name, err)
	}
	var f goFile
	if err := json.Unmarshal(out, &f); err != nil {
		t.Fatalf("cmd/%s: %v", name, err)
	}
	return f
}

// TestCmdModuleRequiresThisRelease: cmd/go.mod requires the root module at
// the release Version names and has no replace directive, which go install
// of a release refuses (make release-check installs it); the clone's
// workspace, cmd/go.work, uses cmd/ alone, replaces the root module with
// this checkout, and has cmd/go.mod's go line, so that a build from a clone
// is the build of the release.
func TestCmdModuleRequiresThisRelease(t *testing.T) {
	mod := readGoFile(t, "mod", "go.mod")
	var required string
	for _, r := range mod.Require {
		if r.Path == modPath {
			required = r.Version
		}
	}
	if required != "v"+Version {
		t.Errorf("cmd/go.mod requires %s at %q, want v%s (the release Version names)", modPath, required, Version)
	}
	if len(mod.Replace) != 0 {
		t.Errorf("cmd/go.mod has %d replace directives: go install refuses a module with one; replace in cmd/go.work", len(mod.Replace))
	}
	work := readGoFile(t, "work", "go.work")
	if len(work.Use) != 1 || work.Use[0].DiskPath != "." {
		t.Errorf("cmd/go.work uses %v, want . alone", work.Use)
	}
	if len(work.Replace) != 1 || work.Replace[0].Old.Path != modPath || work.Replace[0].Old.Version != "" ||
		work.Replace[0].New.Path != ".." {
		t.Errorf("cmd/go.work replaces %+v, want %s => .. alone", work.Replace, modPath)
	}
	if work.Go != mod.Go {
		t.Errorf("cmd/go.work has go %s, cmd/go.mod go %s: tests in the workspace would run with other defaults", work.Go, mod.Go)
	}
}
