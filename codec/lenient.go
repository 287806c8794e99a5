package codec

import "encoding/binary"

// A client must act on what a real server sends, even where the frame
// breaks a rule: a denial whose status comes with a stray body, an eviction
// with client id 0 or an unknown reason, a login reply with session 0. The
// Lenient decoders read such a frame the way a client does: they return
// every field as decoded AND the first broken rule, the error the strict
// decoder returns (a *Error; compare its Err and Field to tell the rules
// apart). Only what makes the fields unreadable (a short input, the wrong
// command byte, a truncated or non-UTF-8 login reply) returns the zero
// value. Strict decoding stays the default, and a server's rule.

// DecodeReplyHeaderLenient decodes the first 256 bytes of src like
// DecodeReplyHeader, but on a broken rule other than the length or the
// command it still returns every field as decoded, beside the error. A
// client reads Status first: a denial with a body is still a denial
// (err then matches ErrField with Field FieldSize).
func DecodeReplyHeaderLenient(src []byte) (ReplyHeader, error) {
	var h ReplyHeader
	err := h.Decode(src)
	if err == nil {
		return h, nil
	}
	b, herr := header(src, CommandReply)
	if herr != nil {
		return ReplyHeader{}, herr
	}
	h.load(b)
	return h, err
}

// DecodeEvictionLenient decodes the first 256 bytes of src like
// DecodeEviction, but on a broken rule other than the length or the command
// it still returns every field as decoded, beside the error: an eviction
// ends the session whatever it says, and Err (or ErrFor) maps what it says
// (an unknown reason is StatusInvalidCommand, reason 14 with an ill-formed
// window StatusUnauthenticated, as WIRE.md section 8 says).
func DecodeEvictionLenient(src []byte) (Eviction, error) {
	var e Eviction
	err := e.Decode(src)
	if err == nil {
		return e, nil
	}
	b, herr := header(src, CommandEviction)
	if herr != nil {
		return Eviction{}, herr
	}
	e.load(b)
	return e, err
}

// DecodeLoginReplyLenient decodes a login reply from the start of src like
// DecodeLoginReply, but a reply whose every field is present comes back
// decoded beside the first rule it breaks: a session of 0 (ErrField,
// FieldSession), which a client must see to drop the connection as a failed
// bind, an empty or non-UTF-8 server version. Only a truncated reply, which
// cannot be read, returns the zero value.
func DecodeLoginReplyLenient(src []byte) (LoginReply, int, error) {
	l, n, err := DecodeLoginReply(src)
	if err == nil {
		return l, n, nil
	}
	const text = offReplyServerVersion + 1
	if len(src) < text || len(src) < text+int(src[offReplyServerVersion]) {
		return LoginReply{}, 0, err
	}
	end := text + int(src[offReplyServerVersion])
	var version []byte // an empty field decodes as nil
	if end > text {
		version = src[text:end:end]
	}
	return LoginReply{
		UserID:         binary.LittleEndian.Uint32(src[offReplyUserID:]),
		Session:        binary.LittleEndian.Uint64(src[offReplySession:]),
		ServerProtocol: Version(binary.LittleEndian.Uint32(src[offReplyServerProtocol:])),
		ServerVersion:  version,
	}, end, err
}
