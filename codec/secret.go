package codec

import "fmt"

// Secret holds a password or a token. Its bytes travel on the wire, but
// every way a program prints it (String, GoString, every fmt verb, also as a
// field of a struct printed with %v, %+v or %#v, and text or JSON
// marshalling) shows only a redaction. Use the bytes directly, e.g.
// subtle.ConstantTimeCompare(s, want), to check it.
//
// One misuse escapes every type's control: fmt's %p verb applied to a
// struct value (not a pointer) prints "%!p(T=...)" by reflection with all
// methods disabled, so the bytes of a Secret field show there. go vet
// reports that call; print a pointer or use %v.
type Secret []byte

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

// Len returns the number of bytes; lengths are not secret on the wire.
func (s Secret) Len() int { return len(s) }

// clone copies s; nil stays nil.
func (s Secret) clone() Secret { return Secret(cloneBytes(s)) }

// cloneBytes copies b, keeping nil (and empty) as nil.
func cloneBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return append([]byte(nil), b...)
}
