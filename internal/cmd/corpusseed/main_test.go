package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCorpusMatchesVectors: the vec-* files in corpus/ are exactly what
// make corpus-seed writes from vectors/ now, so a vector added without
// reseeding, or a seed edited by hand, fails here.
func TestCorpusMatchesVectors(t *testing.T) {
	seeds, err := Seeds("../../../vectors")
	require.NoError(t, err)
	again, err := Seeds("../../../vectors")
	require.NoError(t, err)
	require.Equal(t, seeds, again, "two runs give the same seeds")
	want := map[string][]byte{}
	for target, list := range seeds {
		for _, s := range list {
			want[filepath.Join(target, s.Name)] = s.Data
		}
	}
	files, err := filepath.Glob("../../../corpus/*/" + prefix + "*")
	require.NoError(t, err)
	for _, f := range files {
		rel, err := filepath.Rel("../../../corpus", f)
		require.NoError(t, err)
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		assert.Equal(t, want[rel], b, "%s differs from its vector: run make corpus-seed", f)
		delete(want, rel)
	}
	assert.Empty(t, want, "seeds missing from corpus/: run make corpus-seed")
}

func TestWriteReplacesOnlyItsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "FuzzX"), 0o755))
	for _, name := range []string{"found-1", "kept", prefix + "stale"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "FuzzX", name), []byte(name), 0o644))
	}
	require.NoError(t, write(dir, map[string][]Seed{"FuzzX": {{Name: prefix + "new", Data: []byte{1}}}}, io.Discard))
	entries, err := os.ReadDir(filepath.Join(dir, "FuzzX"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"found-1", "kept", prefix + "new"}, names)
}
