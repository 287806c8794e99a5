//go:build !libfuzzer

package fuzz

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// TestPrintSeedMapNamesSeedsInOrder: seed#i is the i-th input added, named
// by its path from the module root.
func TestPrintSeedMapNamesSeedsInOrder(t *testing.T) {
	unitTest(t)
	var out bytes.Buffer
	printSeedMap(&out, "FuzzX", []fuzzload.Input{
		{Path: filepath.Join(root, "corpus", "FuzzX", "a")},
		{Path: filepath.Join(root, "crashers", "FuzzX", "crash-1")},
	})
	assert.Equal(t, "FuzzX failed: its seed#N are these files (replay one: go test ./fuzz -run '^FuzzX$'):\n"+
		"    FuzzX/seed#0 = corpus/FuzzX/a\n    FuzzX/seed#1 = crashers/FuzzX/crash-1\n", out.String())
}
