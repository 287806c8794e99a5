package fuzz

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unsafe"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// checkErr fails unless err is a *codec.Error that matches exactly one
// sentinel (its own Err) with an offset within 0..maxOff, and returns it.
func checkErr(t *testing.T, err error, maxOff int) *codec.Error {
	t.Helper()
	var ce *codec.Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %v (%T) is not a *codec.Error", err, err)
	}
	matched := 0
	for _, c := range codectest.Classes() {
		if s := c.Err; errors.Is(err, s) {
			matched++
			if ce.Err != s {
				t.Fatalf("error %v matches %v but carries %v", err, s, ce.Err)
			}
		}
	}
	if matched != 1 {
		t.Fatalf("error %v matches %d sentinels, want exactly 1", err, matched)
	}
	if msg := ce.Error(); !strings.Contains(msg, string(ce.Field)) || !strings.Contains(msg, strings.TrimPrefix(ce.Err.Error(), "codec: ")) {
		t.Fatalf("error text %q does not name field %q and class %v", msg, ce.Field, ce.Err)
	}
	if ce.Offset < 0 || ce.Offset > maxOff || ce.Field == "" || ce.Rule == "" {
		t.Fatalf("error %v: field %q offset %d rule %q; want a field, a rule and 0 <= offset <= %d",
			err, ce.Field, ce.Offset, ce.Rule, maxOff)
	}
	return ce
}

// sameErr fails unless a and b are both nil or equal *codec.Error values.
func sameErr(t *testing.T, what string, got, want error) {
	t.Helper()
	if got == nil && want == nil {
		return
	}
	var g, w *codec.Error
	if !errors.As(got, &g) || !errors.As(want, &w) || *g != *w {
		t.Fatalf("%s: error %v, want %v", what, got, want)
	}
}

// sameClass fails unless got and want match the same sentinel and name the
// same field. (Offsets and rule texts may differ between a validator and
// a decoder that reach the same byte from different ends.)
func sameClass(t *testing.T, what string, got, want error) {
	t.Helper()
	var g, w *codec.Error
	if !errors.As(got, &g) || !errors.As(want, &w) || g.Err != w.Err || g.Field != w.Field {
		t.Fatalf("%s: error %v, want the class and field of %v", what, got, want)
	}
}

// within reports whether b lies inside src.
func within(src, b []byte) bool {
	if len(b) == 0 || len(src) == 0 {
		return false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= base && p+uintptr(len(b)) <= base+uintptr(len(src))
}

// checkAlias fails unless field is nil when empty, and otherwise lies
// inside src with its capacity capped at its length.
func checkAlias(t *testing.T, name string, src, field []byte) {
	t.Helper()
	if len(field) == 0 {
		if field != nil {
			t.Fatalf("%s: empty field decoded as non-nil", name)
		}
		return
	}
	if !within(src, field) {
		t.Fatalf("%s: field does not alias the bytes it was decoded from", name)
	}
	if cap(field) != len(field) {
		t.Fatalf("%s: cap %d != len %d: an append could overwrite the next field", name, cap(field), len(field))
	}
}

// checkDetached fails if a cloned field still shares memory with src.
func checkDetached(t *testing.T, name string, src, field []byte) {
	t.Helper()
	if within(src, field) {
		t.Fatalf("%s: Clone shares memory with the input", name)
	}
}

// prefix is what every AppendBinary check appends after, to see that encoders
// append rather than overwrite.
const prefix = "\xa5\x5a"

// dirtyPrefix returns prefix in a buffer with room for n more bytes, that
// room filled with garbage: an encoder that grows dst without clearing it
// (the header encoders) must still write every byte it appends.
func dirtyPrefix(n int) []byte {
	b := make([]byte, len(prefix)+n)
	for i := range b {
		b[i] = 0xa5 ^ byte(i)
	}
	copy(b, prefix)
	return b[:len(prefix)]
}

// checkAppended fails unless out is prefix followed by want.
func checkAppended(t *testing.T, what string, out, want []byte) {
	t.Helper()
	if len(out) < len(prefix) || string(out[:len(prefix)]) != prefix {
		t.Fatalf("%s: AppendBinary did not keep dst", what)
	}
	if !bytes.Equal(out[len(prefix):], want) {
		t.Fatalf("%s: re-encoding differs\n got %x\nwant %x", what, out[len(prefix):], want)
	}
}

// checkUnchanged fails unless a failed AppendBinary returned dst as it was.
func checkUnchanged(t *testing.T, what string, out []byte) {
	t.Helper()
	if string(out) != prefix {
		t.Fatalf("%s: failed AppendBinary changed dst to %x", what, out)
	}
}

// nilIfEmpty normalises an empty field to nil, as decoders return it.
func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}
