package codec

import (
	"encoding/binary"
	"unicode/utf8"
)

// LoginReply is the body of a successful login's Reply, after the result
// section (see SplitResult and AppendLoginReplyFrame):
//
//	[user_id u32][session u64][server_protocol_version u32][server_version_len u8][server_version]
//
// Session is never 0 (0 means "no session" and cannot be echoed).
// ServerVersion is UTF-8 of 1..255 bytes. Decoded byte fields alias the
// input; see Clone.
type LoginReply struct {
	UserID         uint32  // the user logged in as
	Session        uint64  // the session bound, never 0
	ServerProtocol Version // the server's protocol version (its window's Max)
	ServerVersion  []byte  // the server's version text, UTF-8 of 1..255 bytes
}

// Login reply layout offsets.
const (
	offReplyUserID         = 0
	offReplySession        = 4
	offReplyServerProtocol = 12
	offReplyServerVersion  = 16
)

// EncodedLen returns the number of bytes AppendBinary writes for a valid value.
func (l LoginReply) EncodedLen() int { return offReplyServerVersion + 1 + len(l.ServerVersion) }

// Validate returns the first broken rule of l, in field order, or nil.
func (l LoginReply) Validate() error {
	if l.Session == 0 {
		return newError(ErrField, "session", offReplySession, ruleLoginReplySession, wantSessionNonZero)
	}
	return checkText(l.ServerVersion, &fieldServerVersion, offReplyServerVersion)
}

const wantSessionNonZero = "session != 0"

// AppendBinary validates l and appends its encoding to dst. On error it returns
// dst unchanged.
func (l LoginReply) AppendBinary(dst []byte) ([]byte, error) {
	// One text field: utf8.Valid runs its own word-at-a-time ASCII loop,
	// so testing the copy for ASCII first only added a second pass over a
	// long non-ASCII version (a tenth of Encode/LoginReplyMax's profile).
	if l.Session == 0 || uint(len(l.ServerVersion)-1) >= 255 || !utf8.Valid(l.ServerVersion) {
		return dst, l.Validate()
	}
	return l.appendTo(dst), nil
}

// appendTo appends the encoding of l, which was validated.
func (l LoginReply) appendTo(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, l.UserID)
	dst = binary.LittleEndian.AppendUint64(dst, l.Session)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(l.ServerProtocol))
	return appendText8(dst, l.ServerVersion)
}

// Clone returns a copy of l that shares no memory with the input it was
// decoded from.
func (l LoginReply) Clone() LoginReply {
	l.ServerVersion = cloneBytes(l.ServerVersion)
	return l
}

// DecodeLoginReply decodes a LoginReply from the start of src and returns it
// with the number of bytes it used. Each field is checked as it is read, so
// a session of 0 is reported before a later truncation.
func DecodeLoginReply(src []byte) (LoginReply, int, error) {
	if user, session, proto, version, n, ok := fastLoginReply(src, false); ok {
		return LoginReply{UserID: user, Session: session, ServerProtocol: proto, ServerVersion: version}, n, nil
	}
	r := reader{src: src, truncated: ruleLoginReplyTruncated}
	return decoded(r.loginReply(), &r)
}

// ParseLoginReply decodes src as exactly one LoginReply; trailing bytes are
// ErrTrailing.
func ParseLoginReply(src []byte) (LoginReply, error) {
	if user, session, proto, version, _, ok := fastLoginReply(src, true); ok {
		return LoginReply{UserID: user, Session: session, ServerProtocol: proto, ServerVersion: version}, nil
	}
	r := reader{src: src, truncated: ruleLoginReplyTruncated}
	return parsed(r.loginReply(), &r, ruleLoginReplyTrailing)
}

// fastLoginReply is the fast path of both decoders (see fast.go), written
// out for the reply's fixed layout: the length tests, the session, and the
// version string's test: ASCII in one masked word when it is short, UTF-8
// otherwise. It returns the fields, which travel in registers (see
// fastClientInfo).
//
// A long version string is tested for what the reader requires of it,
// UTF-8, rather than for ASCII as the other bodies' fast paths test their
// text: it is the body's one text field, so multi-byte text would fail the
// ASCII test only to be read again from the start by the reader, which
// runs the same utf8.Valid (Decode/LoginReplyMax paid both). utf8.Valid
// tests ASCII a word at a time itself, so ASCII text costs no more.
func fastLoginReply(src []byte, whole bool) (uint32, uint64, Version, []byte, int, bool) {
	const text = offReplyServerVersion + 1
	if len(src) <= text {
		return 0, 0, 0, nil, 0, false
	}
	end := text + int(src[offReplyServerVersion])
	session := binary.LittleEndian.Uint64(src[offReplySession:])
	if end == text || end > len(src) || whole && end != len(src) || session == 0 {
		return 0, 0, 0, nil, 0, false
	}
	if n := end - text; n <= 8 {
		if !asciiTop(binary.LittleEndian.Uint64(src[end-8:end]), n) {
			return 0, 0, 0, nil, 0, false
		}
	} else if !utf8.Valid(src[text:end]) {
		return 0, 0, 0, nil, 0, false
	}
	user := binary.LittleEndian.Uint32(src[offReplyUserID:])
	proto := Version(binary.LittleEndian.Uint32(src[offReplyServerProtocol:]))
	return user, session, proto, src[text:end:end], end, true
}

func (r *reader) loginReply() LoginReply {
	var l LoginReply
	l.UserID = r.u32("user_id")
	l.Session = r.u64("session")
	if r.err == nil && l.Session == 0 {
		r.fail(ErrField, "session", offReplySession, ruleLoginReplySession, wantSessionNonZero)
	}
	l.ServerProtocol = Version(r.u32("server_protocol_version"))
	l.ServerVersion = r.text8(&fieldServerVersion)
	return l
}
