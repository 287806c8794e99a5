package codec

import (
	"crypto/subtle"
	"fmt"
	"log/slog"
	"unsafe"
)

// Secret holds a password or a token. Its bytes travel on the wire, but no
// way of printing a value shows them: String, GoString, every fmt verb,
// MarshalText (so encoding/json and text encoders), and LogValue all print
// a redaction. That holds also where fmt cannot call a method, such as a
// Secret in an unexported struct field or under %p: a Secret holds a
// pointer and a length, no byte slice, and fmt prints a nested pointer as
// an address, never what it points to. Lengths are not secret on the wire
// and show as such.
//
// Reflection-based printers and comparers (those that walk unexported
// fields) see only an untyped pointer and a length, never a byte: the
// pointer is an unsafe.Pointer, which they print as an address and never
// follow. Secret is not comparable with == (so neither are the bodies that
// hold one): compare secrets with Equal, and bodies field by field.
// reflect.DeepEqual reports two Secrets equal only when they hold the same
// memory.
//
// Bytes is the one way to read the bytes; Equal compares them in constant
// time. A decoded Secret aliases the input like every decoded field; the
// zero value is the empty secret.
type Secret struct {
	_ [0]func() // not comparable: == would compare addresses, not bytes
	p unsafe.Pointer
	n int
}

// NewSecret returns a Secret holding b, without copying it: b must not
// change while the Secret is in use.
func NewSecret(b []byte) Secret {
	if len(b) == 0 {
		return Secret{}
	}
	return Secret{p: unsafe.Pointer(unsafe.SliceData(b)), n: len(b)}
}

// Bytes returns the secret's bytes (nil when empty), aliasing what the
// Secret was made from; capacity is capped at the length.
//
// It is the only function of the package that uses unsafe: p and n were
// taken from a slice by NewSecret, so they describe memory that the Secret
// keeps alive and that is n bytes long.
func (s Secret) Bytes() []byte {
	if s.n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(s.p), s.n)
}

// Len returns the number of bytes.
func (s Secret) Len() int { return s.n }

// IsZero reports whether the secret is empty.
func (s Secret) IsZero() bool { return s.n == 0 }

// Equal reports, in time that depends only on the lengths, whether s and t
// hold the same bytes. Like the other Equal methods of the package it takes
// its own type; wrap raw bytes with NewSecret (which does not copy).
func (s Secret) Equal(t Secret) bool { return subtle.ConstantTimeCompare(s.Bytes(), t.Bytes()) == 1 }

// redacted is what every printed form of a Secret shows.
const redacted = "[REDACTED]"

// String returns a redaction, never the bytes.
func (Secret) String() string { return redacted }

// GoString returns a redaction, never the bytes.
func (Secret) GoString() string { return "codec.Secret(" + redacted + ")" }

// Format implements fmt.Formatter so that every verb, %x and %q included,
// prints a redaction.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		_, _ = f.Write([]byte(s.GoString()))
		return
	}
	_, _ = f.Write([]byte(redacted))
}

// MarshalText returns a redaction, so encoders that use it never leak the
// bytes.
func (Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// LogValue implements slog.LogValuer: a redaction.
func (Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// clone copies s; empty stays empty.
func (s Secret) clone() Secret { return NewSecret(cloneBytes(s.Bytes())) }

// cloneBytes copies b, keeping nil (and empty) as nil.
func cloneBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return append([]byte(nil), b...)
}
