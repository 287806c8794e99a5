package codec

import (
	"errors"
	"strconv"
	"strings"
)

// Sentinels for the classes of failure. Every *Error matches exactly one of
// them with errors.Is. Like every error of the package, each reads
// "codec: ...".
var (
	// ErrTruncated: the input is shorter than the layout or a length field needs.
	ErrTruncated = errors.New("codec: truncated")
	// ErrCommand: byte 60 of a header is not the expected frame kind.
	ErrCommand = errors.New("codec: wrong command")
	// ErrSize: a header's size field breaks its own rule: outside
	// 256..64 MiB (the frame cannot be delimited, so the stream cannot be
	// read further), or an eviction's not 256. A frame whose size is
	// valid but above what a reader accepts is ErrFrameTooLarge, and a
	// denial that carries a body is ErrField (rule reply.status).
	ErrSize = errors.New("codec: bad size")
	// ErrReserved: a reserved or padding byte is not zero.
	ErrReserved = errors.New("codec: non-zero reserved byte")
	// ErrField: a header or body field breaks a rule of its own (client id
	// 0, unknown operation, the session and request rules, a NonReplicated
	// code of 0, a login reply session of 0, a denial reply with a body).
	ErrField = errors.New("codec: invalid field")
	// ErrReason: an eviction reason is 0 or above 15.
	ErrReason = errors.New("codec: invalid eviction reason")
	// ErrWindow: an eviction's window breaks its rule for the reason.
	ErrWindow = errors.New("codec: invalid window")
	// ErrLength: a text field is empty where it must not be, or too long
	// to encode.
	ErrLength = errors.New("codec: invalid length")
	// ErrUTF8: a text field is not valid UTF-8.
	ErrUTF8 = errors.New("codec: invalid UTF-8")
	// ErrTrailing: bytes follow the last field of a whole-buffer parse.
	ErrTrailing = errors.New("codec: trailing bytes")
	// ErrRange: a version component is above 1023.
	ErrRange = errors.New("codec: out of range")
	// ErrSyntax: text does not follow the version grammar.
	ErrSyntax = errors.New("codec: syntax error")
)

// Error reports the first broken rule of a decode, parse or validation.
//
// Rule is the stable id of that rule, the id vectors/rules.json gives it
// ("cvi.sdk_name.utf8", "request.size"; a validity rule, or for the few
// limits only an encoder can break, such as a password over 255 bytes, an
// encoding rule): a program may branch on it, and ids are append-only like
// the vectors' own (a rule keeps its id, and new rules get new ids). The id
// depends on the message: an error in the ClientVersionInfo prefix of a
// login body is a cvi.* rule. Want is the same rule written like code for
// people ("valid UTF-8", "1 <= reason <= 15"); its wording may change.
// Field and Offset say where the rule broke (WIRE.md section 9), and Err is
// the sentinel of the class of failure, which errors.Is matches. An Error
// never contains the bytes of its input, so never those of a secret.
type Error struct {
	// Field is the wire name of the field that breaks the rule, as in
	// the reference layout ("sdk_name", "reserved", "header").
	Field Field
	// Offset is the byte offset of that field in the input, or of its
	// first bad byte (WIRE.md section 9). For an encoder it is the offset
	// in the encoding it would have produced, and for version text the
	// index of the offending character.
	Offset int
	// Rule is the stable id of the broken rule in vectors/rules.json.
	// It never changes for a given rule.
	Rule string
	// Want is what the rule wants, written like code, for people; its
	// wording may change, so a program should read Rule instead.
	Want string
	// Err is the sentinel the error matches (ErrTruncated, ErrUTF8, ...).
	Err error
	// Revision is the layout of the login body the error is in, when it
	// was read or written in one other than RevisionBase (a bind-secret
	// body of protocol 0.11.1, whose offsets after the ClientVersionInfo
	// are 32 higher); RevisionBase for every other error.
	Revision Revision
}

// Error reads "codec: FIELD at offset N: CLASS, want WANT (rule ID)", as
// in "codec: sdk_name at offset 6: invalid UTF-8, want valid UTF-8 (rule
// cvi.sdk_name.utf8)": what was found, what the rule wants, and its id. An
// Error built by hand without a Want or a Rule leaves that part out.
func (e *Error) Error() string {
	class := "<nil>"
	if e.Err != nil {
		// The sentinels read "codec: CLASS" like every error of the
		// package; inside an Error the prefix is said once.
		class = strings.TrimPrefix(e.Err.Error(), "codec: ")
	}
	s := "codec: " + string(e.Field) + " at offset " + strconv.Itoa(e.Offset) + ": " + class
	if e.Want != "" {
		s += ", want " + e.Want
	}
	if e.Rule != "" {
		s += " (rule " + e.Rule + ")"
	}
	if e.Revision != RevisionBase {
		s += " in the " + e.Revision.String() + " layout"
	}
	return s
}

// Unwrap returns the sentinel, so errors.Is(err, ErrTruncated) works.
func (e *Error) Unwrap() error { return e.Err }

// newError is the single allocation of an error path. It is kept out of
// line so that the many error returns of a decoder stay small calls and the
// success path stays short. rule is one of the constants of rules.go.
//
//go:noinline
func newError(kind error, field Field, off int, rule, want string) error {
	return &Error{Field: field, Offset: off, Rule: rule, Want: want, Err: kind}
}
