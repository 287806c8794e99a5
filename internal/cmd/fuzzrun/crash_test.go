package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/internal/fuzzload"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaveCrasherThenHint: after the move, the hint names the file in
// crashers/, calls Go's testdata hint stale, and gives a command and seed
// name that replay it.
func TestSaveCrasherThenHint(t *testing.T) {
	root := t.TempDir()
	failing := filepath.Join("testdata", "fuzz", "FuzzX", "582528ddfad69eb5")
	abs := filepath.Join(root, "fuzz", failing)
	require.NoError(t, os.MkdirAll(filepath.Dir(abs), 0o755))
	require.NoError(t, os.WriteFile(abs, fuzzload.Encode([]byte("boom")), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "corpus", "FuzzX"), 0o755))
	for _, name := range []string{"a", "b"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, "corpus", "FuzzX", name), []byte(name), 0o644))
	}

	saved, err := saveCrasher(root, abs, "FuzzX")
	require.NoError(t, err)
	assert.NoFileExists(t, abs, "Go's file is moved, so its hint is stale")

	hint := rerunHint(root, "./fuzz/", "FuzzX", filepath.ToSlash(failing), saved)
	name := contentName("crash", []byte("boom"))
	want := []string{
		"fuzzrun: the failing input is now crashers/FuzzX/" + name + " (raw bytes; xxd reads it, make triage decodes it)",
		`fuzzrun: Go's "To re-run" hint above is stale: fuzzrun moved fuzz/testdata/fuzz/FuzzX/582528ddfad69eb5 there (it is gone)`,
		"fuzzrun: to re-run it: go test ./fuzz -run '^FuzzX$'   (it fails as FuzzX/seed#2)",
	}
	assert.Equal(t, want, strings.Split(strings.TrimSuffix(hint, "\n"), "\n"))
}

func TestRerunHintWithoutSeedIndex(t *testing.T) {
	hint := rerunHint(t.TempDir(), "fuzz", "FuzzY", "testdata/fuzz/FuzzY/x", "elsewhere/crash-1")
	assert.Contains(t, hint, "go test ./fuzz -run '^FuzzY$'\n")
	assert.NotContains(t, hint, "seed#")
}

// TestSeedFileHint names the file behind a seed number, in fuzzload's
// order, and says when the number is past the files.
func TestSeedFileHint(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"corpus/FuzzX/b-second", "corpus/FuzzX/a-first", "crashers/FuzzX/c-crash"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, p), []byte("x"), 0o644))
	}
	inputs, err := fuzzload.Target(root, "FuzzX")
	require.NoError(t, err)
	require.Len(t, inputs, 3)
	for i, in := range inputs {
		rel, err := filepath.Rel(root, in.Path)
		require.NoError(t, err)
		assert.Equal(t, "fuzzrun: FuzzX/seed#"+strconv.Itoa(i)+" is "+filepath.ToSlash(rel)+"\n", seedFileHint(root, "FuzzX", i))
	}
	assert.Contains(t, seedFileHint(root, "FuzzX", 3), "is not one of FuzzX's corpus and crasher files (3 found)")
}
