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
	n, err := Promote(dst, []string{cache, testdata, filepath.Join(tmp, "missing")}, 2)
	require.NoError(t, err)
	require.Equal(t, 2, n, "new files")
	want := []string{contentName("found", []byte("abc")), contentName("found", []byte("xy")), "seed-other", "seed-valid"}
	sort.Strings(want)
	require.Equal(t, want, names(t, dst))
	raw, err := os.ReadFile(filepath.Join(dst, contentName("found", []byte("xy"))))
	require.NoError(t, err)
	assert.Equal(t, "xy", string(raw), "a promoted file holds the raw bytes")
	// A second promotion finds nothing new to add and keeps the cap.
	n, err = Promote(dst, []string{cache, testdata}, 2)
	require.NoError(t, err)
	assert.Zero(t, n, "second Promote")
}

func TestSaveCrasher(t *testing.T) {
	root := t.TempDir()
	failing := filepath.Join(root, "fuzz", "testdata", "fuzz", "FuzzX", "582528ddfad69eb5")
	write(t, failing, fuzzload.Encode([]byte{0, 0xff, 'a'}))
	path, err := saveCrasher(root, failing, "FuzzX")
	require.NoError(t, err)
	require.Equal(t, filepath.Join(root, "crashers", "FuzzX", contentName("crash", []byte{0, 0xff, 'a'})), path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "\x00\xffa", string(raw), "a crasher holds the raw bytes")
	readme, err := os.ReadFile(filepath.Join(root, "crashers", "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(readme), "`FuzzX/"+filepath.Base(path)+"`", "README.md names the crasher")
	_, err = os.Stat(failing)
	assert.ErrorIs(t, err, os.ErrNotExist, "the testdata copy is gone")
	_, err = saveCrasher(root, filepath.Join(root, "nope"), "FuzzX")
	assert.Error(t, err, "saveCrasher of a missing file")
}

func TestParseList(t *testing.T) {
	out := "FuzzA\nFuzzB\nTestNotFuzz\nok  \tgithub.com/x/fuzz\t0.003s\n"
	assert.Equal(t, []string{"FuzzA", "FuzzB"}, parseList(out))
}

func TestParseProfile(t *testing.T) {
	const profile = `mode: set
github.com/x/codec/a.go:1.1,3.2 2 1
github.com/x/codec/a.go:4.1,5.2 3 0
github.com/x/codec/b.go:1.1,2.2 5 0
github.com/x/codec/b.go:1.1,2.2 5 1
`
	p, err := ParseProfile(strings.NewReader(profile))
	require.NoError(t, err)
	assert.Equal(t, 10, p.Statements)
	assert.Equal(t, 7, p.Covered)
	assert.Equal(t, []string{"github.com/x/codec/a.go:4.1,5.2"}, p.Uncovered)
	assert.InDelta(t, 70, p.Percent(), 1e-9)
	_, err = ParseProfile(strings.NewReader("mode: set\nbad line\n"))
	assert.Error(t, err, "a malformed line")
	assert.InDelta(t, 100, Profile{}.Percent(), 1e-9, "an empty profile is fully covered")
}
