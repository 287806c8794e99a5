package codec

import (
	"errors"
	"strconv"
)

// Sentinels for the classes of failure. Every *Error matches exactly one of
// them with errors.Is.
var (
	// ErrTruncated: the input is shorter than the layout or a length field needs.
	ErrTruncated = errors.New("truncated")
	// ErrCommand: byte 60 of a header is not the expected frame kind.
	ErrCommand = errors.New("wrong command")
	// ErrSize: a header's size is out of range, an eviction's size is not
	// 256, or a denial reply carries a body.
	ErrSize = errors.New("bad size")
	// ErrReserved: a reserved or padding byte is not zero.
	ErrReserved = errors.New("non-zero reserved byte")
	// ErrField: a header or body field breaks a rule of its own (client id
	// 0, unknown operation, the session and request rules, a NonReplicated
	// code of 0, a login reply session of 0).
	ErrField = errors.New("invalid field")
	// ErrReason: an eviction reason is 0 or above 15.
	ErrReason = errors.New("invalid eviction reason")
	// ErrWindow: an eviction's window breaks its rule for the reason.
	ErrWindow = errors.New("invalid window")
	// ErrLength: a text field is empty where it must not be, or too long
	// to encode.
	ErrLength = errors.New("invalid length")
	// ErrUTF8: a text field is not valid UTF-8.
	ErrUTF8 = errors.New("invalid UTF-8")
	// ErrTrailing: bytes follow the last field of a whole-buffer parse.
	ErrTrailing = errors.New("trailing bytes")
	// ErrRange: a version component is above 1023.
	ErrRange = errors.New("out of range")
	// ErrSyntax: text does not follow the version grammar.
	ErrSyntax = errors.New("syntax error")
)

// Error reports the first broken rule of a decode, parse or validation.
//
// Field is the wire name of the field (as in the reference layout), Offset
// the byte offset of that field in the input (or, for an encoder, in the
// encoding it would have produced; for version text, the index of the
// offending character), and Rule the rule written like code. Err is the
// sentinel it matches. An Error never contains the bytes of a secret.
type Error struct {
	Field  string
	Offset int
	Rule   string
	Err    error
}

// Error returns "codec: FIELD at offset N: RULE (CLASS)".
func (e *Error) Error() string {
	return "codec: " + e.Field + " at offset " + strconv.Itoa(e.Offset) + ": " + e.Rule + " (" + e.Err.Error() + ")"
}

// Unwrap returns the sentinel, so errors.Is(err, ErrTruncated) works.
func (e *Error) Unwrap() error { return e.Err }

// newError is the single allocation of an error path. It is kept out of
// line so that the many error returns of a decoder stay small calls and the
// success path stays short.
//
//go:noinline
func newError(kind error, field string, off int, rule string) error {
	return &Error{Field: field, Offset: off, Rule: rule, Err: kind}
}
