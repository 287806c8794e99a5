package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseGoMod(t *testing.T) {
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
	got := parseGoMod(text)
	want := goModFile{
		goVersion: "1.22",
		toolchain: "go1.26.0",
		requires:  []string{"example.com/one v1.0.0", "example.com/two v0.2.0", "example.com/three v0.0.0-20240101000000-abcdefabcdef"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("parseGoMod:\n got %+v\nwant %+v", got, want)
	}
}

func TestJudgeClean(t *testing.T) {
	root := module{path: "example.com/root", goVersion: "1.22"}
	mf := goModFile{goVersion: "1.22", requires: []string{"example.com/root v0.0.0"}}
	problems, modules := judge(root, mf, "\n")
	if len(problems) != 0 || len(modules) != 0 {
		t.Fatalf("a clean scratch module was judged: %q, %q", problems, modules)
	}
}

func TestJudgeNamesEveryCost(t *testing.T) {
	root := module{path: "example.com/root", goVersion: "1.22"}
	mf := goModFile{
		goVersion: "1.26.0",
		toolchain: "go1.26.1",
		requires:  []string{"example.com/root v0.0.0", "example.com/lib v1.2.3"},
	}
	sum := "example.com/dep v1.0.0 h1:abc=\nexample.com/dep v1.0.0/go.mod h1:def=\nexample.com/lib v1.2.3/go.mod h1:ghi=\n"
	problems, modules := judge(root, mf, sum)
	all := strings.Join(problems, "\n")
	for _, want := range []string{
		"go 1.22 to go 1.26.0",
		"toolchain go1.26.1",
		"require example.com/lib v1.2.3",
		"go.sum has 3 lines",
		"example.com/dep v1.0.0/go.mod h1:def=",
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
	root := module{path: "example.com/root", goVersion: "1.22"}
	own := goModFile{requires: []string{"example.com/tool v1.5.0", "example.com/yaml v3.0.5"}}
	before := goModFile{goVersion: "1.22", requires: []string{"example.com/root v0.0.0", "example.com/tool v1.1.0", "example.com/gone v0.1.0"}}
	after := goModFile{goVersion: "1.22", requires: []string{"example.com/root v0.0.0", "example.com/tool v1.5.0", "example.com/yaml v3.0.5"}}
	changes, problems := judgeOlder(root, before, after, own)
	want := []string{"example.com/gone v0.1.0 dropped", "example.com/tool raised from v1.1.0 to v1.5.0", "example.com/yaml v3.0.5 added"}
	if !reflect.DeepEqual(changes, want) || len(problems) != 0 {
		t.Fatalf("judgeOlder: changes %q, problems %q; want %q and none", changes, problems, want)
	}
	after = goModFile{goVersion: "1.23", toolchain: "go1.26.0", requires: []string{"example.com/tool v1.6.0", "example.com/other v0.1.0"}}
	_, problems = judgeOlder(root, before, after, own)
	all := strings.Join(problems, "\n")
	for _, w := range []string{"go 1.22 to go 1.23", "toolchain go1.26.0", "example.com/tool went to v1.6.0", "example.com/other went to v0.1.0"} {
		if !strings.Contains(all, w) {
			t.Errorf("the problems do not say %q:\n%s", w, all)
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
	gm, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]string{}
	for _, r := range parseGoMod(string(gm)).requires {
		f := strings.Fields(r)
		ours[f[0]] = f[1]
		if row := fmt.Sprintf("| `%s` | %s |", f[0], f[1]); !strings.Contains(string(doc), row) {
			t.Errorf("docs/importing.md has no row %q: the root go.mod requires %s", row, r)
		}
	}
	for _, r := range olderRequires {
		f := strings.Fields(r)
		if row := fmt.Sprintf("| `%s` | %s | %s (raised) |", f[0], f[1], ours[f[0]]); !strings.Contains(string(doc), row) {
			t.Errorf("docs/importing.md has no row %q", row)
		}
	}
}
