package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadGoMod(t *testing.T) {
	file := filepath.Join(t.TempDir(), "go.mod")
	text := `module example.com/importcheck // a comment

go 1.22

toolchain go1.26.0

require example.com/one v1.0.0

require (
	example.com/two v0.2.0 // indirect
	// a comment line
	example.com/three v0.0.0-20240101000000-abcdefabcdef
)

replace example.com/one => ../one
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readGoMod(file)
	if err != nil {
		t.Fatal(err)
	}
	want := goMod{Go: "1.22", Toolchain: "go1.26.0",
		Require: []require{{"example.com/one", "v1.0.0"}, {"example.com/two", "v0.2.0"}, {"example.com/three", "v0.0.0-20240101000000-abcdefabcdef"}}}
	want.Module.Path = "example.com/importcheck"
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("readGoMod:\n got %+v\nwant %+v", got, want)
	}
}

var base = goMod{Go: "1.22", Require: []require{{"example.com/root", "v0.0.0"}}}

func TestJudgeClean(t *testing.T) {
	changes, problems, modules := judge(base, base, nil, "\n")
	if len(changes)+len(problems)+len(modules) != 0 {
		t.Fatalf("a clean scratch module was judged: %q, %q, %q", changes, problems, modules)
	}
}

func TestJudgeNamesEveryCost(t *testing.T) {
	after := goMod{Go: "1.26.0", Toolchain: "go1.26.1", Require: []require{{"example.com/root", "v0.0.0"}, {"example.com/lib", "v1.2.3"}}}
	sum := "example.com/dep v1.0.0 h1:abc=\nexample.com/dep v1.0.0/go.mod h1:def=\nexample.com/lib v1.2.3/go.mod h1:ghi=\n"
	_, problems, modules := judge(base, after, nil, sum)
	all := strings.Join(problems, "\n")
	for _, want := range []string{
		"go 1.22 to go 1.26.0",
		"toolchain go1.26.1",
		"require example.com/lib v1.2.3",
		"go.sum gained: example.com/dep v1.0.0 h1:abc=",
		"go.sum gained: example.com/dep v1.0.0/go.mod h1:def=",
		"go.sum gained: example.com/lib v1.2.3/go.mod h1:ghi=",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the problems do not say %q:\n%s", want, all)
		}
	}
	if want := []string{"example.com/dep", "example.com/lib"}; !reflect.DeepEqual(modules, want) {
		t.Errorf("modules = %q, want %q", modules, want)
	}
}

func TestJudgeOlder(t *testing.T) {
	own := goMod{Require: []require{{"example.com/tool", "v1.5.0"}, {"example.com/yaml", "v3.0.5"}}}
	before := goMod{Go: "1.22", Require: []require{{"example.com/root", "v0.0.0"}, {"example.com/tool", "v1.1.0"}, {"example.com/gone", "v0.1.0"}}}
	after := goMod{Go: "1.22", Require: []require{{"example.com/root", "v0.0.0"}, {"example.com/tool", "v1.5.0"}, {"example.com/yaml", "v3.0.5"}}}
	changes, problems, _ := judge(before, after, own.versions(), "example.com/tool v1.5.0 h1:abc=\n")
	want := []string{"example.com/gone: v0.1.0 -> none", "example.com/tool: v1.1.0 -> v1.5.0", "example.com/yaml: none -> v3.0.5"}
	if !reflect.DeepEqual(changes, want) || len(problems) != 0 {
		t.Fatalf("judge: changes %q, problems %q; want %q and none", changes, problems, want)
	}
	after = goMod{Go: "1.23", Toolchain: "go1.26.0", Require: []require{{"example.com/tool", "v1.6.0"}, {"example.com/other", "v0.1.0"}}}
	_, problems, _ = judge(before, after, own.versions(), "")
	all := strings.Join(problems, "\n")
	for _, w := range []string{"go 1.22 to go 1.23", "toolchain go1.26.0", "require example.com/tool v1.6.0", "require example.com/other v0.1.0"} {
		if !strings.Contains(all, w) {
			t.Errorf("the problems do not say %q:\n%s", w, all)
		}
	}
}

// TestCheckCatchesATestImport: a product package whose test imports
// testify fails the check, and go mod why names the test. It runs go mod
// tidy offline in a fake root module; the module cache holds testify,
// since this module requires it.
func TestCheckCatchesATestImport(t *testing.T) {
	saved, savedOwn := root, own
	defer func() { root, own = saved, savedOwn }()
	root = t.TempDir()
	gm, err := os.ReadFile("../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":            strings.Replace(string(gm), "module github.com/iggywire/iggywire", "module example.com/root", 1),
		"codec/codec.go":    "package codec\n",
		"codec/bad_test.go": "package codec\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/require\"\n)\n\nfunc TestX(t *testing.T) { require.True(t, true) }\n",
		"good/good.go":      "package good\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if own, err = readGoMod(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	for pkg, wantFailed := range map[string]bool{"example.com/root/codec": true, "example.com/root/good": false} {
		failed, err := check(pkg, []string{pkg}, nil, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if failed != wantFailed {
			t.Errorf("%s: failed %v, want %v", pkg, failed, wantFailed)
		}
	}
}

// TestImportingDoc: docs/importing.md names every require of the root
// go.mod at its version, and its measured rows raise each of
// olderRequires to the root go.mod's version.
func TestImportingDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "importing.md"))
	if err != nil {
		t.Fatal(err)
	}
	gm, err := readGoMod(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	ours := gm.versions()
	for _, r := range gm.Require {
		if row := fmt.Sprintf("| `%s` | %s |", r.Path, r.Version); !strings.Contains(string(doc), row) {
			t.Errorf("docs/importing.md has no row %q: the root go.mod requires %s %s", row, r.Path, r.Version)
		}
	}
	for _, r := range olderRequires {
		if row := fmt.Sprintf("| `%s` | %s | %s (raised) |", r.Path, r.Version, ours[r.Path]); !strings.Contains(string(doc), row) {
			t.Errorf("docs/importing.md has no row %q", row)
		}
	}
}
