package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plantedTarget is the target the planted bug is in reach of, and
// plantedBudget what make libfuzzer-one gets to find it: under a second
// of FuzzParseVersion on a 2-core machine.
const (
	plantedTarget = "FuzzParseVersion"
	plantedBudget = "300000x"
)

// plantAt is the line of codec/version.go the bug goes before, and
// plantedBug the bug: ParseVersion panics on any version 7.x.77.
const (
	plantAt    = "\treturn Version(parts[0]<<20 | parts[1]<<10 | parts[2]), nil\n"
	plantedBug = "\tif parts[0] == 7 && parts[2] == 77 {\n\t\tpanic(\"planted bug: version 7.x.77\")\n\t}\n"
)

// TestLibFuzzerFindsPlantedBug plants a bug in codec/ through a go build
// overlay (the shipped code never holds it), in a copy of the module, and
// shows the whole round trip: make libfuzzer-one finds it within its
// budget and saves the crashing input under crashers/<Target>/; go test,
// with the same overlay, fails on that file; without it, the same file
// passes. It needs clang and takes a minute, so it runs only when
// IGGYWIRE_LIBFUZZER is set (make libfuzzer-planted, which CI runs).
func TestLibFuzzerFindsPlantedBug(t *testing.T) {
	if os.Getenv("IGGYWIRE_LIBFUZZER") == "" {
		t.Skip("set IGGYWIRE_LIBFUZZER=1 (make libfuzzer-planted) to build with clang and fuzz")
	}
	clone := copyModule(t)
	overlay := plantBug(t, clone)

	out, err := runIn(clone, "make", "libfuzzer-one", "T="+plantedTarget, "LFTIME="+plantedBudget,
		"LFOVERLAY="+overlay, "LFDIR="+filepath.Join(clone, "bin", "libfuzzer"))
	require.Error(t, err, "make libfuzzer-one must fail on the planted bug:\n%s", out)
	assert.Contains(t, out, "planted bug: version 7.x.77")
	crashers, err := filepath.Glob(filepath.Join(clone, "crashers", plantedTarget, "crash-*"))
	require.NoError(t, err)
	require.Len(t, crashers, 1, "one crasher saved:\n%s", out)
	crasher, err := os.ReadFile(crashers[0])
	require.NoError(t, err)
	t.Logf("libFuzzer's crasher %s: %q", filepath.Base(crashers[0]), crasher)
	readme, err := os.ReadFile(filepath.Join(clone, "crashers", "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(readme), plantedTarget+"/"+filepath.Base(crashers[0]), "the crasher gets its line")

	replay := []string{"test", "./fuzz", "-count=1", "-run", "^" + plantedTarget + "$"}
	out, err = runIn(clone, "go", append(replay, "-overlay", overlay)...)
	require.Error(t, err, "go test must fail on the crasher with the bug planted:\n%s", out)
	assert.Contains(t, out, "planted bug: version 7.x.77")
	assert.Contains(t, out, "crashers/"+plantedTarget+"/"+filepath.Base(crashers[0]), "the failing seed is named by file")

	out, err = runIn(clone, "go", replay...)
	assert.NoError(t, err, "without the planted bug the crasher passes:\n%s", out)
}

// copyModule copies the module (without .git, bin/ and the cmd/ module)
// to a temporary directory, so the crasher and its README line never
// reach the working tree.
func copyModule(t *testing.T) string {
	t.Helper()
	clone := t.TempDir()
	root, err := filepath.Abs(moduleRoot)
	require.NoError(t, err)
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == ".git" || rel == "bin" || rel == "cmd" {
				return filepath.SkipDir
			}
			return nil
		}
		return copyFile(path, filepath.Join(clone, rel))
	})
	require.NoError(t, err)
	return clone
}

// plantBug writes codec/version.go with the bug outside the module and an
// overlay file that puts it in place of the real one; it returns the
// overlay's path.
func plantBug(t *testing.T, clone string) string {
	t.Helper()
	real := filepath.Join(clone, "codec", "version.go")
	src, err := os.ReadFile(real)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(src), plantAt), "codec/version.go changed: the bug has nowhere to go")
	planted := filepath.Join(t.TempDir(), "version.go")
	require.NoError(t, os.WriteFile(planted, []byte(strings.Replace(string(src), plantAt, plantedBug+plantAt, 1)), 0o644))
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {real: planted}})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "overlay.json")
	require.NoError(t, os.WriteFile(path, overlay, 0o644))
	return path
}

func runIn(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}
