package main

import (
	"bytes"
	"path/filepath"
	"testing"
)

// TestMutationsApply: every mutation still finds its text exactly once in
// the current codec source and changes it, so no mutant is silently a
// no-op. (Running the mutants is opt-in: go run ./internal/mutants.)
func TestMutationsApply(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range mutations() {
		if seen[m.Name] {
			t.Errorf("duplicate mutant %s", m.Name)
		}
		seen[m.Name] = true
		path := filepath.Join("..", "..", "codec", m.File)
		out, err := apply(path, m)
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if bytes.Contains(out, []byte(m.Old)) && !bytes.Contains([]byte(m.New), []byte(m.Old)) {
			t.Errorf("%s: the original text survives", m.Name)
		}
	}
}
