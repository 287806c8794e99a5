package main

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// moduleRoot is the module root as seen from this package's directory.
const moduleRoot = "../.."

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

// TestTargetSetsAgree: every place that names the fuzz targets names
// exactly the Fuzz* functions of fuzz/, so a new target cannot be
// forgotten in one of them.
func TestTargetSetsAgree(t *testing.T) {
	want := declaredTargets(t, filepath.Join(moduleRoot, "fuzz"))
	require.GreaterOrEqual(t, len(want), 15, "fuzz/ lost its targets? %v", want)

	t.Run("make fuzz", func(t *testing.T) {
		assert.Equal(t, want, sorted(makeFuzzTargets(t)))
	})
	t.Run("nightly matrix", func(t *testing.T) {
		assert.Equal(t, want, sorted(nightlyMatrix(t)))
	})
	t.Run("build.sh", func(t *testing.T) {
		assert.Equal(t, want, sorted(buildShTargets(t)))
	})
}

// makeFuzzTargets is what `make fuzz` runs: the Makefile's recipe must run
// fuzzrun over its default package with no -run or -pkg narrowing it, and
// fuzzrun runs what `go test -list` finds there.
func makeFuzzTargets(t *testing.T) []string {
	recipe := makeRecipe(t, "fuzz")
	require.Contains(t, recipe, "./internal/fuzzrun", "make fuzz must go through fuzzrun")
	for _, narrowing := range []string{"-run", "-pkg"} {
		require.NotContains(t, recipe, narrowing, "make fuzz must run every target of %s", defaultPkg)
	}
	got, err := listTargets(moduleRoot, defaultPkg)
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

type workflow struct {
	Jobs map[string]struct {
		Strategy struct {
			Matrix struct {
				Target []string `yaml:"target"`
			} `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []map[string]any `yaml:"steps"`
	} `yaml:"jobs"`
}

func nightlyMatrix(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(moduleRoot, ".github/workflows/nightly-fuzz.yml"))
	require.NoError(t, err)
	var w workflow
	require.NoError(t, yaml.Unmarshal(b, &w))
	job, ok := w.Jobs["fuzz"]
	require.True(t, ok, "nightly-fuzz.yml has no job named fuzz")
	run := false
	for _, step := range job.Steps {
		if cmd, _ := step["run"].(string); strings.Contains(cmd, "make fuzz-one T=${{ matrix.target }}") {
			run = true
		}
	}
	require.True(t, run, "the fuzz job must run make fuzz-one T=${{ matrix.target }}")
	return job.Strategy.Matrix.Target
}

var buildShList = regexp.MustCompile(`(?s)\ntargets=\(\n(.*?)\n\)\n`)

func buildShTargets(t *testing.T) []string {
	b, err := os.ReadFile(filepath.Join(moduleRoot, ".clusterfuzzlite/build.sh"))
	require.NoError(t, err)
	m := buildShList.FindSubmatch(b)
	require.NotNil(t, m, "build.sh has no targets=( ... ) list")
	require.Contains(t, string(b), `compile_native_go_fuzzer "$pkg" "${t}_" "$t"`, "build.sh must build every listed target")
	return strings.Fields(string(m[1]))
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

// TestConfigFilesParse: every workflow and ClusterFuzzLite's project.yaml
// are valid YAML, project.yaml says Go, and build.sh is valid bash.
func TestConfigFilesParse(t *testing.T) {
	workflows, err := filepath.Glob(filepath.Join(moduleRoot, ".github/workflows/*.yml"))
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(workflows), 4, "ci, nightly-fuzz and ClusterFuzzLite's workflows")
	for _, path := range workflows {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		var w map[string]any
		require.NoError(t, yaml.Unmarshal(b, &w), path)
		assert.Contains(t, w, "jobs", path)
	}

	b, err := os.ReadFile(filepath.Join(moduleRoot, ".clusterfuzzlite/project.yaml"))
	require.NoError(t, err)
	var project struct {
		Language   string   `yaml:"language"`
		Engines    []string `yaml:"fuzzing_engines"`
		Sanitizers []string `yaml:"sanitizers"`
	}
	require.NoError(t, yaml.Unmarshal(b, &project))
	assert.Equal(t, "go", project.Language)
	assert.Equal(t, []string{"libfuzzer"}, project.Engines)
	assert.Equal(t, []string{"address"}, project.Sanitizers)

	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to check build.sh with")
	}
	out, err := exec.Command(bash, "-n", filepath.Join(moduleRoot, ".clusterfuzzlite/build.sh")).CombinedOutput()
	assert.NoError(t, err, "bash -n build.sh: %s", out)
}
