package codec

// LoginRegisterPAT is the body of LOGIN_REGISTER_WITH_PAT (command code
// 45), in the layout of its Revision (WIRE.md sections 3 and 10.2):
//
//	RevisionBase (0.11.0):       [ClientVersionInfo][token_len u8][token][context_len u32][context]
//	RevisionBindSecret (0.11.1): [ClientVersionInfo][bind_secret 32][token_len u8][token][context_len u32][context]
//
// Token is UTF-8 of 0..255 bytes; Context is UTF-8, empty when context_len
// is 0. Decoded byte fields alias the input; see Clone. The token and the
// bind secret print only as a redaction.
type LoginRegisterPAT struct {
	Info ClientVersionInfo // the client's protocol and SDK
	// Revision is the body's layout; see LoginRegister.Revision.
	Revision Revision
	// BindSecret is the 32-byte bind secret of RevisionBindSecret, empty
	// in RevisionBase; see LoginRegister.BindSecret.
	BindSecret Secret
	Token      Secret // the personal access token, UTF-8 of 0..255 bytes
	Context    []byte // UTF-8, any length the frame holds; nil when empty
}

// EncodedLen returns the number of bytes AppendBinary writes for a valid value.
func (l LoginRegisterPAT) EncodedLen() int {
	return l.Info.EncodedLen() + l.Revision.secretLen() + 1 + l.Token.Len() + 4 + len(l.Context)
}

// Validate returns the first broken rule of l, in field order, or nil; see
// LoginRegister.Validate.
func (l LoginRegisterPAT) Validate() error {
	if err := l.Info.validate(0); err != nil {
		return withRevision(err, l.Revision)
	}
	off := l.Info.EncodedLen()
	if err := checkBindSecret(l.Revision, l.Info.Protocol, l.BindSecret, off, rulePATBindSecretLength); err != nil {
		return err
	}
	off += l.Revision.secretLen()
	if err := checkText(l.Token.Bytes(), &fieldToken, off); err != nil {
		return withRevision(err, l.Revision)
	}
	off += 1 + l.Token.Len()
	return withRevision(checkText(l.Context, &fieldPATContext, off), l.Revision)
}

// AppendBinary validates l and appends its encoding, in the layout of
// l.Revision, to dst. On error it returns dst unchanged.
func (l LoginRegisterPAT) AppendBinary(dst []byte) ([]byte, error) {
	if !l.Info.lengthsOK() || l.Token.Len() > 255 || !fitsU32(l.Context) ||
		l.BindSecret.Len() != l.Revision.secretLen() || l.Revision != RevisionOf(l.Info.Protocol) {
		return dst, l.Validate()
	}
	out := l.Info.appendTo(dst)
	info := len(out)
	out = append(out, l.BindSecret.Bytes()...)
	secretEnd := len(out)
	out = appendText8(out, l.Token.Bytes())
	out = appendText32(out, l.Context)
	if !asciiAround(out, len(dst)+offInfoText, info, secretEnd) {
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
	l.BindSecret = l.BindSecret.clone()
	l.Token = l.Token.clone()
	l.Context = cloneBytes(l.Context)
	return l
}

// The decoders below have LoginRegister's shape on purpose: each fills the
// caller's result in place on its fast path, which a shared helper taking
// the body as a parameter would not (it would return the value through
// memory, the copy the fast path exists to avoid).

// DecodeLoginRegisterPAT decodes a LoginRegisterPAT of the 0.11.0 layout
// (RevisionBase) from the start of src and returns it with the number of
// bytes it used. Like the reference server it ignores bytes after the last
// field; use ParseLoginRegisterPAT to reject them.
// DecodeLoginRegisterPATRev reads either revision.
func DecodeLoginRegisterPAT(src []byte) (l LoginRegisterPAT, n int, err error) {
	if n, ok := l.fast(src, false, RevisionBase); ok {
		return l, n, nil
	}
	r := reader{src: src, truncated: rulePATTruncated}
	return decoded(r.loginRegisterPAT(RevisionBase), &r)
}

// ParseLoginRegisterPAT decodes src as exactly one LoginRegisterPAT of the
// 0.11.0 layout; trailing bytes are ErrTrailing.
func ParseLoginRegisterPAT(src []byte) (l LoginRegisterPAT, err error) {
	if _, ok := l.fast(src, true, RevisionBase); ok {
		return l, nil
	}
	r := reader{src: src, truncated: rulePATTruncated}
	return parsed(r.loginRegisterPAT(RevisionBase), &r, ruleBodyTrailing)
}

// DecodeLoginRegisterPATRev is DecodeLoginRegisterPAT for a body of
// revision rev; see DecodeLoginRegisterRev.
func DecodeLoginRegisterPATRev(src []byte, rev Revision) (l LoginRegisterPAT, n int, err error) {
	if n, ok := l.fast(src, false, rev); ok {
		return l, n, nil
	}
	r := reader{src: src, truncated: rulePATTruncated, rev: rev}
	return decoded(r.loginRegisterPAT(rev), &r)
}

// ParseLoginRegisterPATRev is ParseLoginRegisterPAT for a body of revision
// rev; see DecodeLoginRegisterRev.
func ParseLoginRegisterPATRev(src []byte, rev Revision) (l LoginRegisterPAT, err error) {
	if _, ok := l.fast(src, true, rev); ok {
		return l, nil
	}
	r := reader{src: src, truncated: rulePATTruncated, rev: rev}
	return parsed(r.loginRegisterPAT(rev), &r, ruleBodyTrailing)
}

// fast is the fast path of both decoders (see fast.go); like
// LoginRegister.fast it fills the caller's result in place.
func (l *LoginRegisterPAT) fast(src []byte, whole bool, rev Revision) (n int, ok bool) {
	s := scan{src: src, ok: rev.IsKnown()}
	l.Info.Protocol, l.Info.SDKName, l.Info.SDKVersion = s.clientInfo()
	info := s.p
	l.Revision, l.BindSecret = rev, NewSecret(s.raw(rev.secretLen()))
	secretEnd := s.p
	l.Token, l.Context = NewSecret(s.text8(0)), s.text32()
	return s.p, s.doneAround(whole, info, secretEnd)
}

func (r *reader) loginRegisterPAT(rev Revision) LoginRegisterPAT {
	var l LoginRegisterPAT
	l.Info = r.clientInfo()
	l.Revision = rev
	l.BindSecret = r.bindSecret(rev)
	l.Token = NewSecret(r.text8(&fieldToken))
	l.Context = r.text32(&fieldPATContext)
	return l
}
