package codec_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// at is a run of hex bytes at a byte offset of a header.
type at struct {
	off int
	hex string
}

// cat concatenates byte slices into a fresh one.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// codecError requires err to be a *codec.Error matching exactly one
// sentinel ("exactly one of", not merely "one of") and returns it.
func codecError(t testing.TB, err error) *codec.Error {
	t.Helper()
	var ce *codec.Error
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want a *codec.Error", err, err)
	}
	var matched []error
	for _, c := range codectest.Classes() {
		if errors.Is(err, c.Err) {
			matched = append(matched, c.Err)
		}
	}
	if len(matched) != 1 {
		t.Fatalf("sentinels matched by %v: %d %v, want exactly 1", err, len(matched), matched)
	}
	return ce
}

// wantErr requires err to be a *codec.Error of class kind for field at
// offset off: the three things every error of the codec promises.
func wantErr(t testing.TB, err error, kind error, field string, off int) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %v for %s at %d", kind, field, off)
	}
	ce := codecError(t, err)
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want %v", err, kind)
	}
	if got, want := (errPlace{string(ce.Field), ce.Offset}), (errPlace{field, off}); got != want {
		t.Fatalf("field and offset of %v: got %+v, want %+v", err, got, want)
	}
}

// errPlace is where an error points: its field and byte offset.
type errPlace struct {
	Field  string
	Offset int
}

// errKey is what the error-order tests compare: everything an *Error says.
type errKey struct {
	kind   error
	field  string
	offset int
	rule   string
}

// keyOf returns everything err says, or the zero key for nil.
func keyOf(t testing.TB, err error) errKey {
	t.Helper()
	if err == nil {
		return errKey{}
	}
	ce := codecError(t, err)
	return errKey{ce.Err, string(ce.Field), ce.Offset, ce.Rule}
}

// breakRule is one broken rule of a header: a mutation of a valid 256-byte
// header (or, with cut, a cut to 255 bytes) and the error it alone causes.
type breakRule struct {
	name   string
	cut    bool
	mutate func(h []byte)
	want   errKey // rule is not compared for single breaks; see checkRuleOrder
}

// setLE writes v little-endian over n bytes at off.
func setLE(off, n int, v uint64) func([]byte) {
	return func(h []byte) {
		for i := range n {
			h[off+i] = byte(v >> (8 * i))
		}
	}
}

// setByte writes one byte.
func setByte(off int, v byte) func([]byte) { return func(h []byte) { h[off] = v } }

func applyRules(base []byte, rules ...breakRule) []byte {
	h := append([]byte{}, base...)
	cut := false
	for _, r := range rules {
		if r.cut {
			cut = true
			continue
		}
		r.mutate(h)
	}
	if cut {
		return h[:255]
	}
	return h
}

// checkRuleOrder breaks each rule alone and checks the exact class, field
// and offset; then breaks every pair and checks that the rule listed first
// (the rules are listed in WIRE.md's order) is the one reported.
func checkRuleOrder(t *testing.T, base []byte, decode func([]byte) error, rules []breakRule) {
	t.Helper()
	if err := decode(base); err != nil {
		t.Fatalf("base header: err = %v, want nil", err)
	}
	single := make([]errKey, len(rules))
	for i, r := range rules {
		err := decode(applyRules(base, r))
		single[i] = keyOf(t, err)
		got := single[i]
		got.rule = r.want.rule // not compared for single breaks
		if got != r.want {
			t.Errorf("%s alone (rule %q): got %+v, want %+v", r.name, single[i].rule, got, r.want)
		}
	}
	for i := range rules {
		for j := i + 1; j < len(rules); j++ {
			got := keyOf(t, decode(applyRules(base, rules[i], rules[j])))
			if got != single[i] {
				t.Errorf("%s + %s: got %+v, want the first rule's error %+v", rules[i].name, rules[j].name, got, single[i])
			}
		}
	}
}

// badBody is a malformed body and the error both decoders must report.
type badBody struct {
	name  string
	hex   string
	kind  error
	field string
	off   int
}

// checkBadBodies runs each case through the prefix decoder and the whole
// parser of one body type.
func checkBadBodies[T any](t *testing.T, decode func([]byte) (T, int, error), parse func([]byte) (T, error), cases []badBody) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := hx(c.hex)
			v, n, err := decode(src)
			wantErr(t, err, c.kind, c.field, c.off)
			var zero T
			if !reflect.DeepEqual(v, zero) {
				t.Fatalf("decode: value on error = %+v, want the zero value", v)
			}
			if n != 0 {
				t.Fatalf("decode: bytes used on error = %d, want 0", n)
			}
			v, err = parse(src)
			wantErr(t, err, c.kind, c.field, c.off)
			if !reflect.DeepEqual(v, zero) {
				t.Fatalf("parse: value on error = %+v, want the zero value", v)
			}
		})
	}
}

// badValue is an invalid value and the error its encoder must report.
type badValue[T encoder] struct {
	name  string
	v     T
	kind  error
	field string
	off   int
}

// checkBadValues runs each case through Validate and AppendBinary, which must
// leave dst unchanged.
func checkBadValues[T interface {
	encoder
	Validate() error
}](t *testing.T, cases []badValue[T]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.v.Validate(), c.kind, c.field, c.off)
			dst := make([]byte, 2, 1024)
			out, err := c.v.AppendBinary(dst)
			wantErr(t, err, c.kind, c.field, c.off)
			if want := []byte{0, 0}; !bytes.Equal(out, want) {
				t.Fatalf("dst after a failed AppendBinary = %x, want %x", out, want)
			}
		})
	}
}

// sameValue is codectest.Same: bodies by value, Secrets by their bytes.
func sameValue(a, b any) bool { return codectest.Same(a, b) }

// ptr returns a pointer to a copy of v, for the headers' AppendBinary,
// which takes a pointer.
func ptr[T any](v T) *T { return &v }
