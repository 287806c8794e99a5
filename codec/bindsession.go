package codec

import "encoding/binary"

// BindSession is the body of BIND_SESSION (command code 15, protocol 0.11.1
// on; WIRE.md section 10.3):
//
//	[ClientVersionInfo][client_id u128][session u64][metadata_watermark u64][bind_secret 32]
//
// It authenticates a new connection as the logical session that ClientID's
// login created, proven by the secret that login carried, without another
// login. Session 0 asks for the session that login got (its reply was
// lost). No field is checked by value when decoding; the server decides
// (WIRE.md section 10.4). Decoded byte fields alias the input; see Clone.
// The bind secret prints only as a redaction.
type BindSession struct {
	Info              ClientVersionInfo // the client's protocol and SDK
	ClientID          Uint128           // the logical session's client id, that of its login
	Session           uint64            // the session to bind; 0 for the one a lost login reply held
	MetadataWatermark uint64            // the least metadata frontier the connection must see
	BindSecret        Secret            // the 32-byte secret of the login, BindSecretLen bytes
}

// The fixed part of a BIND_SESSION body, after its ClientVersionInfo: the
// offsets relative to its start, and its size with the secret.
const (
	offBindClient     = 0
	offBindSession    = 16
	offBindWatermark  = 24
	offBindSecret     = 32
	bindSessionFixed  = offBindSecret + BindSecretLen // 64
	wantBindSecretLen = "len == 32"
)

// EncodedLen returns the number of bytes AppendBinary writes for a valid
// value.
func (b BindSession) EncodedLen() int { return b.Info.EncodedLen() + bindSessionFixed }

// Validate returns the first broken rule of b, in field order, or nil: the
// ClientVersionInfo's, then a bind secret that is not 32 bytes.
func (b BindSession) Validate() error {
	if err := b.Info.validate(0); err != nil {
		return err
	}
	if b.BindSecret.Len() != BindSecretLen {
		return newError(ErrLength, "bind_secret", b.Info.EncodedLen()+offBindSecret, ruleBindSecretLength, wantBindSecretLen)
	}
	return nil
}

// AppendBinary validates b and appends its encoding to dst; it implements
// encoding.BinaryAppender. On error it returns dst unchanged.
func (b BindSession) AppendBinary(dst []byte) ([]byte, error) {
	if !b.Info.lengthsOK() || b.BindSecret.Len() != BindSecretLen {
		return dst, b.Validate()
	}
	out := b.Info.appendTo(dst)
	if !ascii(out[len(dst)+offInfoText:]) {
		if err := b.Validate(); err != nil {
			return dst, err
		}
	}
	out = binary.LittleEndian.AppendUint64(out, b.ClientID.Lo)
	out = binary.LittleEndian.AppendUint64(out, b.ClientID.Hi)
	out = binary.LittleEndian.AppendUint64(out, b.Session)
	out = binary.LittleEndian.AppendUint64(out, b.MetadataWatermark)
	return append(out, b.BindSecret.Bytes()...), nil
}

// Clone returns a copy of b that shares no memory with the input it was
// decoded from.
func (b BindSession) Clone() BindSession {
	b.Info = b.Info.Clone()
	b.BindSecret = b.BindSecret.clone()
	return b
}

// String prints b's fields; the bind secret only as a redaction.
func (b BindSession) String() string {
	f := newFields("BindSession")
	f.str("info", b.Info.String())
	f.str("client_id", b.ClientID.String())
	f.uint("session", b.Session)
	f.uint("metadata_watermark", b.MetadataWatermark)
	f.secret("bind_secret")
	return f.String()
}

// DecodeBindSession decodes a BindSession from the start of src and returns
// it with the number of bytes it used. Like the reference server it ignores
// bytes after the bind secret; use ParseBindSession to reject them.
func DecodeBindSession(src []byte) (b BindSession, n int, err error) {
	if n, ok := b.fast(src, false); ok {
		return b, n, nil
	}
	r := reader{src: src, truncated: ruleBindTruncated}
	return decoded(r.bindSession(), &r)
}

// ParseBindSession decodes src as exactly one BindSession; trailing bytes
// are ErrTrailing.
func ParseBindSession(src []byte) (b BindSession, err error) {
	if _, ok := b.fast(src, true); ok {
		return b, nil
	}
	r := reader{src: src, truncated: ruleBindTruncated}
	return parsed(r.bindSession(), &r, ruleBodyTrailing)
}

// fast is the fast path of both decoders (see fast.go); like
// LoginRegister.fast it fills the caller's result in place. Only the
// ClientVersionInfo holds text, so only it is tested for ASCII.
func (b *BindSession) fast(src []byte, whole bool) (n int, ok bool) {
	s := scan{src: src, ok: true}
	b.Info.Protocol, b.Info.SDKName, b.Info.SDKVersion = s.clientInfo()
	text := s.p
	if !s.ok || len(src)-s.p < bindSessionFixed || whole && len(src)-s.p != bindSessionFixed ||
		!ascii(src[offInfoText:text]) {
		return 0, false
	}
	p := src[s.p : s.p+bindSessionFixed : s.p+bindSessionFixed]
	b.ClientID = Uint128{Lo: binary.LittleEndian.Uint64(p[offBindClient:]), Hi: binary.LittleEndian.Uint64(p[offBindClient+8:])}
	b.Session = binary.LittleEndian.Uint64(p[offBindSession:])
	b.MetadataWatermark = binary.LittleEndian.Uint64(p[offBindWatermark:])
	b.BindSecret = NewSecret(p[offBindSecret:])
	return s.p + bindSessionFixed, true
}

func (r *reader) bindSession() BindSession {
	var b BindSession
	b.Info = r.clientInfo()
	// One u128 on the wire: either half missing is client_id missing, at
	// its start.
	if r.need(16, "client_id", r.truncated) {
		b.ClientID.Lo = r.u64("client_id")
		b.ClientID.Hi = r.u64("client_id")
	}
	b.Session = r.u64("session")
	b.MetadataWatermark = r.u64("metadata_watermark")
	b.BindSecret = NewSecret(r.span(BindSecretLen, "bind_secret", r.truncated))
	return b
}

// AppendBindReplyFrame appends the answer to a BIND_SESSION that succeeded
// (WIRE.md section 10.4): h (Size set, Status must be 0), then the login
// reply body alone. Unlike a login's (AppendLoginReplyFrame) it has no
// result section: a NonReplicated reply is not result-framed. It validates
// both first; on error dst is unchanged.
func AppendBindReplyFrame(dst []byte, h ReplyHeader, reply LoginReply) ([]byte, error) {
	if err := reply.Validate(); err != nil {
		return dst, err
	}
	h.Size = uint32(HeaderSize + reply.EncodedLen())
	out, err := h.AppendBinary(dst)
	if err != nil {
		return dst, err
	}
	return reply.appendTo(out), nil // validated above
}
