package codec_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// sentinels lists every error class of the codec; each *codec.Error must
// match exactly one of them.
var sentinels = []error{
	codec.ErrTruncated, codec.ErrCommand, codec.ErrSize, codec.ErrReserved,
	codec.ErrField, codec.ErrReason, codec.ErrWindow, codec.ErrLength,
	codec.ErrUTF8, codec.ErrTrailing, codec.ErrRange, codec.ErrSyntax,
}

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

// codecError checks that err is a *codec.Error matching exactly one sentinel
// and returns it.
func codecError(t testing.TB, err error) *codec.Error {
	t.Helper()
	var ce *codec.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *codec.Error", err, err)
	}
	matched := 0
	for _, s := range sentinels {
		if errors.Is(err, s) {
			matched++
		}
	}
	if matched != 1 {
		t.Fatalf("error %v matches %d sentinels, want exactly 1", err, matched)
	}
	return ce
}

// wantErr checks that err is a *codec.Error of class kind for field at
// offset off.
func wantErr(t testing.TB, err error, kind error, field string, off int) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %v for %s at %d", kind, field, off)
	}
	ce := codecError(t, err)
	if !errors.Is(err, kind) || ce.Field != field || ce.Offset != off {
		t.Fatalf("got %v (field %q, offset %d), want class %v for field %q at offset %d", err, ce.Field, ce.Offset, kind, field, off)
	}
}

// errKey is what the error-order tests compare: everything an *Error says.
type errKey struct {
	kind   error
	field  string
	offset int
	rule   string
}

func keyOf(t testing.TB, err error) errKey {
	t.Helper()
	if err == nil {
		return errKey{}
	}
	ce := codecError(t, err)
	return errKey{ce.Err, ce.Field, ce.Offset, ce.Rule}
}

// must fails the test at once on a non-nil error.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// eq fails the test at once unless got deeply equals want. Byte slices are
// compared by content (nil and empty differ, as the codec promises nil for
// an empty field) and printed in hex.
func eq[T any](t testing.TB, want, got T, what string) {
	t.Helper()
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("%s:\n got %s\nwant %s", what, show(got), show(want))
	}
}

func show(v any) string {
	if b, ok := v.([]byte); ok {
		if b == nil {
			return "nil"
		}
		return hex.EncodeToString(b)
	}
	return fmt.Sprintf("%+v", v)
}

// wantKind checks that err is a *codec.Error of class kind.
func wantKind(t testing.TB, err error, kind error, what string) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("%s: got %v, want class %v", what, err, kind)
	}
	codecError(t, err)
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
		t.Fatalf("base header does not decode: %v", err)
	}
	single := make([]errKey, len(rules))
	for i, r := range rules {
		err := decode(applyRules(base, r))
		single[i] = keyOf(t, err)
		got := single[i]
		if got.kind != r.want.kind || got.field != r.want.field || got.offset != r.want.offset {
			t.Errorf("%s alone: got %v %q at %d (%s), want %v %q at %d", r.name, got.kind, got.field, got.offset, got.rule, r.want.kind, r.want.field, r.want.offset)
		}
	}
	for i := range rules {
		for j := i + 1; j < len(rules); j++ {
			got := keyOf(t, decode(applyRules(base, rules[i], rules[j])))
			if got != single[i] {
				t.Errorf("%s + %s: got %v %q at %d (%s), want the first: %v %q at %d (%s)",
					rules[i].name, rules[j].name, got.kind, got.field, got.offset, got.rule,
					single[i].kind, single[i].field, single[i].offset, single[i].rule)
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
			eq(t, zero, v, "value on error")
			eq(t, 0, n, "bytes used on error")
			v, err = parse(src)
			wantErr(t, err, c.kind, c.field, c.off)
			eq(t, zero, v, "value on error")
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

// checkBadValues runs each case through Validate and AppendTo, which must
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
			out, err := c.v.AppendTo(dst)
			wantErr(t, err, c.kind, c.field, c.off)
			eq(t, []byte{0, 0}, out, "dst after a failed AppendTo")
		})
	}
}
