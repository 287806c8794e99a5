package main

import (
	"go/parser"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func codecFile(t *testing.T, m mutation) (string, []byte) {
	t.Helper()
	path := filepath.Join("..", "..", "..", "codec", m.File)
	src, err := os.ReadFile(path)
	require.NoError(t, err, m.Name)
	return path, src
}

// TestMutationsApply: every mutation still finds its function and its
// node (exactly once, or its Nth) in the current codec source and changes
// it, so no mutant is silently a no-op. (Running the mutants is opt-in:
// go run ./internal/cmd/mutants.)
func TestMutationsApply(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range mutations() {
		assert.False(t, seen[m.Name], "duplicate mutant %s", m.Name)
		seen[m.Name] = true
		assert.NotEmpty(t, m.Why, m.Name)
		_, err := regexp.Compile(m.Catch)
		assert.NoError(t, err, "%s: Catch", m.Name)
		path, src := codecFile(t, m)
		out, err := apply(path, m)
		if assert.NoError(t, err, m.Name) {
			assert.NotEqual(t, string(src), string(out), m.Name)
		}
	}
}

// TestMutationsIgnoreEditsElsewhere: an edit outside a mutant's function
// (lines added above it, and a new function holding the very expression or
// statements the mutant looks for) changes nothing in what it does.
func TestMutationsIgnoreEditsElsewhere(t *testing.T) {
	for _, m := range mutations() {
		path, src := codecFile(t, m)
		want, err := applySource(path, src, m)
		if !assert.NoError(t, err, m.Name) {
			continue
		}
		var decoy string
		switch _, err := parser.ParseExpr(m.Find); {
		case err == nil:
			decoy = "\nfunc decoyForMutants() {\n\t_ = " + m.Find + "\n}\n"
		case strings.HasPrefix(m.Find, "case "):
			decoy = "\nfunc decoyForMutants() {\n\tswitch {\n" + m.Find + "\n\t}\n}\n"
		default:
			decoy = "\nfunc decoyForMutants() {\n" + m.Find + "\n}\n"
		}
		const above = "// an unrelated edit\n\n"
		edited := above + string(src) + decoy
		got, err := applySource(path, []byte(edited), m)
		if assert.NoError(t, err, m.Name) {
			assert.Equal(t, above+string(want)+decoy, string(got), m.Name)
		}
	}
}

// TestApplyFailures: a mutant whose function or node is gone, or whose
// node is ambiguous, fails with an error that names it.
func TestApplyFailures(t *testing.T) {
	const src = `package codec

func (h *T) check() bool {
	return h.a != 0 && h.b != 0 || h.a != 0
}

func other(h *T) bool { return h.c != 0 }
`
	m := mutation{Name: "demo", File: "demo.go", Func: "(*T).check", Find: "h.a != 0", Repl: "h.a == 0"}
	_, err := applySource("demo.go", []byte(src), m)
	assert.ErrorContains(t, err, "mutant demo: codec/demo.go: in (*T).check: expression `h.a != 0` found 2 times")

	m.Nth = 2
	out, err := applySource("demo.go", []byte(src), m)
	if assert.NoError(t, err) {
		assert.Contains(t, string(out), "return h.a != 0 && h.b != 0 || h.a == 0\n")
	}
	m.Nth = 3
	_, err = applySource("demo.go", []byte(src), m)
	assert.ErrorContains(t, err, "found 2 times, Nth is 3")

	m = mutation{Name: "renamed", File: "demo.go", Func: "T.check", Find: "h.b != 0", Repl: "true"}
	_, err = applySource("demo.go", []byte(src), m)
	assert.ErrorContains(t, err, "mutant renamed: codec/demo.go: no func T.check")

	m = mutation{Name: "gone", File: "demo.go", Func: "(*T).check", Find: "h.c != 0", Repl: "true"}
	_, err = applySource("demo.go", []byte(src), m)
	assert.ErrorContains(t, err, "mutant gone: codec/demo.go: in (*T).check: expression `h.c != 0` found 0 times")

	m = mutation{Name: "stmt", File: "demo.go", Func: "other", Find: "x := 1", Repl: ""}
	_, err = applySource("demo.go", []byte(src), m)
	assert.ErrorContains(t, err, "mutant stmt: codec/demo.go: in other: statement `x := 1` found 0 times")

	m = mutation{Name: "layout", File: "demo.go", Func: "other", Find: "h.c!=0", Repl: "h.c  ==  0"}
	out, err = applySource("demo.go", []byte(src), m)
	if assert.NoError(t, err, "white space does not matter") {
		assert.Contains(t, string(out), "return h.c == 0\n")
	}
}
