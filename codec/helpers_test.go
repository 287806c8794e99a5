package codec_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strings"
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

// unhex decodes hex written for people: spaces, newlines and '|' (used to
// separate fields) are ignored. Golden bytes are spelled out this way, read
// off WIRE.md, never produced by the code under test.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	s = strings.NewReplacer(" ", "", "\n", "", "\t", "", "|", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex literal %q: %v", s, err)
	}
	return b
}

// at is a run of hex bytes at a byte offset of a header.
type at struct {
	off int
	hex string
}

// header256 returns a 256-byte header that is zero except for the runs.
func header256(t testing.TB, runs ...at) []byte {
	t.Helper()
	h := make([]byte, 256)
	for _, r := range runs {
		b := unhex(t, r.hex)
		if r.off+len(b) > len(h) {
			t.Fatalf("run at %d of %d bytes overflows the header", r.off, len(b))
		}
		copy(h[r.off:], b)
	}
	return h
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
