package codec

// LoginRegisterPAT is the body of LOGIN_REGISTER_WITH_PAT (command code 45):
//
//	[ClientVersionInfo][token_len u8][token][context_len u32][context]
//
// Token is UTF-8 of 0..255 bytes; Context is UTF-8, empty when context_len
// is 0. Decoded byte fields alias the input; see Clone. The token prints
// only as a redaction.
type LoginRegisterPAT struct {
	Info    ClientVersionInfo // the client's protocol and SDK
	Token   Secret            // the personal access token, UTF-8 of 0..255 bytes
	Context []byte            // UTF-8, any length the frame holds; nil when empty
}

// EncodedLen returns the number of bytes AppendBinary writes for a valid value.
func (l LoginRegisterPAT) EncodedLen() int {
	return l.Info.EncodedLen() + 1 + l.Token.Len() + 4 + len(l.Context)
}

// Validate returns the first broken rule of l, in field order, or nil.
func (l LoginRegisterPAT) Validate() error {
	if err := l.Info.validate(0); err != nil {
		return err
	}
	off := l.Info.EncodedLen()
	if err := checkText(l.Token.Bytes(), &fieldToken, off); err != nil {
		return err
	}
	off += 1 + l.Token.Len()
	return checkText(l.Context, &fieldPATContext, off)
}

// AppendBinary validates l and appends its encoding to dst. On error it returns
// dst unchanged.
func (l LoginRegisterPAT) AppendBinary(dst []byte) ([]byte, error) {
	if !l.Info.lengthsOK() || l.Token.Len() > 255 || !fitsU32(l.Context) {
		return dst, l.Validate()
	}
	out := l.Info.appendTo(dst)
	out = appendText8(out, l.Token.Bytes())
	out = appendText32(out, l.Context)
	if !ascii(out[len(dst)+offInfoText:]) {
		if err := l.Validate(); err != nil {
			return dst, err
		}
	}
	return out, nil
}

// Clone returns a copy of l that shares no memory with the input it was
// decoded from.
func (l LoginRegisterPAT) Clone() LoginRegisterPAT {
	l.Info = l.Info.Clone()
	l.Token = l.Token.clone()
	l.Context = cloneBytes(l.Context)
	return l
}

// The decoders below have LoginRegister's shape on purpose: each fills the
// caller's result in place on its fast path, which a shared helper taking
// the body as a parameter would not (it would return the value through
// memory, the copy the fast path exists to avoid).

// DecodeLoginRegisterPAT decodes a LoginRegisterPAT from the start of src and
// returns it with the number of bytes it used. Like the reference server it
// ignores bytes after the last field; use ParseLoginRegisterPAT to reject
// them.
func DecodeLoginRegisterPAT(src []byte) (l LoginRegisterPAT, n int, err error) {
	if n, ok := l.fast(src, false); ok {
		return l, n, nil
	}
	r := reader{src: src, truncated: rulePATTruncated}
	return decoded(r.loginRegisterPAT(), &r)
}

// ParseLoginRegisterPAT decodes src as exactly one LoginRegisterPAT;
// trailing bytes are ErrTrailing.
func ParseLoginRegisterPAT(src []byte) (l LoginRegisterPAT, err error) {
	if _, ok := l.fast(src, true); ok {
		return l, nil
	}
	r := reader{src: src, truncated: rulePATTruncated}
	return parsed(r.loginRegisterPAT(), &r, ruleBodyTrailing)
}

// fast is the fast path of both decoders (see fast.go); like
// LoginRegister.fast it fills the caller's result in place.
func (l *LoginRegisterPAT) fast(src []byte, whole bool) (n int, ok bool) {
	s := scan{src: src, ok: true}
	l.Info.Protocol, l.Info.SDKName, l.Info.SDKVersion = s.clientInfo()
	l.Token, l.Context = NewSecret(s.text8(0)), s.text32()
	return s.p, s.done(whole, offInfoText)
}

func (r *reader) loginRegisterPAT() LoginRegisterPAT {
	var l LoginRegisterPAT
	l.Info = r.clientInfo()
	l.Token = NewSecret(r.text8(&fieldToken))
	l.Context = r.text32(&fieldPATContext)
	return l
}
