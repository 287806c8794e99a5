// Command importcheck checks that importing the product costs an importer
// nothing. For each product package (codec, lifecycle, lifecycle/tcp) it
// writes a scratch module at this module's go line that imports only that
// package, with a replace of github.com/iggywire/iggywire by this checkout,
// and runs go mod tidy there offline. It fails if the scratch go.mod then
// requires any module but this one, has a toolchain line or another go
// line, or if its go.sum has a line at all: with the replace, this module
// itself needs none, so every line is a module the importer would be made
// to download and trust. go mod why -m says how it reaches each.
//
// Then an importer like an SDK, that requires older versions of two of the
// workbench's test tools (testify, go-cmp) and uses them in its tests:
// minimal version selection raises those to this go.mod's, by design
// (docs/importing.md). The check prints every require the tidy changed,
// and fails if the go line moved, a toolchain line came, or a require went
// to a version this go.mod does not name. The old versions' go.mod files
// are fetched through GOPROXY once when the module cache lacks them.
//
//	go run ./internal/cmd/importcheck   # in the root module
package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// products are the packages an importer may import, each checked alone.
var products = []string{"codec", "lifecycle", "lifecycle/tcp"}

// olderRequires are older versions of two of the workbench's test tools,
// required by the Iggy Go SDK (testify) and many modules; olderTest uses both.
var olderRequires = []require{{"github.com/stretchr/testify", "v1.9.0"}, {"github.com/google/go-cmp", "v0.6.0"}}

const olderTest = "import (\n\t\"testing\"\n\n\t\"github.com/google/go-cmp/cmp\"\n\t" +
	"\"github.com/stretchr/testify/require\"\n)\n\nfunc TestDiff(t *testing.T) { require.Empty(t, cmp.Diff(1, 1)) }\n"

var (
	root, _ = os.Getwd() // the root module's directory
	own     goMod        // its go.mod
)

func main() {
	var err error
	if own, err = readGoMod(filepath.Join(root, "go.mod")); err != nil {
		fatal(2, "importcheck: %v (run it in the root module)", err)
	}
	failed := false
	var all []string
	for _, rel := range products {
		pkg := own.Module.Path + "/" + rel
		all = append(all, pkg)
		f, err := check("the importer of "+pkg+" gains nothing (go "+own.Go+" kept, no other require, an empty go.sum)", []string{pkg}, nil, "", nil)
		if failed = failed || f; err != nil {
			fatal(2, "importcheck: %v", err)
		}
	}
	f, err := check("an importer of every product package that requires older testify and go-cmp is raised only to this go.mod's versions (docs/importing.md)",
		all, olderRequires, olderTest, own.versions())
	if failed = failed || f; err != nil {
		fatal(2, "importcheck: %v", err)
	}
	if failed {
		fatal(1, "importcheck: FAIL: a product package must import, in its code and in its tests, only the standard library and this module's own packages; an importer may be raised only to the versions this go.mod requires, and keep its go line")
	}
}

func fatal(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(code)
}

// goCmd runs go with args in dir: in one module, with no toolchain switch,
// go.mod updates allowed, and no network unless online (then GOPROXY and
// GOSUMDB are the caller's).
func goCmd(dir string, online bool, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if !online {
		cmd.Env = append(cmd.Env, "GOPROXY=off", "GOSUMDB=off") // the last of a name wins
	}
	out, err := cmd.Output()
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) {
		err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(string(exit.Stderr)))
	}
	return out, err
}

// goMod is what go mod edit -json says of a go.mod.
type goMod struct {
	Module        struct{ Path string }
	Go, Toolchain string
	Require       []require
}

type require struct{ Path, Version string }

func readGoMod(file string) (m goMod, err error) {
	out, err := goCmd("", false, "mod", "edit", "-json", file)
	if err == nil {
		err = json.Unmarshal(out, &m)
	}
	return m, err
}

func (m goMod) versions() map[string]string {
	v := map[string]string{}
	for _, r := range m.Require {
		v[r.Path] = r.Version
	}
	return v
}

// check writes a scratch module that requires extra, imports pkgs and has
// test, tidies it offline (through GOPROXY when the extra requires, which
// this module's builds never fetch, are missing), prints what judge says
// against allowed and go mod why -m of the modules a problem names; says
// if it failed.
func check(title string, pkgs []string, extra []require, test string, allowed map[string]string) (failed bool, err error) {
	dir, err := os.MkdirTemp("", "importcheck")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	before := goMod{Go: own.Go, Require: append([]require{{own.Module.Path, "v0.0.0"}}, extra...)}
	files := map[string]string{"go.mod": fmt.Sprintf("module example.com/importcheck\n\ngo %s\n\nreplace %s => %q\n", before.Go, own.Module.Path, root),
		"main.go": "package main\n\nfunc main() {}\n", "imports.go": "package main\n", "main_test.go": "package main\n\n" + test, "go.sum": ""}
	for _, r := range before.Require {
		files["go.mod"] += fmt.Sprintf("\nrequire %s %s\n", r.Path, r.Version)
	}
	for _, p := range pkgs {
		files["imports.go"] += fmt.Sprintf("\nimport _ %q\n", p)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			return false, err
		}
	}
	if _, err = goCmd(dir, false, "mod", "tidy"); err != nil && len(extra) > 0 {
		fmt.Println("importcheck: the module cache lacks the older requires; fetching them through GOPROXY")
		_, err = goCmd(dir, true, "mod", "tidy")
	}
	after, err2 := readGoMod(filepath.Join(dir, "go.mod"))
	sum, err3 := os.ReadFile(filepath.Join(dir, "go.sum")) // written empty, so it is there
	if err = errors.Join(err, err2, err3); err != nil {
		return false, fmt.Errorf("%s: %v\n(offline: every module the tidy needs must already be in the module cache; `go mod download` in the root module fills it)", pkgs, err)
	}
	changes, problems, modules := judge(before, after, allowed, string(sum))
	fmt.Printf("%s %s\n", map[bool]string{false: "ok  ", true: "FAIL"}[len(problems) > 0], title)
	for _, c := range changes {
		fmt.Printf("  - %s\n", c)
	}
	for _, p := range problems {
		fmt.Printf("  - FAIL: %s\n", p)
	}
	if len(modules) > 0 {
		why, err := goCmd(dir, false, append([]string{"mod", "why", "-m"}, modules...)...)
		if err != nil {
			why = []byte(err.Error())
		}
		fmt.Printf("  why (go mod why -m: the importer reaches each through the product's imports and its tests', which go mod tidy keeps sums for):\n    %s\n",
			strings.ReplaceAll(strings.TrimSpace(string(why)), "\n", "\n    "))
	}
	return len(problems) > 0, nil
}

// judge says what go mod tidy did to a scratch module that started as
// before and ended as after: the requires it raised, added or dropped
// (changes), and as problems a moved go line, a toolchain line, and a
// require at a version allowed (this module's go.mod) does not name; with
// allowed nil, every go.sum line too. modules are those problems name.
func judge(before, after goMod, allowed map[string]string, sum string) (changes, problems, modules []string) {
	if after.Go != before.Go {
		problems = append(problems, fmt.Sprintf("its go line went from go %s to go %s", before.Go, after.Go))
	}
	if after.Toolchain != "" {
		problems = append(problems, "it gained a toolchain line: toolchain "+after.Toolchain)
	}
	was, now := before.versions(), after.versions()
	for _, versions := range []map[string]string{was, now} {
		for path := range versions {
			if was[path] == now[path] {
				continue
			}
			changes = append(changes, fmt.Sprintf("%s: %s -> %s", path, cmp.Or(was[path], "none"), cmp.Or(now[path], "none")))
			if now[path] != "" && allowed[path] != now[path] {
				problems = append(problems, fmt.Sprintf("go.mod gained: require %s %s, a version this module's go.mod does not require", path, now[path]))
				modules = append(modules, path)
			}
		}
	}
	for _, l := range strings.Split(strings.TrimSpace(sum), "\n") {
		if l != "" && allowed == nil {
			problems = append(problems, "go.sum gained: "+l)
			modules = append(modules, strings.Fields(l)[0])
		}
	}
	slices.Sort(changes) // each change was found from both sides
	slices.Sort(problems)
	slices.Sort(modules)
	return slices.Compact(changes), slices.Compact(problems), slices.Compact(modules)
}
