// Package refcodec is a deliberately plain, obviously-correct reference
// implementation of the Apache Iggy connection-lifecycle wire format
// described in docs/WIRE.md.
//
// It exists only as a differential oracle: property tests, fuzz targets and
// benchmarks run the hand-optimised codec package and this package on the
// same inputs and require identical results, error class for error class.
// To keep the two independent it deliberately shares no code with codec and
// never imports it; it uses only the standard library (encoding/binary,
// bytes.Reader, unicode/utf8, strconv) and favours clarity over speed.
//
// Every function returns a [Class] value as its error (or nil), and no
// function panics on any input. Lengths read from the wire are always
// checked against the bytes remaining before anything is allocated.
package refcodec

import (
	"errors"
	"fmt"
	"strconv"
)

// Class is the class of a decoding, encoding or validation failure. It is
// the error type returned by every function in this package, and it must
// match the fast codec's error classes one for one.
type Class int

// The error classes. OK is the zero value and is never returned as an error.
const (
	// OK means no error; it is never returned as an error value.
	OK Class = iota
	// Truncated: fewer bytes than the layout or a length field needs.
	Truncated
	// Command: byte 60 of a header is not the expected frame kind.
	Command
	// Size: a size out of range, or an eviction size other than 256.
	Size
	// Reserved: a non-zero reserved or padding byte (including request bytes
	// 196..200 outside NonReplicated).
	Reserved
	// Field: client 0, an unknown or zero request operation, a broken
	// session/request rule, a NonReplicated code of 0, a denial reply
	// (status != 0) that carries a body, a login reply session of 0, or a
	// login body to encode in a layout its version does not select.
	Field
	// Reason: an eviction reason of 0 or above 15.
	Reason
	// BadWindow: reason 14 with an ill-formed window, or a non-zero window
	// on any other reason. (The codec calls this class "window"; the
	// constant cannot be named Window because the Window type has that name.)
	BadWindow
	// Length: an empty sdk name, sdk version, username or server version, a
	// field too long to encode (> 255 bytes for u8-prefixed fields,
	// > MaxUint32 bytes for context), or a bind secret of the wrong length.
	Length
	// UTF8: invalid UTF-8 in a text field.
	UTF8
	// Trailing: bytes after the last field in a Parse.
	Trailing
	// Range: a version component above 1023.
	Range
	// Syntax: text that does not follow the version grammar.
	Syntax
)

// classNames holds the String form of every defined class, indexed by value.
var classNames = [...]string{
	OK:        "ok",
	Truncated: "truncated",
	Command:   "command",
	Size:      "size",
	Reserved:  "reserved",
	Field:     "field",
	Reason:    "reason",
	BadWindow: "window",
	Length:    "length",
	UTF8:      "utf8",
	Trailing:  "trailing",
	Range:     "range",
	Syntax:    "syntax",
}

// String returns the lower-case name of the class, such as "truncated", or
// "Class(N)" for a value that is not a defined class.
func (c Class) String() string {
	if c >= 0 && int(c) < len(classNames) {
		return classNames[c]
	}
	return "Class(" + strconv.Itoa(int(c)) + ")"
}

// Error implements error; it returns "refcodec: " followed by the class
// name, for example "refcodec: truncated".
func (c Class) Error() string {
	return "refcodec: " + c.String()
}

// ClassOf returns the Class carried by err: OK for nil, the Class found by
// errors.As otherwise, and Class(-1) for a non-nil error that carries no
// Class (this package never returns one).
func ClassOf(err error) Class {
	if err == nil {
		return OK
	}
	var c Class
	if errors.As(err, &c) {
		return c
	}
	return Class(-1)
}

// Frame layout constants.
const (
	// HeaderSize is the size in bytes of every frame header.
	HeaderSize = 256
	// MaxFrameSize is the largest frame size (header + body) accepted, 64 MiB.
	MaxFrameSize = 64 << 20
)

// Command bytes (header offset 60) of the client-facing frame kinds.
const (
	// CommandRequest is the command byte of a Request header.
	CommandRequest uint8 = 5
	// CommandReply is the command byte of a Reply header.
	CommandReply uint8 = 8
	// CommandEviction is the command byte of an Eviction header.
	CommandEviction uint8 = 13
)

// Operations (request offset 176, reply offset 208) with a rule of their own.
const (
	// OpReserved is operation 0; a reply may echo it, a request never carries it.
	OpReserved uint8 = 0
	// OpRegister is the login operation.
	OpRegister uint8 = 1
	// OpNonReplicated carries a command code in request bytes 196..200.
	OpNonReplicated uint8 = 2
	// OpLogout is the logout operation.
	OpLogout uint8 = 3
)

// ReasonIncompatibleProtocol is eviction reason 14, the only reason that
// carries a (well-formed) window.
const ReasonIncompatibleProtocol uint8 = 14

// Uint128 is a little-endian u128 on the wire: Lo at the lower offset, Hi
// eight bytes later.
type Uint128 struct{ Lo, Hi uint64 }

// IsZero reports whether both halves are zero.
func (u Uint128) IsZero() bool { return u.Lo == 0 && u.Hi == 0 }

// Window is an accepted protocol-version window, both ends packed versions.
// CountPatch makes the upper bound count patch, as protocol 0.11.1's gate
// does (WIRE.md section 10.5); the eviction frame does not carry it.
type Window struct {
	Min, Max   uint32
	CountPatch bool
}

// ClientVersionInfo is the prefix of both login bodies.
type ClientVersionInfo struct {
	// Protocol is the packed protocol version the client was built against.
	Protocol uint32
	// SDKName is the SDK name, UTF-8, 1..255 bytes.
	SDKName []byte
	// SDKVersion is the SDK's own version, UTF-8, 1..255 bytes.
	SDKVersion []byte
}

// LoginRegister is a LOGIN_REGISTER (code 40) body. Its Password is never
// shown by fmt (see Format).
type LoginRegister struct {
	// Info is the ClientVersionInfo prefix.
	Info ClientVersionInfo
	// BindSecret is nil in the 0.11.0 layout and 32 bytes in 0.11.1's
	// (WIRE.md section 10.2). It is a secret.
	BindSecret []byte
	// Username is UTF-8, 1..255 bytes.
	Username []byte
	// Password is UTF-8, 0..255 bytes. It is a secret.
	Password []byte
	// Context is UTF-8, 0..MaxUint32 bytes.
	Context []byte
}

// LoginRegisterPAT is a LOGIN_REGISTER_WITH_PAT (code 45) body. Its Token is
// never shown by fmt (see Format).
type LoginRegisterPAT struct {
	// Info is the ClientVersionInfo prefix.
	Info ClientVersionInfo
	// BindSecret is nil in the 0.11.0 layout and 32 bytes in 0.11.1's. It
	// is a secret.
	BindSecret []byte
	// Token is the personal access token, UTF-8, 0..255 bytes. It is a secret.
	Token []byte
	// Context is UTF-8, 0..MaxUint32 bytes.
	Context []byte
}

// BindSession is a BIND_SESSION (code 15) body (WIRE.md section 10.3). Its
// BindSecret is never shown by fmt (see Format).
type BindSession struct {
	// Info is the ClientVersionInfo prefix.
	Info ClientVersionInfo
	// ClientID is the logical session's client id.
	ClientID Uint128
	// Session is the session to bind, 0 for the one a lost login got.
	Session uint64
	// MetadataWatermark is the least metadata frontier wanted.
	MetadataWatermark uint64
	// BindSecret is 32 bytes. It is a secret.
	BindSecret []byte
}

// LoginReply is the body of a successful login reply (after the result
// section).
type LoginReply struct {
	// UserID is the logged-in user's id.
	UserID uint32
	// Session is the session number, never 0.
	Session uint64
	// ServerProtocol is the server's packed protocol version.
	ServerProtocol uint32
	// ServerVersion is the server's version text, UTF-8, 1..255 bytes.
	ServerVersion []byte
}

// RequestHeader is a Request (command 5) header.
//
// Its first fields, and those of ReplyHeader and Eviction, are the
// prologue every header shares: Checksum (bytes 0..16), ChecksumBody
// (16..32), Cluster (32..48), Size, the frame size with the header included
// (48..52; an Eviction has none), View (52..56), Release (56..60) and
// Replica (61). Byte 60 is the command, which each type implies.
type RequestHeader struct {
	Checksum     Uint128
	ChecksumBody Uint128
	Cluster      Uint128
	Size         uint32
	View         uint32
	Release      uint32
	Replica      uint8
	// Client is the client id (bytes 128..144), never 0.
	Client Uint128
	// RequestChecksum is bytes 144..160.
	RequestChecksum Uint128
	// Timestamp is bytes 160..168.
	Timestamp uint64
	// Request is the request number (bytes 168..176).
	Request uint64
	// Operation is byte 176.
	Operation uint8
	// Session is bytes 184..192.
	Session uint64
	// UserID is bytes 192..196.
	UserID uint32
	// Code is the command code at bytes 196..200; only NonReplicated has one,
	// and it is 0 for every other operation.
	Code uint32
}

// ReplyHeader is a Reply (command 8) header; its prologue fields are as
// RequestHeader's.
type ReplyHeader struct {
	Checksum     Uint128
	ChecksumBody Uint128
	Cluster      Uint128
	Size         uint32
	View         uint32
	Release      uint32
	Replica      uint8
	// RequestChecksum is the echoed request checksum (bytes 128..144).
	RequestChecksum Uint128
	// Context is bytes 144..160.
	Context Uint128
	// Client is the client id (bytes 160..176).
	Client Uint128
	// Op is bytes 176..184.
	Op uint64
	// Commit is bytes 184..192.
	Commit uint64
	// Timestamp is bytes 192..200.
	Timestamp uint64
	// Request is the echoed request number (bytes 200..208).
	Request uint64
	// Operation is byte 208.
	Operation uint8
	// Status is bytes 216..220: 0 ok, otherwise an error code.
	Status uint32
}

// Eviction is an Eviction (command 13) header; its size is always 256, and
// its other prologue fields are as RequestHeader's.
type Eviction struct {
	Checksum     Uint128
	ChecksumBody Uint128
	Cluster      Uint128
	View         uint32
	Release      uint32
	Replica      uint8
	// Client is the client id (bytes 128..144), never 0.
	Client Uint128
	// Window is the accepted window: Max at 144..148, Min at 148..152.
	Window Window
	// Reason is byte 255, 1..15.
	Reason uint8
}

// Format implements fmt.Formatter so that no verb ever shows the password
// or the bind secret: every verb prints the struct with them replaced by
// "[redacted]".
func (l LoginRegister) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "refcodec.LoginRegister{Info:{Protocol:%d SDKName:%q SDKVersion:%q} BindSecret:[redacted] Username:%q Password:[redacted] Context:%q}",
		l.Info.Protocol, l.Info.SDKName, l.Info.SDKVersion, l.Username, l.Context)
}

// Format implements fmt.Formatter so that no verb ever shows the token or
// the bind secret: every verb prints the struct with them replaced by
// "[redacted]".
func (l LoginRegisterPAT) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "refcodec.LoginRegisterPAT{Info:{Protocol:%d SDKName:%q SDKVersion:%q} BindSecret:[redacted] Token:[redacted] Context:%q}",
		l.Info.Protocol, l.Info.SDKName, l.Info.SDKVersion, l.Context)
}

// Format implements fmt.Formatter so that no verb ever shows the bind
// secret: every verb prints the struct with it replaced by "[redacted]".
func (b BindSession) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "refcodec.BindSession{Info:{Protocol:%d SDKName:%q SDKVersion:%q} ClientID:{Lo:%d Hi:%d} Session:%d MetadataWatermark:%d BindSecret:[redacted]}",
		b.Info.Protocol, b.Info.SDKName, b.Info.SDKVersion, b.ClientID.Lo, b.ClientID.Hi, b.Session, b.MetadataWatermark)
}
