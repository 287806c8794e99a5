package fuzzload

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeRawIsIdentity(t *testing.T) {
	for _, raw := range [][]byte{nil, {0}, []byte("go test fuzz v2\n[]byte(\"x\")"), []byte("\xff\x00go test fuzz v1\n")} {
		got, err := Decode(raw)
		if err != nil || !bytes.Equal(got, raw) || len(got) != len(raw) {
			t.Errorf("Decode(%q) = %q, %v; want the raw bytes", raw, got, err)
		}
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
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("Decode(%q) = %q, %v; want %q", file, got, err, want)
		}
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
		if !errors.Is(err, ErrFormat) || !errors.As(err, &fe) || fe.Line < 1 {
			t.Errorf("Decode(%q) error = %v; want a *FormatError with a line", file, err)
		}
	}
}

func TestEncodeRoundTrip(t *testing.T) {
	for _, data := range [][]byte{{}, []byte("abc"), {0, 1, 0xfe, 0xff, '"', '\\', '\n', '`'}, []byte("go test fuzz v1\n")} {
		got, err := Decode(Encode(data))
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("Decode(Encode(%q)) = %q, %v", data, got, err)
		}
	}
}

// TestEncodeMatchesGo pins the exact bytes Go writes for a []byte value.
func TestEncodeMatchesGo(t *testing.T) {
	const want = "go test fuzz v1\n[]byte(\"\\x00a\\xff\")\n"
	if got := string(Encode([]byte{0, 'a', 0xff})); got != want {
		t.Errorf("Encode = %q; want %q", got, want)
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

type recorder struct{ got [][]byte }

func (r *recorder) Add(args ...any) { r.got = append(r.got, args[0].([]byte)) }

func TestAddLoadsCorpusThenCrashers(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", "b-second"), []byte{2})
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", "a-first"), []byte{1})
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", ".hidden"), []byte{9})
	writeFile(t, filepath.Join(root, "corpus", "FuzzX", "NOTES.md"), []byte{9})
	writeFile(t, filepath.Join(root, "corpus", "FuzzY", "other"), []byte{9})
	writeFile(t, filepath.Join(root, "crashers", "FuzzX", "c1"), Encode([]byte{3, 3}))
	if err := os.MkdirAll(filepath.Join(root, "crashers", "FuzzX", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}

	var r recorder
	n, err := Add(&r, root, "FuzzX")
	want := [][]byte{{1}, {2}, {3, 3}}
	if err != nil || n != 3 || !reflect.DeepEqual(r.got, want) {
		t.Errorf("Add = %d, %v, added %q; want 3 inputs %q", n, err, r.got, want)
	}
}

func TestAddMissingDirsIsEmpty(t *testing.T) {
	var r recorder
	n, err := Add(&r, t.TempDir(), "FuzzNone")
	if err != nil || n != 0 || len(r.got) != 0 {
		t.Errorf("Add on missing dirs = %d, %v, %q; want nothing", n, err, r.got)
	}
}

func TestAddReportsMalformedFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "crashers", "FuzzX", "bad")
	writeFile(t, path, []byte("go test fuzz v1\nint(1)\n"))
	var r recorder
	_, err := Add(&r, root, "FuzzX")
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), path) {
		t.Errorf("Add error = %v; want ErrFormat naming %s", err, path)
	}
}

func TestReadDirUnreadable(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "notadir")
	writeFile(t, file, []byte{1})
	if _, err := ReadDir(file); err == nil {
		t.Error("ReadDir on a file succeeded")
	}
}
