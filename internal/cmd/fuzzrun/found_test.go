package main

import (
	"os"
	"path/filepath"
	"sort"
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

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	require.NoError(t, writeNew(path, data))
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestPromoteDedupsAndCaps(t *testing.T) {
	tmp := t.TempDir()
	dst := filepath.Join(tmp, "corpus", "FuzzX")
	cache := filepath.Join(tmp, "cache")
	testdata := filepath.Join(tmp, "testdata")
	write(t, filepath.Join(dst, "seed-valid"), []byte("seed"))
	write(t, filepath.Join(cache, "a"), fuzzload.Encode([]byte("seed")))    // already a seed
	write(t, filepath.Join(cache, "b"), fuzzload.Encode([]byte("longest"))) // dropped by the cap
	write(t, filepath.Join(cache, "c"), fuzzload.Encode([]byte("xy")))
	write(t, filepath.Join(testdata, "d"), fuzzload.Encode([]byte("xy"))) // same content twice
	write(t, filepath.Join(testdata, "e"), fuzzload.Encode([]byte("abc")))

	write(t, filepath.Join(dst, "seed-other"), []byte("other seed")) // seeds do not count towards the cap
	n, held, err := Promote(dst, []string{cache, testdata, filepath.Join(tmp, "missing")}, 2)
	require.NoError(t, err)
	require.Equal(t, 2, n, "new files")
	require.Equal(t, 2, held, "promoted files held")
	want := []string{contentName("found", []byte("abc")), contentName("found", []byte("xy")), "seed-other", "seed-valid"}
	sort.Strings(want)
	require.Equal(t, want, names(t, dst))
	raw, err := os.ReadFile(filepath.Join(dst, contentName("found", []byte("xy"))))
	require.NoError(t, err)
	assert.Equal(t, "xy", string(raw), "a promoted file holds the raw bytes")
	// A second promotion finds nothing new to add and keeps the cap.
	n, held, err = Promote(dst, []string{cache, testdata}, 2)
	require.NoError(t, err)
	assert.Zero(t, n, "second Promote")
	assert.Equal(t, 2, held, "second Promote")
}
