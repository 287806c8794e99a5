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

// readU32 reads a little-endian u32, or fails with Truncated.
func readU32(r *bytes.Reader) (uint32, error) {
	var v uint32
	if err := binary.Read(r, binary.LittleEndian, &v); err != nil {
		return 0, Truncated
	}
	return v, nil
}

// readU64 reads a little-endian u64, or fails with Truncated.
func readU64(r *bytes.Reader) (uint64, error) {
	var v uint64
	if err := binary.Read(r, binary.LittleEndian, &v); err != nil {
		return 0, Truncated
	}
	return v, nil
}

// readText reads n bytes of UTF-8 text whose length n has already been read.
// The length is checked against the bytes remaining before anything is
// allocated. Empty text is returned as nil.
func readText(r *bytes.Reader, n uint64) ([]byte, error) {
	if n > uint64(r.Len()) {
		return nil, Truncated
	}
	if n == 0 {
		return nil, nil
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, Truncated
	}
	if !utf8.Valid(buf) {
		return nil, UTF8
	}
	return buf, nil
}

// readShortText reads a u8 length then that many bytes of UTF-8 text. A
// length below min is a Length error.
func readShortText(r *bytes.Reader, min int) ([]byte, error) {
	n, err := r.ReadByte()
	if err != nil {
		return nil, Truncated
	}
	if int(n) < min {
		return nil, Length
	}
	return readText(r, uint64(n))
}

// readLongText reads a u32 length then that many bytes of UTF-8 text.
func readLongText(r *bytes.Reader) ([]byte, error) {
	n, err := readU32(r)
	if err != nil {
		return nil, err
	}
	return readText(r, uint64(n))
}

// consumed returns how many bytes of src the reader has read.
func consumed(src []byte, r *bytes.Reader) int {
	return len(src) - r.Len()
}

// readClientVersionInfo reads a ClientVersionInfo field by field.
func readClientVersionInfo(r *bytes.Reader) (ClientVersionInfo, error) {
	var v ClientVersionInfo
	var err error
	if v.Protocol, err = readU32(r); err != nil {
		return ClientVersionInfo{}, err
	}
	if v.SDKName, err = readShortText(r, 1); err != nil {
		return ClientVersionInfo{}, err
	}
	if v.SDKVersion, err = readShortText(r, 1); err != nil {
		return ClientVersionInfo{}, err
	}
	return v, nil
}

// DecodeClientVersionInfo decodes a ClientVersionInfo from the start of src
// and returns it with the number of bytes consumed; bytes after the last
// field are ignored. Layout:
// [protocol_version u32][sdk_name_len u8][sdk_name][sdk_version_len u8][sdk_version].
func DecodeClientVersionInfo(src []byte) (ClientVersionInfo, int, error) {
	r := bytes.NewReader(src)
	v, err := readClientVersionInfo(r)
	if err != nil {
		return ClientVersionInfo{}, 0, err
	}
	return v, consumed(src, r), nil
}

// ParseClientVersionInfo decodes src as exactly one ClientVersionInfo; any
// byte after the last field is a Trailing error.
func ParseClientVersionInfo(src []byte) (ClientVersionInfo, error) {
	v, n, err := DecodeClientVersionInfo(src)
	if err != nil {
		return ClientVersionInfo{}, err
	}
	if n < len(src) {
		return ClientVersionInfo{}, Trailing
	}
	return v, nil
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
	r := bytes.NewReader(src)
	var v LoginRegister
	var err error
	if v.Info, err = readClientVersionInfo(r); err != nil {
		return LoginRegister{}, 0, err
	}
	if secret {
		if v.BindSecret, err = readBytes(r, BindSecretLen); err != nil {
			return LoginRegister{}, 0, err
		}
	}
	if v.Username, err = readShortText(r, 1); err != nil {
		return LoginRegister{}, 0, err
	}
	if v.Password, err = readShortText(r, 0); err != nil {
		return LoginRegister{}, 0, err
	}
	if v.Context, err = readLongText(r); err != nil {
		return LoginRegister{}, 0, err
	}
	return v, consumed(src, r), nil
}

// ParseLoginRegister decodes src as exactly one LOGIN_REGISTER body; any
// byte after the last field is a Trailing error.
func ParseLoginRegister(src []byte) (LoginRegister, error) {
	v, n, err := DecodeLoginRegister(src)
	if err != nil {
		return LoginRegister{}, err
	}
	if n < len(src) {
		return LoginRegister{}, Trailing
	}
	return v, nil
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
	r := bytes.NewReader(src)
	var v LoginRegisterPAT
	var err error
	if v.Info, err = readClientVersionInfo(r); err != nil {
		return LoginRegisterPAT{}, 0, err
	}
	if secret {
		if v.BindSecret, err = readBytes(r, BindSecretLen); err != nil {
			return LoginRegisterPAT{}, 0, err
		}
	}
	if v.Token, err = readShortText(r, 0); err != nil {
		return LoginRegisterPAT{}, 0, err
	}
	if v.Context, err = readLongText(r); err != nil {
		return LoginRegisterPAT{}, 0, err
	}
	return v, consumed(src, r), nil
}

// ParseLoginRegisterPAT decodes src as exactly one LOGIN_REGISTER_WITH_PAT
// body; any byte after the last field is a Trailing error.
func ParseLoginRegisterPAT(src []byte) (LoginRegisterPAT, error) {
	v, n, err := DecodeLoginRegisterPAT(src)
	if err != nil {
		return LoginRegisterPAT{}, err
	}
	if n < len(src) {
		return LoginRegisterPAT{}, Trailing
	}
	return v, nil
}

// DecodeLoginReply decodes a login reply body (the part after the result
// section) from the start of src and returns it with the number of bytes
// consumed; bytes after the last field are ignored. A session of 0 is a
// Field error, reported as soon as the session is read. Layout:
// [user_id u32][session u64][server_protocol_version u32]
// [server_version_len u8][server_version].
func DecodeLoginReply(src []byte) (LoginReply, int, error) {
	r := bytes.NewReader(src)
	var v LoginReply
	var err error
	if v.UserID, err = readU32(r); err != nil {
		return LoginReply{}, 0, err
	}
	if v.Session, err = readU64(r); err != nil {
		return LoginReply{}, 0, err
	}
	if v.Session == 0 {
		return LoginReply{}, 0, Field
	}
	if v.ServerProtocol, err = readU32(r); err != nil {
		return LoginReply{}, 0, err
	}
	if v.ServerVersion, err = readShortText(r, 1); err != nil {
		return LoginReply{}, 0, err
	}
	return v, consumed(src, r), nil
}

// ParseLoginReply decodes src as exactly one login reply body; any byte
// after the last field is a Trailing error.
func ParseLoginReply(src []byte) (LoginReply, error) {
	v, n, err := DecodeLoginReply(src)
	if err != nil {
		return LoginReply{}, err
	}
	if n < len(src) {
		return LoginReply{}, Trailing
	}
	return v, nil
}

// checkShortText validates a u8-length-prefixed text field for encoding.
func checkShortText(b []byte, min int) error {
	if len(b) < min {
		return Length
	}
	if len(b) > MaxShortText {
		return Length
	}
	if !utf8.Valid(b) {
		return UTF8
	}
	return nil
}

// checkLongText validates a u32-length-prefixed text field for encoding.
func checkLongText(b []byte) error {
	if uint64(len(b)) > math.MaxUint32 {
		return Length
	}
	if !utf8.Valid(b) {
		return UTF8
	}
	return nil
}

// writeU32 appends a little-endian u32.
func writeU32(w *bytes.Buffer, v uint32) {
	_ = binary.Write(w, binary.LittleEndian, v)
}

// writeU64 appends a little-endian u64.
func writeU64(w *bytes.Buffer, v uint64) {
	_ = binary.Write(w, binary.LittleEndian, v)
}

// writeShortText appends a u8 length and the bytes (already validated).
func writeShortText(w *bytes.Buffer, b []byte) {
	w.WriteByte(uint8(len(b)))
	w.Write(b)
}

// writeLongText appends a u32 length and the bytes (already validated).
func writeLongText(w *bytes.Buffer, b []byte) {
	writeU32(w, uint32(len(b)))
	w.Write(b)
}

// checkClientVersionInfo validates a ClientVersionInfo in field order.
func checkClientVersionInfo(v ClientVersionInfo) error {
	if err := checkShortText(v.SDKName, 1); err != nil {
		return err
	}
	return checkShortText(v.SDKVersion, 1)
}

// writeClientVersionInfo appends an already validated ClientVersionInfo.
func writeClientVersionInfo(w *bytes.Buffer, v ClientVersionInfo) {
	writeU32(w, v.Protocol)
	writeShortText(w, v.SDKName)
	writeShortText(w, v.SDKVersion)
}

// EncodeClientVersionInfo validates v (sdk name then sdk version: each
// 1..255 bytes, else Length; valid UTF-8, else UTF8) and encodes it.
func EncodeClientVersionInfo(v ClientVersionInfo) ([]byte, error) {
	if err := checkClientVersionInfo(v); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	writeClientVersionInfo(&w, v)
	return w.Bytes(), nil
}

// EncodeLoginRegister validates v in field order (the ClientVersionInfo,
// a version that selects the 0.11.0 layout (not 0.11.1, else Field),
// username 1..255, password 0..255, context 0..MaxUint32 bytes, each valid
// UTF-8) and encodes it.
func EncodeLoginRegister(v LoginRegister) ([]byte, error) {
	return encodeLoginRegister(v, false)
}

// encodeLoginRegister is EncodeLoginRegister, writing v.BindSecret after
// the ClientVersionInfo when secret is set (0.11.1); the layout must be the
// one v's version selects (SecretLayout), else Field; the secret must be
// exactly as long as the layout says (none, or 32 bytes), else Length.
func encodeLoginRegister(v LoginRegister, secret bool) ([]byte, error) {
	if err := checkClientVersionInfo(v.Info); err != nil {
		return nil, err
	}
	if err := checkLayout(v.Info, secret); err != nil {
		return nil, err
	}
	if err := checkBindSecret(v.BindSecret, secret); err != nil {
		return nil, err
	}
	if err := checkShortText(v.Username, 1); err != nil {
		return nil, err
	}
	if err := checkShortText(v.Password, 0); err != nil {
		return nil, err
	}
	if err := checkLongText(v.Context); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	writeClientVersionInfo(&w, v.Info)
	w.Write(v.BindSecret)
	writeShortText(&w, v.Username)
	writeShortText(&w, v.Password)
	writeLongText(&w, v.Context)
	return w.Bytes(), nil
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
	if err := checkClientVersionInfo(v.Info); err != nil {
		return nil, err
	}
	if err := checkLayout(v.Info, secret); err != nil {
		return nil, err
	}
	if err := checkBindSecret(v.BindSecret, secret); err != nil {
		return nil, err
	}
	if err := checkShortText(v.Token, 0); err != nil {
		return nil, err
	}
	if err := checkLongText(v.Context); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	writeClientVersionInfo(&w, v.Info)
	w.Write(v.BindSecret)
	writeShortText(&w, v.Token)
	writeLongText(&w, v.Context)
	return w.Bytes(), nil
}

// EncodeLoginReply validates v in field order (session != 0, else Field;
// server version 1..255 bytes of valid UTF-8) and encodes it.
func EncodeLoginReply(v LoginReply) ([]byte, error) {
	if v.Session == 0 {
		return nil, Field
	}
	if err := checkShortText(v.ServerVersion, 1); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	writeU32(&w, v.UserID)
	writeU64(&w, v.Session)
	writeU32(&w, v.ServerProtocol)
	writeShortText(&w, v.ServerVersion)
	return w.Bytes(), nil
}
