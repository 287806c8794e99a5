package refcodec

import (
	"bytes"
	"encoding/binary"
	"io"
	"math"
	"unicode/utf8"
)

// MaxShortText is the longest u8-length-prefixed text field, in bytes.
const MaxShortText = 255

// sticky keeps the first failure of a reader or writer.
type sticky struct{ err error }

// fail records c unless an earlier failure is already recorded.
func (s *sticky) fail(c Class) {
	if s.err == nil {
		s.err = c
	}
}

// reader reads a body front to back with a sticky error: after the first
// failure every read is a no-op that returns the zero value, so a decoder
// reads straight down the layout, and the failure it reports is the first
// one in field order.
type reader struct {
	sticky
	r *bytes.Reader
}

// get reads a little-endian integer, or fails with Truncated.
func get[T uint8 | uint32 | uint64](d *reader) T {
	var v T
	if d.err == nil && binary.Read(d.r, binary.LittleEndian, &v) != nil {
		d.fail(Truncated)
	}
	return v
}

// bytes reads n raw bytes, checking n against the bytes remaining before
// anything is allocated; n == 0 gives nil.
func (d *reader) bytes(n uint64) []byte {
	if d.err != nil || n == 0 {
		return nil
	}
	if n > uint64(d.r.Len()) {
		d.fail(Truncated)
		return nil
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(d.r, buf); err != nil {
		d.fail(Truncated)
	}
	return buf
}

// text reads n bytes of UTF-8 text whose length n has already been read.
func (d *reader) text(n uint64) []byte {
	b := d.bytes(n)
	if d.err == nil && !utf8.Valid(b) {
		d.fail(UTF8)
	}
	return b
}

// shortText reads a u8 length then that many bytes of UTF-8 text. A length
// below min is a Length error.
func (d *reader) shortText(min int) []byte {
	n := get[uint8](d)
	if d.err == nil && int(n) < min {
		d.fail(Length)
	}
	return d.text(uint64(n))
}

// longText reads a u32 length then that many bytes of UTF-8 text.
func (d *reader) longText() []byte {
	return d.text(uint64(get[uint32](d)))
}

// info reads a ClientVersionInfo field by field.
func (d *reader) info() ClientVersionInfo {
	var v ClientVersionInfo
	v.Protocol = get[uint32](d)
	v.SDKName = d.shortText(1)
	v.SDKVersion = d.shortText(1)
	return v
}

// decoded returns v with the number of bytes d consumed, or d's failure
// with the zero value.
func decoded[T any](d *reader, v T) (T, int, error) {
	if d.err != nil {
		var zero T
		return zero, 0, d.err
	}
	return v, int(d.r.Size()) - d.r.Len(), nil
}

// whole runs a prefix decoder and refuses bytes after what it used.
func whole[T any](src []byte, decode func([]byte) (T, int, error)) (T, error) {
	var zero T
	v, n, err := decode(src)
	if err != nil {
		return zero, err
	}
	if n < len(src) {
		return zero, Trailing
	}
	return v, nil
}

// DecodeClientVersionInfo decodes a ClientVersionInfo from the start of src
// and returns it with the number of bytes consumed; bytes after the last
// field are ignored. Layout:
// [protocol_version u32][sdk_name_len u8][sdk_name][sdk_version_len u8][sdk_version].
func DecodeClientVersionInfo(src []byte) (ClientVersionInfo, int, error) {
	d := &reader{r: bytes.NewReader(src)}
	return decoded(d, d.info())
}

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
	return decodeLoginRegister(src, false)
}

// decodeLoginRegister is DecodeLoginRegister, reading a 32-byte bind
// secret after the ClientVersionInfo when secret is set (0.11.1).
func decodeLoginRegister(src []byte, secret bool) (LoginRegister, int, error) {
	d := &reader{r: bytes.NewReader(src)}
	var v LoginRegister
	v.Info = d.info()
	if secret {
		v.BindSecret = d.bytes(BindSecretLen)
	}
	v.Username = d.shortText(1)
	v.Password = d.shortText(0)
	v.Context = d.longText()
	return decoded(d, v)
}

// ParseLoginRegister decodes src as exactly one LOGIN_REGISTER body; any
// byte after the last field is a Trailing error.
func ParseLoginRegister(src []byte) (LoginRegister, error) {
	return whole(src, DecodeLoginRegister)
}

// DecodeLoginRegisterPAT decodes a LOGIN_REGISTER_WITH_PAT body from the
// start of src and returns it with the number of bytes consumed; bytes after
// the last field are ignored. Layout: [ClientVersionInfo][token_len u8]
// [token][context_len u32][context].
func DecodeLoginRegisterPAT(src []byte) (LoginRegisterPAT, int, error) {
	return decodeLoginRegisterPAT(src, false)
}

// decodeLoginRegisterPAT is DecodeLoginRegisterPAT, reading a 32-byte bind
// secret after the ClientVersionInfo when secret is set (0.11.1).
func decodeLoginRegisterPAT(src []byte, secret bool) (LoginRegisterPAT, int, error) {
	d := &reader{r: bytes.NewReader(src)}
	var v LoginRegisterPAT
	v.Info = d.info()
	if secret {
		v.BindSecret = d.bytes(BindSecretLen)
	}
	v.Token = d.shortText(0)
	v.Context = d.longText()
	return decoded(d, v)
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
func DecodeLoginReply(src []byte) (LoginReply, int, error) {
	d := &reader{r: bytes.NewReader(src)}
	var v LoginReply
	v.UserID = get[uint32](d)
	v.Session = get[uint64](d)
	if d.err == nil && v.Session == 0 {
		d.fail(Field)
	}
	v.ServerProtocol = get[uint32](d)
	v.ServerVersion = d.shortText(1)
	return decoded(d, v)
}

// ParseLoginReply decodes src as exactly one login reply body; any byte
// after the last field is a Trailing error.
func ParseLoginReply(src []byte) (LoginReply, error) {
	return whole(src, DecodeLoginReply)
}

// writer encodes a body front to back and validates each field as it
// writes it, with a sticky error: the first broken rule in field order is
// the one the encoder returns, and no bytes are returned with it.
type writer struct {
	sticky
	buf bytes.Buffer
}

// put appends a little-endian integer.
func put[T uint32 | uint64](w *writer, v T) {
	_ = binary.Write(&w.buf, binary.LittleEndian, v)
}

// text appends b, which must be valid UTF-8 (else UTF8).
func (w *writer) text(b []byte) {
	if !utf8.Valid(b) {
		w.fail(UTF8)
	}
	w.buf.Write(b)
}

// shortText appends a u8 length and b, which must be min..255 bytes (else
// Length) of UTF-8.
func (w *writer) shortText(b []byte, min int) {
	if len(b) < min || len(b) > MaxShortText {
		w.fail(Length)
	}
	w.buf.WriteByte(uint8(len(b)))
	w.text(b)
}

// longText appends a u32 length and b, which must be 0..MaxUint32 bytes
// (else Length) of UTF-8.
func (w *writer) longText(b []byte) {
	if uint64(len(b)) > math.MaxUint32 {
		w.fail(Length)
	}
	put(w, uint32(len(b)))
	w.text(b)
}

// info appends a ClientVersionInfo, validating it in field order.
func (w *writer) info(v ClientVersionInfo) {
	put(w, v.Protocol)
	w.shortText(v.SDKName, 1)
	w.shortText(v.SDKVersion, 1)
}

// result returns the encoded bytes, or the first broken rule.
func (w *writer) result() ([]byte, error) {
	if w.err != nil {
		return nil, w.err
	}
	return w.buf.Bytes(), nil
}

// EncodeClientVersionInfo validates v (sdk name then sdk version: each
// 1..255 bytes, else Length; valid UTF-8, else UTF8) and encodes it.
func EncodeClientVersionInfo(v ClientVersionInfo) ([]byte, error) {
	var w writer
	w.info(v)
	return w.result()
}

// EncodeLoginRegister validates v in field order (the ClientVersionInfo,
// a version that selects the 0.11.0 layout (not 0.11.1, else Field),
// username 1..255, password 0..255, context 0..MaxUint32 bytes, each valid
// UTF-8) and encodes it.
func EncodeLoginRegister(v LoginRegister) ([]byte, error) {
	return encodeLoginRegister(v, false)
}

// encodeLoginRegister is EncodeLoginRegister, writing v.BindSecret after
// the ClientVersionInfo when secret is set (0.11.1); see writer.secret.
func encodeLoginRegister(v LoginRegister, secret bool) ([]byte, error) {
	var w writer
	w.info(v.Info)
	w.secret(v.Info, v.BindSecret, secret)
	w.shortText(v.Username, 1)
	w.shortText(v.Password, 0)
	w.longText(v.Context)
	return w.result()
}

// EncodeLoginRegisterPAT validates v in field order (the ClientVersionInfo,
// a version that selects the 0.11.0 layout, token 0..255, context
// 0..MaxUint32 bytes, each valid UTF-8) and encodes it.
func EncodeLoginRegisterPAT(v LoginRegisterPAT) ([]byte, error) {
	return encodeLoginRegisterPAT(v, false)
}

// encodeLoginRegisterPAT is EncodeLoginRegisterPAT with the bind secret of
// 0.11.1 when secret is set; see encodeLoginRegister.
func encodeLoginRegisterPAT(v LoginRegisterPAT, secret bool) ([]byte, error) {
	var w writer
	w.info(v.Info)
	w.secret(v.Info, v.BindSecret, secret)
	w.shortText(v.Token, 0)
	w.longText(v.Context)
	return w.result()
}

// EncodeLoginReply validates v in field order (session != 0, else Field;
// server version 1..255 bytes of valid UTF-8) and encodes it.
func EncodeLoginReply(v LoginReply) ([]byte, error) {
	var w writer
	put(&w, v.UserID)
	if v.Session == 0 {
		w.fail(Field)
	}
	put(&w, v.Session)
	put(&w, v.ServerProtocol)
	w.shortText(v.ServerVersion, 1)
	return w.result()
}
