package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixture is a module whose package p holds one of each kind of exported
// declaration the record covers, q a type p uses, and internal/x and cmd/m
// packages that are no API.
var fixture = map[string]string{
	"go.mod":          "module example.com/apitest\n\ngo 1.22\n",
	"q/q.go":          "package q\n\ntype Token struct{ V string }\n\nfunc (t *Token) Len() int { return len(t.V) }\n",
	"internal/x/x.go": "package x\n\nfunc Hidden() {}\n",
	"cmd/m/main.go":   "package main\n\nfunc Main() {}\n\nfunc main() {}\n",
	"p/p.go": `package p

import (
	"io"

	"example.com/apitest/q"
)

const (
	Size         = 256
	Name         = "p"
	Ratio        = 1.0 / 3
	Marker       = '\uFFFD'
	Typed   Kind = 7
	private      = 1
)

type Kind uint8

func (k Kind) String() string { return "kind" }

var (
	ErrX    error
	Table   map[string][]byte
	hidden  int
	Handler func(io.Reader, ...string) (int, error)
)

type Record struct {
	ID    uint32
	inner int
	*q.Token
	embedded
	Anon struct {
		A int
		b string
	}
}

type embedded struct{ Promoted int }

func (embedded) Hello() string { return "hi" }

func (r Record) Value() uint32 { return r.ID }

func (r *Record) Pointer(b []byte) error { return nil }

func (r *Record) unexported() {}

type Reader interface {
	io.Reader
	Peek(n int) ([]byte, error)
}

type Sealed interface {
	Open() bool
	seal()
}

type Number interface{ ~int | ~int64 | ~float64 }

type List[T any, K comparable] struct{ Keys map[K]T }

func (l *List[T, K]) Push(v T) {}

func (l List[T, K]) Len() int { return len(l.Keys) }

type (
	Alias = Record
	Ints  = List[int, string]
)

type Callback func(ctx any, done chan<- struct{}) bool

func New(id uint32, r io.Reader) (*Record, error) { return nil, nil }

func Sum[T Number](xs ...T) T { return xs[0] }

func Map[S ~[]E, E any](s S, f func(E) E) S { return s }

func Gone() {}

func internalOnly() {}
`,
}

// writeModule writes files to a temporary directory and returns it.
func writeModule(t *testing.T, files map[string]string) string {
	t.Helper()
	mod := t.TempDir()
	for name, text := range files {
		if err := os.MkdirAll(filepath.Join(mod, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return mod
}

// recordOf records the fixture with edit applied to p/p.go and returns
// the lines of its record of p.
func recordOf(t *testing.T, edit func(string) string) []string {
	t.Helper()
	files := maps.Clone(fixture)
	files["p/p.go"] = edit(files["p/p.go"])
	mod, out := writeModule(t, files), t.TempDir()
	if err := record(mod, out); err != nil {
		t.Fatal(err)
	}
	written, _ := filepath.Glob(filepath.Join(out, "*"))
	for i := range written {
		written[i] = filepath.Base(written[i])
	}
	if !slices.Equal(written, []string{"p.txt", "q.txt"}) {
		t.Errorf("record files %q, want p.txt and q.txt (no internal or main package)", written)
	}
	b, err := os.ReadFile(filepath.Join(out, "p.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if !slices.IsSorted(lines) || len(slices.Compact(slices.Clone(lines))) != len(lines) {
		t.Errorf("the record is not sorted or has duplicates:\n%s", b)
	}
	return lines
}

const p = "pkg example.com/apitest/p, "

// TestRecord: the features the format is meant for, written out.
func TestRecord(t *testing.T) {
	got := recordOf(t, func(s string) string { return s })
	for _, want := range []string{
		"const Size untyped int = 256",
		`const Name untyped string = "p"`,
		"const Ratio untyped float = 1/3",
		"const Marker untyped rune = 65533",
		"const Typed Kind = 7",
		"var ErrX error",
		"var Table map[string][]byte",
		"var Handler func(io.Reader, ...string) (int, error)",
		"func New(uint32, io.Reader) (*Record, error)",
		"func Sum[T Number](...T) T",
		"func Map[S ~[]E, E any](S, func(E) E) S",
		"method (Kind) String() string",
		"method (Record) Value() uint32",
		"method (*Record) Pointer([]byte) error",
		"method (Record) Len() int",      // promoted from the embedded *q.Token
		"method (Record) Hello() string", // promoted from an unexported type
		"method (*List) Push(T)",
		"method (List) Len() int",
		"type Kind uint8",
		"type Record struct",
		"type Record struct, ID uint32",
		"type Record struct, embedded *q.Token",
		"type Record struct, Promoted int", // from an unexported embedded type
		"type Record struct, Anon struct{A int; b string}",
		"type List[T any, K comparable] struct, Keys map[K]T",
		"type Reader interface",
		"method (Reader) Read([]byte) (int, error)",
		"method (Reader) Peek(int) ([]byte, error)",
		"method (Sealed) Open() bool",
		"type Sealed interface, unexported methods",
		"type Number interface{~int | ~int64 | ~float64}",
		"type Alias = Record",
		"type Ints = List[int, string]",
		"type Callback func(ctx any, done chan<- struct{}) bool",
	} {
		if !slices.Contains(got, p+want) {
			t.Errorf("the record lacks %q", p+want)
		}
	}
	for _, f := range got {
		for _, unwanted := range []string{"private", "hidden", "inner", "unexported", "internalOnly", "seal()", "embedded embedded", "Hidden", "Main"} {
			if strings.Contains(strings.TrimSuffix(f, "unexported methods"), unwanted) {
				t.Errorf("an unexported name is recorded: %q", f)
			}
		}
	}
}

// TestRecordCatchesChanges: each kind of API change adds or removes
// exactly the lines named, and a renamed parameter changes nothing.
func TestRecordCatchesChanges(t *testing.T) {
	base := recordOf(t, func(s string) string { return s })
	for _, c := range []struct {
		name, old, new string
		added, removed []string
	}{
		{"func added", "func Gone() {}", "func Gone() {}\n\nfunc Added(int) {}", []string{"func Added(int)"}, nil},
		{"func removed", "func Gone() {}", "", nil, []string{"func Gone()"}},
		{"method added", "func (r *Record) unexported() {}", "func (r *Record) Added() {}", []string{"method (*Record) Added()"}, nil},
		{"method removed", "func (r Record) Value() uint32 { return r.ID }", "", nil, []string{"method (Record) Value() uint32"}},
		{"field added", "\tinner int\n", "\tinner int\n\tExtra string\n", []string{"type Record struct, Extra string"}, nil},
		{"field removed", "\tAnon struct {\n\t\tA int\n\t\tb string\n\t}\n", "", nil, []string{"type Record struct, Anon struct{A int; b string}"}},
		{"promoted field added", "Promoted int }", "Promoted, More int }", []string{"type Record struct, More int"}, nil},
		{"const value", "Size         = 256", "Size = 257", []string{"const Size untyped int = 257"}, []string{"const Size untyped int = 256"}},
		{"type changed", "type Kind uint8", "type Kind uint16", []string{"type Kind uint16"}, []string{"type Kind uint8"}},
		{"signature changed", "func New(id uint32,", "func New(id uint64,",
			[]string{"func New(uint64, io.Reader) (*Record, error)"}, []string{"func New(uint32, io.Reader) (*Record, error)"}},
		{"interface method changed", "Peek(n int) ([]byte, error)", "Peek(n int64) ([]byte, error)",
			[]string{"method (Reader) Peek(int64) ([]byte, error)"}, []string{"method (Reader) Peek(int) ([]byte, error)"}},
		{"interface method added", "\tOpen() bool\n", "\tOpen() bool\n\tClose()\n", []string{"method (Sealed) Close()"}, nil},
		{"constraint changed", "~int | ~int64 | ~float64", "~int | ~float64",
			[]string{"type Number interface{~int | ~float64}"}, []string{"type Number interface{~int | ~int64 | ~float64}"}},
		{"parameter renamed", "func New(id uint32, r io.Reader)", "func New(key uint32, src io.Reader)", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := recordOf(t, func(s string) string {
				if !strings.Contains(s, c.old) {
					t.Fatalf("the fixture lacks %q", c.old)
				}
				return strings.Replace(s, c.old, c.new, 1)
			})
			var added, removed []string
			for _, l := range got {
				if !slices.Contains(base, l) {
					added = append(added, strings.TrimPrefix(l, p))
				}
			}
			for _, l := range base {
				if !slices.Contains(got, l) {
					removed = append(removed, strings.TrimPrefix(l, p))
				}
			}
			if !slices.Equal(added, c.added) || !slices.Equal(removed, c.removed) {
				t.Errorf("added %q, removed %q; want %q and %q", added, removed, c.added, c.removed)
			}
		})
	}
}

// TestStaleRecord: a record file of no package is deleted.
func TestStaleRecord(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": fixture["go.mod"], "q/q.go": fixture["q/q.go"]})
	out := writeModule(t, map[string]string{"gone.txt": "pkg example.com/apitest/gone, func F()\n"})
	stale := filepath.Join(out, "gone.txt")
	if err := record(mod, out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("%s not deleted: %v", stale, err)
	}
}

// TestBrokenPackage: a package that does not compile is an error that
// names it, not an empty API, and the record there is left as it was.
func TestBrokenPackage(t *testing.T) {
	mod := writeModule(t, map[string]string{"go.mod": fixture["go.mod"], "q/q.go": fixture["q/q.go"] + "\nfunc Broken() int { return \"\" }\n"})
	out := writeModule(t, map[string]string{"q.txt": "the record before\n"})
	if err := record(mod, out); err == nil || !strings.Contains(err.Error(), "example.com/apitest/q") {
		t.Fatalf("record: %v, want an error naming the package", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "q.txt")); string(b) != "the record before\n" {
		t.Errorf("the record was changed: %q, %v", b, err)
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
