package fuzzload

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeRawIsIdentity(t *testing.T) {
	for _, raw := range [][]byte{nil, {0}, []byte("go test fuzz v2\n[]byte(\"x\")"), []byte("\xff\x00go test fuzz v1\n")} {
		got, err := Decode(raw)
		require.NoError(t, err, "Decode(%q)", raw)
		assert.Equal(t, raw, got, "Decode(%q) is the raw bytes", raw)
	}
}

func TestDecodeV1(t *testing.T) {
	cases := map[string][]byte{
		"go test fuzz v1\n[]byte(\"abc\")\n":                []byte("abc"),
		"go test fuzz v1\r\n[]byte(\"\\x00\\xff\\n\")":      {0, 0xff, '\n'},
		"go test fuzz v1\n\n  []byte(`raw\\x`)  \n\n":       []byte(`raw\x`),
		"go test fuzz v1\n[]byte(\"\")\n":                   {},
		"go test fuzz v1\n[]byte(\"\\u00e9\\U0001F600\")\n": []byte("é😀"),
		"go test fuzz v1\n[]byte( \"spaced\" )\n":           []byte("spaced"),
	}
	for file, want := range cases {
		got, err := Decode([]byte(file))
		require.NoError(t, err, "Decode(%q)", file)
		assert.Equal(t, want, got, "Decode(%q)", file)
	}
}

func TestDecodeV1Malformed(t *testing.T) {
	cases := []string{
		"go test fuzz v1",
		"go test fuzz v1\n",
		"go test fuzz v1\n\n \n",
		"go test fuzz v1\nstring(\"abc\")\n",
		"go test fuzz v1\n[]byte(\"a\")\n[]byte(\"b\")\n",
		"go test fuzz v1\n[]byte(\"unterminated)\n",
		"go test fuzz v1\n[]byte('a')\n",
		"go test fuzz v1\n[]byte(\"a\"\n",
		"go test fuzz v1\nint(3)\n",
	}
	for _, file := range cases {
		_, err := Decode([]byte(file))
		var fe *FormatError
		if assert.ErrorAs(t, err, &fe, "Decode(%q)", file) {
			assert.GreaterOrEqual(t, fe.Line, 1, "Decode(%q) names a line", file)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, data := range [][]byte{{}, []byte("abc"), {0, 1, 0xfe, 0xff, '"', '\\', '\n', '`'}, []byte("go test fuzz v1\n")} {
		got, err := Decode(Encode(data))
		require.NoError(t, err, "Decode(Encode(%q))", data)
		assert.Equal(t, data, got, "Decode(Encode(%q))", data)
	}
}

// TestEncodeMatchesGo pins the exact bytes Go writes for a []byte value.
func TestEncodeMatchesGo(t *testing.T) {
	const want = "go test fuzz v1\n[]byte(\"\\x00a\\xff\")\n"
	assert.Equal(t, want, string(Encode([]byte{0, 'a', 0xff})))
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// data is the bytes of inputs, in order.
func data(inputs []Input) [][]byte {
	var out [][]byte
	for _, in := range inputs {
		out = append(out, in.Data)
	}
	return out
}

func TestTargetLoadsCorpusThenCrashers(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", "b-second"), []byte{2})
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", "a-first"), []byte{1})
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", ".hidden"), []byte{9})
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", "NOTES.md"), []byte{9})
	writeFile(t, filepath.Join(root, "corpus", "FuzzY", "other"), []byte{9})
	writeFile(t, filepath.Join(root, "crashers", "FuzzX", "c1"), Encode([]byte{3, 3}))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "crashers", "FuzzX", "sub"), 0o755))

	inputs, err := Target(root, "FuzzX")
	require.NoError(t, err)
	assert.Equal(t, [][]byte{{1}, {2}, {3, 3}}, data(inputs), "the corpus in name order, then the crashers")
}

func TestTargetMissingDirsIsEmpty(t *testing.T) {
	inputs, err := Target(t.TempDir(), "FuzzNone")
	require.NoError(t, err)
	assert.Empty(t, inputs)
}

func TestTargetReportsMalformedFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "crashers", "FuzzX", "bad")
	writeFile(t, path, []byte("go test fuzz v1\nint(1)\n"))
	_, err := Target(root, "FuzzX")
	var fe *FormatError
	require.ErrorAs(t, err, &fe)
	assert.Contains(t, err.Error(), path)
}

func TestReadDirUnreadable(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "notadir")
	writeFile(t, file, []byte{1})
	_, err := ReadDir(file)
	assert.Error(t, err, "ReadDir on a file")
}

// TestLibFuzzerTestcaseReadsAsIs: a testcase as ClusterFuzz serves it (the
// input libFuzzer ran, under its own name) is read byte for byte, whatever
// its bytes, a leading length-like prefix included.
func TestLibFuzzerTestcaseReadsAsIs(t *testing.T) {
	root := t.TempDir()
	testcase := []byte("\x00\x00\x01\x00\x05\xff go test fuzz v1\n[]byte(\"x\")")
	writeFile(t, filepath.Join(root, "crashers", "FuzzFrame", "clusterfuzz-testcase-minimized-FuzzFrame-5151"), testcase)
	writeFile(t, filepath.Join(root, "crashers", "FuzzFrame", "crash-da39a3ee5e6b4b0d3255bfef95601890afd80709"), []byte{})
	inputs, err := Target(root, "FuzzFrame")
	require.NoError(t, err)
	assert.Equal(t, [][]byte{testcase, {}}, data(inputs), "both files as libFuzzer wrote them")
}
