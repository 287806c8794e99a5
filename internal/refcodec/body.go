package refcodec

import (
	"bytes"
	"encoding/binary"
	"io"
	"unicode/utf8"
)

// body reads or writes a body front to back with a sticky error. Each body
// is described once, as a walk over its fields in wire order that checks
// each field's rules as it goes: the decoder follows the walk to fill a
// value, the encoder to write one. After the first failure every read is a
// no-op that leaves the zero value, so the failure reported is the first
// one in field order, and no value or bytes are returned with it.
type body struct {
	err error
	r   *bytes.Reader // the bytes to decode; nil when encoding
	w   bytes.Buffer  // the bytes encoded
}

// fail records c unless an earlier failure is already recorded.
func (b *body) fail(c Class) {
	if b.err == nil {
		b.err = c
	}
}

// check fails with c unless ok, a rule on a field already walked.
func (b *body) check(ok bool, c Class) {
	if !ok {
		b.fail(c)
	}
}

// num reads or writes p, a little-endian integer or Uint128; too few bytes
// left is Truncated.
func (b *body) num(p any) {
	if b.r == nil {
		_ = binary.Write(&b.w, binary.LittleEndian, p)
	} else if b.err == nil && binary.Read(b.r, binary.LittleEndian, p) != nil {
		b.fail(Truncated)
	}
}

// raw reads or writes n raw bytes. n is checked against the bytes remaining
// before anything is allocated (Truncated), and n == 0 reads nil; a value
// of another length is a Length error.
func (b *body) raw(p *[]byte, n uint64) {
	switch {
	case b.r == nil:
		b.check(uint64(len(*p)) == n, Length)
		b.w.Write(*p)
	case b.err != nil || n == 0:
	case n > uint64(b.r.Len()):
		b.fail(Truncated)
	default:
		*p = make([]byte, n)
		_, _ = io.ReadFull(b.r, *p) // cannot fail: n bytes remain
	}
}

// text reads or writes a length of type L, then that many bytes of UTF-8
// text (else UTF8). The length must be min..the largest L (255 for a u8,
// MaxUint32 for a u32), else Length.
func text[L uint8 | uint32](b *body, p *[]byte, min int) {
	l := L(len(*p))
	b.num(&l)
	n := uint64(l)
	if b.r == nil {
		n = uint64(len(*p)) // before the conversion to L, which may wrap
	}
	b.check(n >= uint64(min) && n <= uint64(^L(0)), Length)
	b.raw(p, n)
	b.check(utf8.Valid(*p), UTF8)
}

// decode walks src and returns the value with the number of bytes
// consumed, or the first failure.
func decode[T any](src []byte, walk func(*body, *T)) (T, int, error) {
	b := body{r: bytes.NewReader(src)}
	var v, zero T
	walk(&b, &v)
	if b.err != nil {
		return zero, 0, b.err
	}
	return v, len(src) - b.r.Len(), nil
}

// encode walks v and returns its bytes, or the first broken rule.
func encode[T any](v T, walk func(*body, *T)) ([]byte, error) {
	var b body
	walk(&b, &v)
	if b.err != nil {
		return nil, b.err
	}
	return b.w.Bytes(), nil
}

// whole runs a prefix decoder and refuses bytes after what it used.
func whole[T any](src []byte, decode func([]byte) (T, int, error)) (T, error) {
	v, n, err := decode(src)
	if err == nil && n < len(src) {
		var zero T
		return zero, Trailing
	}
	return v, err // the zero value with an error
}

// info walks a ClientVersionInfo (WIRE.md section 2).
func info(b *body, v *ClientVersionInfo) {
	b.num(&v.Protocol)
	text[uint8](b, &v.SDKName, 1)
	text[uint8](b, &v.SDKVersion, 1)
}

// loginRegister walks a LOGIN_REGISTER body (WIRE.md section 3), with the
// bind secret of 0.11.1 when secret is set (section 10.2).
func loginRegister(secret bool) func(*body, *LoginRegister) {
	return func(b *body, v *LoginRegister) {
		info(b, &v.Info)
		b.secret(v.Info, &v.BindSecret, secret)
		text[uint8](b, &v.Username, 1)
		text[uint8](b, &v.Password, 0)
		text[uint32](b, &v.Context, 0)
	}
}

// loginRegisterPAT walks a LOGIN_REGISTER_WITH_PAT body (WIRE.md section
// 3), with the bind secret of 0.11.1 when secret is set (section 10.2).
func loginRegisterPAT(secret bool) func(*body, *LoginRegisterPAT) {
	return func(b *body, v *LoginRegisterPAT) {
		info(b, &v.Info)
		b.secret(v.Info, &v.BindSecret, secret)
		text[uint8](b, &v.Token, 0)
		text[uint32](b, &v.Context, 0)
	}
}

// loginReply walks a login reply body (WIRE.md section 4).
func loginReply(b *body, v *LoginReply) {
	b.num(&v.UserID)
	b.num(&v.Session)
	b.check(v.Session != 0, Field) // 0 means "no session" and cannot be echoed
	b.num(&v.ServerProtocol)
	text[uint8](b, &v.ServerVersion, 1)
}

// DecodeClientVersionInfo decodes a ClientVersionInfo from the start of src
// and returns it with the number of bytes consumed; bytes after the last
// field are ignored. Layout:
// [protocol_version u32][sdk_name_len u8][sdk_name][sdk_version_len u8][sdk_version].
func DecodeClientVersionInfo(src []byte) (ClientVersionInfo, int, error) { return decode(src, info) }

// ParseClientVersionInfo decodes src as exactly one ClientVersionInfo; any
// byte after the last field is a Trailing error.
func ParseClientVersionInfo(src []byte) (ClientVersionInfo, error) {
	return whole(src, DecodeClientVersionInfo)
}

// DecodeLoginRegister decodes a LOGIN_REGISTER body from the start of src
// and returns it with the number of bytes consumed; bytes after the last
// field are ignored. Layout: [ClientVersionInfo][username_len u8][username]
// [password_len u8][password][context_len u32][context].
func DecodeLoginRegister(src []byte) (LoginRegister, int, error) {
	return decode(src, loginRegister(false))
}

// ParseLoginRegister decodes src as exactly one LOGIN_REGISTER body; any
// byte after the last field is a Trailing error.
func ParseLoginRegister(src []byte) (LoginRegister, error) { return whole(src, DecodeLoginRegister) }

// DecodeLoginRegisterPAT decodes a LOGIN_REGISTER_WITH_PAT body from the
// start of src and returns it with the number of bytes consumed; bytes after
// the last field are ignored. Layout: [ClientVersionInfo][token_len u8]
// [token][context_len u32][context].
func DecodeLoginRegisterPAT(src []byte) (LoginRegisterPAT, int, error) {
	return decode(src, loginRegisterPAT(false))
}

// ParseLoginRegisterPAT decodes src as exactly one LOGIN_REGISTER_WITH_PAT
// body; any byte after the last field is a Trailing error.
func ParseLoginRegisterPAT(src []byte) (LoginRegisterPAT, error) {
	return whole(src, DecodeLoginRegisterPAT)
}

// DecodeLoginReply decodes a login reply body (the part after the result
// section) from the start of src and returns it with the number of bytes
// consumed; bytes after the last field are ignored. A session of 0 is a
// Field error, reported as soon as the session is read. Layout:
// [user_id u32][session u64][server_protocol_version u32]
// [server_version_len u8][server_version].
func DecodeLoginReply(src []byte) (LoginReply, int, error) { return decode(src, loginReply) }

// ParseLoginReply decodes src as exactly one login reply body; any byte
// after the last field is a Trailing error.
func ParseLoginReply(src []byte) (LoginReply, error) { return whole(src, DecodeLoginReply) }

// EncodeClientVersionInfo validates v (sdk name then sdk version: each
// 1..255 bytes, else Length; valid UTF-8, else UTF8) and encodes it.
func EncodeClientVersionInfo(v ClientVersionInfo) ([]byte, error) { return encode(v, info) }

// EncodeLoginRegister validates v in field order (the ClientVersionInfo,
// a version that selects the 0.11.0 layout (not 0.11.1, else Field),
// username 1..255, password 0..255, context 0..MaxUint32 bytes, each valid
// UTF-8) and encodes it.
func EncodeLoginRegister(v LoginRegister) ([]byte, error) { return encode(v, loginRegister(false)) }

// EncodeLoginRegisterPAT validates v in field order (the ClientVersionInfo,
// a version that selects the 0.11.0 layout, token 0..255, context
// 0..MaxUint32 bytes, each valid UTF-8) and encodes it.
func EncodeLoginRegisterPAT(v LoginRegisterPAT) ([]byte, error) {
	return encode(v, loginRegisterPAT(false))
}

// EncodeLoginReply validates v in field order (session != 0, else Field;
// server version 1..255 bytes of valid UTF-8) and encodes it.
func EncodeLoginReply(v LoginReply) ([]byte, error) { return encode(v, loginReply) }
