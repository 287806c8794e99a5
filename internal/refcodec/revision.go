package refcodec

import (
	"bytes"
	"io"
)

// Protocol revision 0.11.1 (WIRE.md section 10): both login bodies carry a
// 32-byte bind secret after the ClientVersionInfo, and BIND_SESSION (code
// 15) exists. The caller says which layout a body has; nothing here guesses
// it from the bytes.

// BindSecretLen is the size of a bind secret.
const BindSecretLen = 32

// Protocol0111 is the packed version 0.11.1, the first whose login bodies
// carry a bind secret.
const Protocol0111 = 0x2C01

// SecretLayout reports whether a body of protocol version v has the bind
// secret: whether v is 0.11.1, the one version known to carry it (WIRE.md
// section 10.1).
func SecretLayout(v uint32) bool { return v == Protocol0111 }

// readBytes reads exactly n raw bytes, or fails with Truncated.
func readBytes(r *bytes.Reader, n int) ([]byte, error) {
	if r.Len() < n {
		return nil, Truncated
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, Truncated
	}
	return buf, nil
}

// checkLayout is the encoders' rule for the layout: the one the body's
// version selects (WIRE.md section 10.1), else Field. A body written in
// the other layout would be read by every server with its fields shifted.
func checkLayout(info ClientVersionInfo, secret bool) error {
	if SecretLayout(info.Protocol) != secret {
		return Field
	}
	return nil
}

// checkBindSecret is the encoders' rule for the bind secret: none in the
// 0.11.0 layout, exactly 32 bytes in 0.11.1's; else Length.
func checkBindSecret(b []byte, secret bool) error {
	want := 0
	if secret {
		want = BindSecretLen
	}
	if len(b) != want {
		return Length
	}
	return nil
}

// DecodeLoginRegisterSecret decodes a LOGIN_REGISTER body of the 0.11.1
// layout from the start of src: [ClientVersionInfo][bind_secret 32]
// [username_len u8][username][password_len u8][password][context_len u32]
// [context]. Bytes after the last field are ignored.
func DecodeLoginRegisterSecret(src []byte) (LoginRegister, int, error) {
	return decodeLoginRegister(src, true)
}

// ParseLoginRegisterSecret is DecodeLoginRegisterSecret for exactly one
// body; any byte after the last field is a Trailing error.
func ParseLoginRegisterSecret(src []byte) (LoginRegister, error) {
	return whole(src, DecodeLoginRegisterSecret)
}

// DecodeLoginRegisterPATSecret decodes a LOGIN_REGISTER_WITH_PAT body of
// the 0.11.1 layout: [ClientVersionInfo][bind_secret 32][token_len u8]
// [token][context_len u32][context]. Bytes after the last field are
// ignored.
func DecodeLoginRegisterPATSecret(src []byte) (LoginRegisterPAT, int, error) {
	return decodeLoginRegisterPAT(src, true)
}

// ParseLoginRegisterPATSecret is DecodeLoginRegisterPATSecret for exactly
// one body.
func ParseLoginRegisterPATSecret(src []byte) (LoginRegisterPAT, error) {
	return whole(src, DecodeLoginRegisterPATSecret)
}

// EncodeLoginRegisterSecret validates v (as EncodeLoginRegister, with
// version 0.11.1, else Field, and a bind secret of exactly 32 bytes after
// the ClientVersionInfo, else Length) and encodes it in the 0.11.1 layout.
func EncodeLoginRegisterSecret(v LoginRegister) ([]byte, error) {
	return encodeLoginRegister(v, true)
}

// EncodeLoginRegisterPATSecret is EncodeLoginRegisterSecret for a token
// body.
func EncodeLoginRegisterPATSecret(v LoginRegisterPAT) ([]byte, error) {
	return encodeLoginRegisterPAT(v, true)
}

// DecodeBindSession decodes a BIND_SESSION body from the start of src:
// [ClientVersionInfo][client_id u128][session u64][metadata_watermark u64]
// [bind_secret 32]. No field is checked by value. Bytes after the secret
// are ignored, as the reference server ignores them.
func DecodeBindSession(src []byte) (BindSession, int, error) {
	r := bytes.NewReader(src)
	var v BindSession
	var err error
	if v.Info, err = readClientVersionInfo(r); err != nil {
		return BindSession{}, 0, err
	}
	if v.ClientID.Lo, err = readU64(r); err != nil {
		return BindSession{}, 0, err
	}
	if v.ClientID.Hi, err = readU64(r); err != nil {
		return BindSession{}, 0, err
	}
	if v.Session, err = readU64(r); err != nil {
		return BindSession{}, 0, err
	}
	if v.MetadataWatermark, err = readU64(r); err != nil {
		return BindSession{}, 0, err
	}
	if v.BindSecret, err = readBytes(r, BindSecretLen); err != nil {
		return BindSession{}, 0, err
	}
	return v, consumed(src, r), nil
}

// ParseBindSession decodes src as exactly one BIND_SESSION body; any byte
// after the secret is a Trailing error.
func ParseBindSession(src []byte) (BindSession, error) {
	return whole(src, DecodeBindSession)
}

// EncodeBindSession validates v (the ClientVersionInfo, then a bind secret
// of exactly 32 bytes, else Length) and encodes it.
func EncodeBindSession(v BindSession) ([]byte, error) {
	if err := checkClientVersionInfo(v.Info); err != nil {
		return nil, err
	}
	if err := checkBindSecret(v.BindSecret, true); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	writeClientVersionInfo(&w, v.Info)
	writeU64(&w, v.ClientID.Lo)
	writeU64(&w, v.ClientID.Hi)
	writeU64(&w, v.Session)
	writeU64(&w, v.MetadataWatermark)
	w.Write(v.BindSecret)
	return w.Bytes(), nil
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
