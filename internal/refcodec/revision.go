package refcodec

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

// secret reads or writes the bind secret of a login body: none in 0.11.0's
// layout, 32 bytes in 0.11.1's (else Length). The encoder also wants the
// layout the body's version selects (WIRE.md section 10.1), else Field: a
// body written in the other layout would be read by every server with its
// fields shifted. The decoder takes the caller's word for the layout.
func (b *body) secret(info ClientVersionInfo, p *[]byte, secret bool) {
	b.check(b.r != nil || SecretLayout(info.Protocol) == secret, Field)
	n := uint64(0)
	if secret {
		n = BindSecretLen
	}
	b.raw(p, n)
}

// bindSession walks a BIND_SESSION body (WIRE.md section 10.3). No field
// is checked by value.
func bindSession(b *body, v *BindSession) {
	info(b, &v.Info)
	b.num(&v.ClientID)
	b.num(&v.Session)
	b.num(&v.MetadataWatermark)
	b.raw(&v.BindSecret, BindSecretLen)
}

// DecodeLoginRegisterSecret decodes a LOGIN_REGISTER body of the 0.11.1
// layout from the start of src: [ClientVersionInfo][bind_secret 32]
// [username_len u8][username][password_len u8][password][context_len u32]
// [context]. Bytes after the last field are ignored.
func DecodeLoginRegisterSecret(src []byte) (LoginRegister, int, error) {
	return decode(src, loginRegister(true))
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
	return decode(src, loginRegisterPAT(true))
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
	return encode(v, loginRegister(true))
}

// EncodeLoginRegisterPATSecret is EncodeLoginRegisterSecret for a token
// body.
func EncodeLoginRegisterPATSecret(v LoginRegisterPAT) ([]byte, error) {
	return encode(v, loginRegisterPAT(true))
}

// DecodeBindSession decodes a BIND_SESSION body from the start of src:
// [ClientVersionInfo][client_id u128][session u64][metadata_watermark u64]
// [bind_secret 32]. Bytes after the secret are ignored, as the reference
// server ignores them.
func DecodeBindSession(src []byte) (BindSession, int, error) { return decode(src, bindSession) }

// ParseBindSession decodes src as exactly one BIND_SESSION body; any byte
// after the secret is a Trailing error.
func ParseBindSession(src []byte) (BindSession, error) { return whole(src, DecodeBindSession) }

// EncodeBindSession validates v (the ClientVersionInfo, then a bind secret
// of exactly 32 bytes, else Length) and encodes it.
func EncodeBindSession(v BindSession) ([]byte, error) { return encode(v, bindSession) }
