package main

import (
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

// TestGolden: the record of testdata/mod (package p holds one of each
// kind of declaration, q a type p uses) is testdata/api. After a
// deliberate change to the format, run
// go test ./internal/cmd/apirecord -run Golden -update and read the diff.
func TestGolden(t *testing.T) {
	mode := "-check"
	if *update {
		mode = "-write"
	}
	code, out, stderr := apirecord(t, mode, "-C", "testdata/mod", "-api", "../api")
	if code != exitOK {
		t.Fatalf("status %d\n%s%s", code, out, stderr)
	}
	// The features the format is meant for, written out, so that a
	// golden file rewritten by mistake does not hide them.
	const p = "pkg example.com/apitest/p, "
	got, err := ReadRecord("testdata/api/p.txt")
	if err != nil {
		t.Fatal(err)
	}
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

// changes are the +/- lines of a -check's output.
func changes(out string) []string {
	var c []string
	for _, line := range strings.Split(out, "\n") {
		if (strings.HasPrefix(line, "+") || strings.HasPrefix(line, "-")) &&
			!strings.HasPrefix(line, "+++") && !strings.HasPrefix(line, "---") {
			c = append(c, line)
		}
	}
	return c
}

// TestPlantedChange: one exported func added and one removed show as one
// + and one - line, with the hint; -write records them, and -check then
// passes.
func TestPlantedChange(t *testing.T) {
	mod, api := planted(t, func(src string) string {
		src = strings.Replace(src, "func Gone() {}\n", "", 1)
		return src + "\n// Added is new.\nfunc Added(n int) string { return \"\" }\n"
	})
	code, out, stderr := apirecord(t, "-check", "-C", mod, "-api", api)
	if code != exitDiffers {
		t.Fatalf("status %d, want %d\n%s%s", code, exitDiffers, out, stderr)
	}
	want := []string{
		"+pkg example.com/apitest/p, func Added(int) string",
		"-pkg example.com/apitest/p, func Gone()",
	}
	if got := changes(out); !slices.Equal(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "--- "+filepath.Join(api, "p.txt")) || !strings.Contains(out, hint) {
		t.Errorf("no file header or hint:\n%s", out)
	}

	code, out, _ = apirecord(t, "-write", "-C", mod, "-api", api)
	if code != exitOK || !strings.Contains(out, "p.txt: +1 -1") {
		t.Fatalf("-write: status %d\n%s", code, out)
	}
	code, out, _ = apirecord(t, "-check", "-C", mod, "-api", api)
	if code != exitOK {
		t.Fatalf("-check after -write: status %d\n%s", code, out)
	}
}

// TestChangedSignature: a changed signature is its old line and its new
// one, side by side.
func TestChangedSignature(t *testing.T) {
	mod, api := planted(t, func(src string) string {
		return strings.Replace(src, "func Pair() (a, b int)", "func Pair() (a int, b uint)", 1)
	})
	_, out, _ := apirecord(t, "-check", "-C", mod, "-api", api)
	want := []string{
		"-pkg example.com/apitest/p, func Pair() (int, int)",
		"+pkg example.com/apitest/p, func Pair() (int, uint)",
	}
	if got := changes(out); !slices.Equal(got, want) {
		t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestBrokenPackage: a package that does not compile is an error that
// names it, not an empty API.
func TestBrokenPackage(t *testing.T) {
	mod, api := planted(t, func(src string) string { return src + "\nfunc Broken() int { return \"\" }\n" })
	code, out, stderr := apirecord(t, "-check", "-C", mod, "-api", api)
	if code != exitError || !strings.Contains(stderr, "example.com/apitest/p") {
		t.Fatalf("status %d, want %d naming the package\n%s%s", code, exitError, out, stderr)
	}
}

// TestStaleRecord: a record file of no package is reported removed by
// -check and deleted by -write.
func TestStaleRecord(t *testing.T) {
	mod, api := planted(t, func(src string) string { return src })
	stale := filepath.Join(api, "gone.txt")
	if err := os.WriteFile(stale, []byte("pkg example.com/apitest/gone, func F()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := apirecord(t, "-check", "-C", mod, "-api", api)
	if code != exitDiffers || !slices.Equal(changes(out), []string{"-pkg example.com/apitest/gone, func F()"}) {
		t.Fatalf("status %d\n%s", code, out)
	}
	if code, out, _ = apirecord(t, "-write", "-C", mod, "-api", api); code != exitOK {
		t.Fatalf("-write: status %d\n%s", code, out)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s not deleted: %v", stale, err)
	}
}

// TestPkgs: -pkgs names the packages, as import paths or paths in the
// module.
func TestPkgs(t *testing.T) {
	api := t.TempDir()
	code, out, stderr := apirecord(t, "-write", "-C", "testdata/mod", "-api", api, "-pkgs", "./q")
	if code != exitOK {
		t.Fatalf("status %d\n%s%s", code, out, stderr)
	}
	entries, _ := os.ReadDir(api)
	if len(entries) != 1 || entries[0].Name() != "q.txt" {
		t.Fatalf("wrote %v, want q.txt alone", entries)
	}
	want, _ := os.ReadFile("testdata/api/q.txt")
	got, _ := os.ReadFile(filepath.Join(api, "q.txt"))
	if !bytes.Equal(got, want) {
		t.Errorf("q.txt:\n%s\nwant:\n%s", got, want)
	}
	if code, _, _ := apirecord(t, "-check", "-C", "testdata/mod", "-api", api, "-pkgs", "example.com/apitest/q"); code != exitOK {
		t.Errorf("-check -pkgs example.com/apitest/q: status %d", code)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-check", "-write"}, {"-check", "extra"}, {"-nope"}} {
		if code, _, stderr := apirecord(t, args...); code != exitError || stderr == "" {
			t.Errorf("%q: status %d, stderr %q", args, code, stderr)
		}
	}
	if code, _, stderr := apirecord(t, "-h"); code != exitOK || !strings.Contains(stderr, "-check") {
		t.Errorf("-h: status %d\n%s", code, stderr)
	}
}

func TestDiff(t *testing.T) {
	got := Diff([]string{"a", "c", "d"}, []string{"b", "c", "e"})
	want := []string{"-a", "+b", "-d", "+e"}
	if !slices.Equal(got, want) {
		t.Errorf("Diff = %q, want %q", got, want)
	}
	if d := Diff(nil, nil); d != nil {
		t.Errorf("Diff(nil, nil) = %q", d)
	}
}

func TestFileName(t *testing.T) {
	const m = "github.com/iggywire/iggywire"
	for path, want := range map[string]string{
		m + "/codec":         "codec.txt",
		m + "/lifecycle/tcp": "lifecycle_tcp.txt",
		m:                    "iggywire.txt",
		"example.com/other":  "example.com_other.txt",
	} {
		if got := FileName(m, path); got != want {
			t.Errorf("FileName(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestReadRecord: blank lines and # comments are not features; order
// and duplicates do not matter.
func TestReadRecord(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.txt")
	if err := os.WriteFile(file, []byte("# note\nb\n\na\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadRecord(file)
	if err != nil || !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("ReadRecord = %q, %v", got, err)
	}
	if got, err := ReadRecord(filepath.Join(t.TempDir(), "missing.txt")); err != nil || got != nil {
		t.Errorf("missing file: %q, %v", got, err)
	}
}
