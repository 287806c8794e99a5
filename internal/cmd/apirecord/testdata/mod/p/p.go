// Package p is the golden input of apirecord: one of each kind of
// exported declaration the record covers.
package p

import (
	"io"

	"example.com/apitest/q"
)

// Constants: typed, untyped, iota, a string, a float whose short form is
// not exact, a rune.
const (
	Size         = 256
	Name         = "p"
	Ratio        = 1.0 / 3
	Marker       = '\uFFFD'
	Typed   Kind = 7
	private      = 1
)

// Kind is a named basic type with a value method.
type Kind uint8

// Kinds by iota.
const (
	KindA Kind = iota
	KindB
)

func (k Kind) String() string { return "kind" }

// Vars.
var (
	ErrX    error
	Table   map[string][]byte
	Ch      <-chan int
	hidden  int
	Handler func(io.Reader, ...string) (int, error)
)

// Record has exported, unexported and embedded fields; it gets q.Token's
// method by embedding a pointer to it, and an unexported type's exported
// method and field by embedding it.
type Record struct {
	ID    uint32
	Data  []byte
	inner int
	*q.Token
	embedded
	Anon struct {
		A int
		b string
	}
}

type embedded struct{ Promoted int }

// Hello is promoted to Record.
func (embedded) Hello() string { return "hi" }

// Value has a value receiver, Pointer a pointer receiver.
func (r Record) Value() uint32 { return r.ID }

// Pointer has a pointer receiver.
func (r *Record) Pointer(b []byte) error { return nil }

func (r *Record) unexported() {}

// Reader is an interface embedding io.Reader.
type Reader interface {
	io.Reader
	Peek(n int) ([]byte, error)
}

// Sealed has an unexported method: only p implements it.
type Sealed interface {
	Open() bool
	seal()
}

// Empty is an empty interface.
type Empty interface{}

// Number is a constraint.
type Number interface {
	~int | ~int64 | ~float64
}

// List is a generic type.
type List[T any, K comparable] struct {
	Items []T
	Keys  map[K]T
}

// Push has a pointer receiver on a generic type.
func (l *List[T, K]) Push(v T) { l.Items = append(l.Items, v) }

// Len has a value receiver on a generic type.
func (l List[T, K]) Len() int { return len(l.Items) }

// Alias is an alias; Bytes an alias of a generic instance.
type (
	Alias = Record
	Ints  = List[int, string]
)

// Callback is a func type.
type Callback func(ctx any, done chan<- struct{}) bool

// New is a plain func.
func New(id uint32, r io.Reader) (*Record, error) { return nil, nil }

// Sum is variadic and generic.
func Sum[T Number](xs ...T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

// Map takes an implicit constraint.
func Map[S ~[]E, E any](s S, f func(E) E) S { return s }

// Gone is removed by the planted-change test.
func Gone() {}

// Pair has two results.
func Pair() (a, b int) { return 0, 0 }

func internalOnly() {}
