package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// TestLibFuzzerInputRoundTrip: go-fuzz-headers' GetBytes, which a
// compile_native_go_fuzzer build uses to fill a target's []byte argument,
// gives back exactly the bytes that were encoded.
func TestLibFuzzerInputRoundTrip(t *testing.T) {
	for _, data := range [][]byte{{0}, []byte("0.11.0"), bytes.Repeat([]byte{0xff}, 256), bytes.Repeat([]byte{1, 2, 3}, 1000)} {
		in, ok := LibFuzzerInput(data)
		require.True(t, ok)
		got, err := fuzzheaders.NewConsumer(in).GetBytes()
		require.NoError(t, err)
		assert.Equal(t, data, got)
	}
	_, ok := LibFuzzerInput(nil)
	assert.False(t, ok, "an empty input has no encoding")
}

func TestWriteTargetSeeds(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(root, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, data, 0o644))
	}
	write("corpus/FuzzX/valid", []byte("abc"))
	write("corpus/FuzzX/empty", nil)
	write("corpus/FuzzX/v1", fuzzload.Encode([]byte{0, 1, 2}))
	write("crashers/FuzzX/crash-1", []byte("boom"))
	write("corpus/FuzzY/other", []byte("not mine"))

	out := filepath.Join(t.TempDir(), "FuzzX")
	n, err := writeTargetSeeds(root, "FuzzX", out)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "three non-empty inputs, corpus and crashers")

	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var got [][]byte
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(out, e.Name()))
		require.NoError(t, err)
		data, err := fuzzheaders.NewConsumer(b).GetBytes()
		require.NoError(t, err)
		got = append(got, data)
	}
	assert.ElementsMatch(t, [][]byte{[]byte("abc"), {0, 1, 2}, []byte("boom")}, got,
		"v1 files decoded, raw files as they are")
}
