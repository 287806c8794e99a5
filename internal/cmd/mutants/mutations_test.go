package main

import (
	"os"
	"path/filepath"
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
// code (exactly once) in the current codec source and changes it, so no
// mutant is silently a no-op and a stale one fails here, in every test
// run. (Running the mutants is opt-in: go run ./internal/cmd/mutants.)
func TestMutationsApply(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range mutations {
		assert.False(t, seen[m.Name], "duplicate mutant %s", m.Name)
		seen[m.Name] = true
		assert.NotEmpty(t, m.Why, m.Name)
		path, src := codecFile(t, m)
		out, err := apply(path, src, m)
		if assert.NoError(t, err, m.Name) {
			assert.NotEqual(t, string(src), string(out), m.Name)
		}
	}
}

// TestMutationsIgnoreEditsElsewhere: an edit outside a mutant's function
// (lines added above it, and a new function holding the very code the
// mutant looks for) changes nothing in what it does.
func TestMutationsIgnoreEditsElsewhere(t *testing.T) {
	for _, m := range mutations {
		path, src := codecFile(t, m)
		want, err := apply(path, src, m)
		if !assert.NoError(t, err, m.Name) {
			continue
		}
		const above = "// an unrelated edit\n\n"
		decoy := "\nfunc decoyForMutants() {\n\t/*\n" + m.Find + "\n\t*/\n}\n"
		got, err := apply(path, []byte(above+string(src)+decoy), m)
		if assert.NoError(t, err, m.Name) {
			assert.Equal(t, above+string(want)+decoy, string(got), m.Name)
		}
	}
}

// TestApplyFailures: a mutant whose function or code is gone, or whose
// code is ambiguous, fails with an error that names it.
func TestApplyFailures(t *testing.T) {
	const src = `package codec

func (h *T) check() bool {
	return h.a != 0 && h.b != 0 || h.a != 0
}

func other(h *T) bool { return h.c != 0 || h.c != 01 }

func spread(h *T) bool {
	return h.a != 0 &&
		h.b != 0
}

func rewritten(h *T) bool {
	// was: h.d > 1
	return h.e > h.f*2
}
`
	demo := func(fn, find, repl string) (string, error) {
		out, err := apply("demo.go", []byte(src), mutation{Name: "demo", File: "demo.go", Func: fn, Find: find, Repl: repl})
		return string(out), err
	}
	_, err := demo("(*T).check", "h.a != 0", "h.a == 0")
	assert.ErrorContains(t, err, "mutant demo: codec/demo.go: in (*T).check: `h.a != 0` found 2 times, want exactly once")
	_, err = demo("T.check", "h.b != 0", "true")
	assert.ErrorContains(t, err, "mutant demo: codec/demo.go: no func T.check")
	_, err = demo("(*T).check", "h.c != 0", "true")
	assert.ErrorContains(t, err, "mutant demo: codec/demo.go: in (*T).check: `h.c != 0` found 0 times")
	_, err = demo("other", "h.c != 1", "true")
	assert.ErrorContains(t, err, "in other: `h.c != 1` found 0 times", "not the 1 in 01")
	_, err = demo("other", "h.c != 0", "h.c != 0")
	assert.ErrorContains(t, err, "in other: the mutation changes nothing")
	_, err = demo("other", "h.c != 0", "h.c !=")
	assert.ErrorContains(t, err, "the mutated file does not parse")

	_, err = demo("rewritten", "h.d > 1", "h.d > 2")
	assert.ErrorContains(t, err, "in rewritten: `h.d > 1` is not a whole expression or statements", "text left in a comment")
	_, err = demo("rewritten", "h.e > h.f", "h.e < h.f")
	assert.ErrorContains(t, err, "in rewritten: `h.e > h.f` is not a whole expression or statements", "part of h.e > h.f*2")

	out, err := demo("other", "h.c != 0", "h.c == 0")
	if assert.NoError(t, err, "not the 0 in 01") {
		assert.Contains(t, out, "return h.c == 0 || h.c != 01 }")
	}
	out, err = demo("spread", "h.a != 0 && h.b != 0", "false")
	if assert.NoError(t, err, "line breaks and indentation do not matter") {
		assert.Contains(t, out, "\treturn false\n}")
	}
}
