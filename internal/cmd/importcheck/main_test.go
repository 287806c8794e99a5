package main

import (
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
