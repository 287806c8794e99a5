package main

import (
	"bufio"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/api from testdata/mod")

// apirecord runs the command in-process and returns its status and output.
func apirecord(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// readRecord reads a record file's lines.
func readRecord(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	for s := bufio.NewScanner(f); s.Scan(); {
		lines = append(lines, s.Text())
	}
	return lines
}

// TestGolden: the record of testdata/mod (package p holds one of each
// kind of declaration, q a type p uses) is testdata/api, byte for byte.
// After a deliberate change to the format, run
// go test ./internal/cmd/apirecord -run Golden -update and read the diff.
func TestGolden(t *testing.T) {
	out := t.TempDir()
	if *update {
		out = "testdata/api"
	}
	if code, stdout, stderr := apirecord(t, "-C", "testdata/mod", "-o", out); code != 0 {
		t.Fatalf("status %d\n%s%s", code, stdout, stderr)
	}
	for _, name := range []string{"p.txt", "q.txt"} {
		want, _ := os.ReadFile(filepath.Join("testdata/api", name))
		if got, _ := os.ReadFile(filepath.Join(out, name)); !bytes.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant (testdata/api):\n%s", name, got, want)
		}
	}
	// The features the format is meant for, written out, so that a
	// golden file rewritten by mistake does not hide them.
	const p = "pkg example.com/apitest/p, "
	got := readRecord(t, "testdata/api/p.txt")
	for _, want := range []string{
		"const Size = 256",
		"const Size untyped int",
		"const Name = \"p\"",
		"const Ratio = 0.333333  // 1/3",
		"const Marker untyped rune",
		"const Typed = 7",
		"const Typed Kind",
		"const KindB = 1",
		"var ErrX error",
		"var Table map[string][]uint8",
		"var Ch <-chan int",
		"var Handler func(io.Reader, ...string) (int, error)",
		"func New(uint32, io.Reader) (*Record, error)",
		"func Pair() (int, int)",
		"func Sum[$0 Number](...$0) $0",
		"func Map[$0 interface{ ~[]$1 }, $1 interface{}]($0, func($1) $1) $0",
		"method (Kind) String() string",
		"method (Record) Value() uint32",
		"method (*Record) Pointer([]uint8) error",
		"method (Record) Len() int",      // promoted from the embedded *q.Token
		"method (Record) Hello() string", // promoted from an unexported type
		"method (*List[$0, $1]) Push($0)",
		"method (List[$0, $1]) Len() int",
		"type Kind uint8",
		"type Record struct",
		"type Record struct, ID uint32",
		"type Record struct, embedded *q.Token",
		"type Record struct, Promoted int",
		"type Record struct, Anon struct{ A int; b string }",
		"type List[$0 interface{}, $1 comparable] struct, Keys map[$1]$0",
		"type Reader interface { Peek, Read }",
		"type Reader interface, Read([]uint8) (int, error)",
		"type Reader interface, Peek(int) ([]uint8, error)",
		"type Sealed interface, Open() bool",
		"type Sealed interface, unexported methods",
		"type Empty interface {}",
		"type Number interface { ~int | ~int64 | ~float64 }",
		"type Alias = Record",
		"type Ints = List[int, string]",
		"type Callback func(interface{}, chan<- struct{}) bool",
	} {
		if !slices.Contains(got, p+want) {
			t.Errorf("testdata/api/p.txt lacks %q", p+want)
		}
	}
	for _, f := range got {
		for _, unwanted := range []string{"private", "hidden", "inner", "unexported()", "internalOnly", "seal", "embedded embedded"} {
			if strings.Contains(f, unwanted) {
				t.Errorf("an unexported name is recorded: %q", f)
			}
		}
	}
}

// copyDir copies the files under src to dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// planted is a copy of testdata/mod and its record in a temporary
// directory, with edit applied to p/p.go.
func planted(t *testing.T, edit func(string) string) (mod, api string) {
	t.Helper()
	dir := t.TempDir()
	mod, api = filepath.Join(dir, "mod"), filepath.Join(dir, "api")
	copyDir(t, "testdata/mod", mod)
	copyDir(t, "testdata/api", api)
	file := filepath.Join(mod, "p", "p.go")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	return mod, api
}

// TestRecordTracksTheSource: a changed signature changes its line; the
// record is sorted; a record file of no package is deleted.
func TestRecordTracksTheSource(t *testing.T) {
	mod, api := planted(t, func(src string) string {
		return strings.Replace(src, "func Pair() (a, b int)", "func Pair() (a int, b uint)", 1)
	})
	stale := filepath.Join(api, "gone.txt")
	if err := os.WriteFile(stale, []byte("pkg example.com/apitest/gone, func F()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := apirecord(t, "-C", mod, "-o", api); code != 0 {
		t.Fatalf("status %d\n%s%s", code, out, stderr)
	}
	got := readRecord(t, filepath.Join(api, "p.txt"))
	if !slices.Contains(got, "pkg example.com/apitest/p, func Pair() (int, uint)") || slices.Contains(got, "pkg example.com/apitest/p, func Pair() (int, int)") {
		t.Errorf("the changed signature is not recorded:\n%s", strings.Join(got, "\n"))
	}
	if !slices.IsSorted(got) {
		t.Error("the record is not sorted")
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s not deleted: %v", stale, err)
	}
}

// TestBrokenPackage: a package that does not compile is an error that
// names it, not an empty API.
func TestBrokenPackage(t *testing.T) {
	mod, api := planted(t, func(src string) string { return src + "\nfunc Broken() int { return \"\" }\n" })
	code, out, stderr := apirecord(t, "-C", mod, "-o", api)
	if code != 1 || !strings.Contains(stderr, "example.com/apitest/p") {
		t.Fatalf("status %d, want 1 naming the package\n%s%s", code, out, stderr)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-o", "x", "extra"}, {"-nope"}} {
		if code, _, stderr := apirecord(t, args...); code != 2 || stderr == "" {
			t.Errorf("%q: status %d, stderr %q", args, code, stderr)
		}
	}
}

func TestFileName(t *testing.T) {
	for pkg, want := range map[string]string{
		"example.com/m":          "m.txt",
		"example.com/m/codec":    "codec.txt",
		"example.com/m/life/tcp": "life_tcp.txt",
	} {
		if got := FileName("example.com/m", pkg); got != want {
			t.Errorf("FileName(%q) = %q, want %q", pkg, got, want)
		}
	}
}

// TestMakeAPI: make api compares a fresh record with api/ and runs the
// pinned apidiff on a difference; make api-update rewrites api/.
func TestMakeAPI(t *testing.T) {
	mk, err := os.ReadFile("../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"APIDIFF     := golang.org/x/exp/cmd/apidiff@v",
		"$(GO) run ./internal/cmd/apirecord -o \"$$dir/api\"",
		"diff -ru api \"$$dir/api\"",
		"$(GO) run ./internal/cmd/apirecord -o api\n",
	} {
		if !bytes.Contains(mk, []byte(want)) {
			t.Errorf("the Makefile lacks %q", want)
		}
	}
}
