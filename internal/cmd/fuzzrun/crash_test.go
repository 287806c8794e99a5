package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/internal/fuzzload"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaveCrasher: Go's encoded failing input is moved to crashers/ as raw
// bytes named by content, with its line in crashers/README.md, and the
// path printed is the one go test ./fuzz replays.
func TestSaveCrasher(t *testing.T) {
	root := t.TempDir()
	failing := filepath.Join(root, "fuzz", "testdata", "fuzz", "FuzzX", "582528ddfad69eb5")
	require.NoError(t, os.MkdirAll(filepath.Dir(failing), 0o755))
	require.NoError(t, os.WriteFile(failing, fuzzload.Encode([]byte("boom")), 0o644))

	saved, err := saveCrasher(root, failing, "FuzzX")
	require.NoError(t, err)
	name := contentName("crash", []byte("boom"))
	assert.Equal(t, "crashers/FuzzX/"+name, saved)
	assert.NoFileExists(t, failing, "moved, not copied")
	got, err := os.ReadFile(filepath.Join(root, saved))
	require.NoError(t, err)
	assert.Equal(t, "boom", string(got))
	readme, err := os.ReadFile(filepath.Join(root, "crashers", "README.md"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(readme), "- `FuzzX/"+name+"` (found "), string(readme))

	inputs, err := fuzzload.Target(root, "FuzzX")
	require.NoError(t, err)
	require.Len(t, inputs, 1, "go test ./fuzz replays it")
	_, err = saveCrasher(root, filepath.Join(root, "nope"), "FuzzX")
	assert.Error(t, err, "saveCrasher of a missing file")
}

func TestRunNeedsAJob(t *testing.T) {
	var out, errs strings.Builder
	assert.Equal(t, 2, run(nil, &out, &errs))
	assert.Equal(t, 2, run([]string{"-save", "FuzzX"}, &out, &errs), "-save needs the file")
}
