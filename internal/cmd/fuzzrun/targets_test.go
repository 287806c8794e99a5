package main

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// moduleRoot is the module root as seen from this package's directory.
const moduleRoot = "../../.."

// declaredTargets reads every Go file of dir and returns the names of the
// top-level functions FuzzX(f *testing.F), sorted: the fuzz targets as the
// source declares them, independent of `go test -list`.
func declaredTargets(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	var names []string
	fset := token.NewFileSet()
	for _, path := range files {
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && strings.HasPrefix(fn.Name.Name, "Fuzz") && takesTestingF(fn) {
				names = append(names, fn.Name.Name)
			}
		}
	}
	sort.Strings(names)
	return names
}

func takesTestingF(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(params) != 1 || len(params[0].Names) > 1 {
		return false
	}
	star, ok := params[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	pkg, ok := sel.X.(*ast.Ident)
	return ok && pkg.Name == "testing" && sel.Sel.Name == "F"
}

func sorted(s []string) []string {
	s = append([]string(nil), s...)
	sort.Strings(s)
	return s
}

// TestTargetSetsAgree: make fuzz runs exactly the Fuzz* functions of
// fuzz/, so a new target cannot be left out of it. The nightly workflow's
// matrix and build.sh list nothing themselves: they take the targets from
// `go test ./fuzz -list '^Fuzz'`, as make fuzz does.
func TestTargetSetsAgree(t *testing.T) {
	want := declaredTargets(t, filepath.Join(moduleRoot, "fuzz"))
	require.GreaterOrEqual(t, len(want), 15, "fuzz/ lost its targets? %v", want)

	t.Run("make fuzz", func(t *testing.T) {
		assert.Equal(t, want, sorted(makeFuzzTargets(t)))
	})
}

// makeFuzzTargets is what `make fuzz` runs: the Makefile's recipe must
// loop over what `go test -list` finds in fuzz/, with no narrowing.
func makeFuzzTargets(t *testing.T) []string {
	require.Contains(t, makeRecipe(t, "fuzz"), "targets=$$($(FUZZLIST)); $(GOFUZZ)", "make fuzz must loop over every target")
	mk, err := os.ReadFile(filepath.Join(moduleRoot, "Makefile"))
	require.NoError(t, err)
	require.Contains(t, string(mk), "FUZZLIST  := $(GO) test -list '^Fuzz' "+fuzzPkg+" | grep '^Fuzz'\n")
	got, err := selectTargets(config{root: moduleRoot})
	require.NoError(t, err)
	return got
}

// makeRecipe returns the recipe lines of target in the Makefile.
func makeRecipe(t *testing.T, target string) string {
	f, err := os.Open(filepath.Join(moduleRoot, "Makefile"))
	require.NoError(t, err)
	defer f.Close()
	var recipe []string
	in := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := s.Text()
		switch {
		case strings.HasPrefix(line, target+":"):
			in = true
		case in && strings.HasPrefix(line, "\t"):
			recipe = append(recipe, line)
		case in:
			in = false
		}
	}
	require.NoError(t, s.Err())
	require.NotEmpty(t, recipe, "no recipe for %q in the Makefile", target)
	return strings.Join(recipe, "\n")
}

// TestDeclaredTargetsSeesOnlyFuzzFunctions: the scanner is not fooled by
// look-alikes.
func TestDeclaredTargetsSeesOnlyFuzzFunctions(t *testing.T) {
	dir := t.TempDir()
	src := `package x
import "testing"
func FuzzA(f *testing.F) {}
func FuzzHelper(t *testing.T) {}
func Fuzzy(f *testing.F, n int) {}
type r struct{}
func (r) FuzzM(f *testing.F) {}
func fuzzLower(f *testing.F) {}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a_test.go"), []byte(src), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.go"), []byte("package x\nimport \"testing\"\nfunc FuzzB(f *testing.F) {}\n"), 0o644))
	assert.Equal(t, []string{"FuzzA", "FuzzB"}, declaredTargets(t, dir))
}

// TestClusterFuzzLiteConfig: project.yaml says what OSS-Fuzz and
// ClusterFuzzLite need (Go, libFuzzer, AddressSanitizer) and build.sh is
// valid bash. The workflows' YAML is checked by actionlint in make lint.
func TestClusterFuzzLiteConfig(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot, ".clusterfuzzlite/project.yaml"))
	require.NoError(t, err)
	var lines []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(l) != "" && !strings.HasPrefix(strings.TrimSpace(l), "#") {
			lines = append(lines, strings.TrimRight(l, " "))
		}
	}
	assert.Equal(t, []string{"language: go", "fuzzing_engines:", "  - libfuzzer", "sanitizers:", "  - address"}, lines)

	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to check build.sh with")
	}
	out, err := exec.Command(bash, "-n", filepath.Join(moduleRoot, ".clusterfuzzlite/build.sh")).CombinedOutput()
	assert.NoError(t, err, "bash -n build.sh: %s", out)
}
