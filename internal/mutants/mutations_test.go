package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMutationsApply: every mutation still finds its text exactly once in
// the current codec source and changes it, so no mutant is silently a
// no-op. (Running the mutants is opt-in: go run ./internal/mutants.)
func TestMutationsApply(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range mutations() {
		assert.False(t, seen[m.Name], "duplicate mutant %s", m.Name)
		seen[m.Name] = true
		path := filepath.Join("..", "..", "codec", m.File)
		out, err := apply(path, m)
		if !assert.NoError(t, err, m.Name) {
			continue
		}
		if !strings.Contains(m.New, m.Old) {
			assert.NotContains(t, string(out), m.Old, "%s: the original text survives", m.Name)
		}
	}
}
