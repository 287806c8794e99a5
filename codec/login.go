package codec

// LoginRegister is the body of LOGIN_REGISTER (command code 40), in the
// layout of its Revision (WIRE.md sections 3 and 10.2):
//
//	RevisionBase (0.11.0):       [ClientVersionInfo][username_len u8][username][password_len u8][password][context_len u32][context]
//	RevisionBindSecret (0.11.1): [ClientVersionInfo][bind_secret 32][username_len u8][username]...
//
// Username is UTF-8 of 1..255 bytes; Password is UTF-8 of 0..255 bytes;
// Context is UTF-8, empty when context_len is 0. Decoded byte fields alias
// the input; see Clone. The password and the bind secret print only as a
// redaction.
type LoginRegister struct {
	Info ClientVersionInfo // the client's protocol and SDK
	// Revision is the body's layout. The zero value is RevisionBase, the
	// 0.11.0 layout, which has no bind secret. It must be
	// RevisionOf(Info.Protocol): the encoders refuse any other (ErrField,
	// rule body.revision.version), since a server reads a body in the
	// layout its version selects (WIRE.md section 10.1), so a client that
	// sets Info.Protocol to Protocol0111 sets RevisionBindSecret and a
	// BindSecret with it. A decoder sets the revision it was given,
	// whatever the version: a value decoded in the other revision than
	// its version's does not encode again.
	Revision Revision
	// BindSecret is the bind secret of RevisionBindSecret, exactly 32
	// bytes; empty in RevisionBase. A client draws a fresh one from a
	// cryptographic source for each login with a new client id.
	BindSecret Secret
	Username   []byte // UTF-8, 1..255 bytes
	Password   Secret // UTF-8, 0..255 bytes
	Context    []byte // UTF-8, any length the frame holds; nil when empty
}

// EncodedLen returns the number of bytes AppendBinary writes for a valid value.
func (l LoginRegister) EncodedLen() int {
	return l.Info.EncodedLen() + l.Revision.secretLen() + 1 + len(l.Username) + 1 + l.Password.Len() + 4 + len(l.Context)
}

// Validate returns the first broken rule of l, in field order, or nil: the
// ClientVersionInfo's, a Revision that is not known or is not
// RevisionOf(Info.Protocol), a BindSecret whose length is not the
// revision's (32 or none), then the fields after it.
func (l LoginRegister) Validate() error {
	if err := l.Info.validate(0); err != nil {
		return withRevision(err, l.Revision)
	}
	off := l.Info.EncodedLen()
	if err := checkBindSecret(l.Revision, l.Info.Protocol, l.BindSecret, off, ruleLoginBindSecretLength); err != nil {
		return err
	}
	off += l.Revision.secretLen()
	if err := checkText(l.Username, &fieldUsername, off); err != nil {
		return withRevision(err, l.Revision)
	}
	off += 1 + len(l.Username)
	if err := checkText(l.Password.Bytes(), &fieldPassword, off); err != nil {
		return withRevision(err, l.Revision)
	}
	off += 1 + l.Password.Len()
	return withRevision(checkText(l.Context, &fieldLoginContext, off), l.Revision)
}

// AppendBinary validates l and appends its encoding, in the layout of
// l.Revision, to dst. On error it returns dst unchanged.
func (l LoginRegister) AppendBinary(dst []byte) ([]byte, error) {
	if !l.Info.lengthsOK() || uint(len(l.Username)-1) >= 255 || l.Password.Len() > 255 || !fitsU32(l.Context) ||
		l.BindSecret.Len() != l.Revision.secretLen() || l.Revision != RevisionOf(l.Info.Protocol) {
		return dst, l.Validate()
	}
	out := l.Info.appendTo(dst)
	info := len(out)
	out = append(out, l.BindSecret.Bytes()...)
	secretEnd := len(out)
	out = appendText8(out, l.Username)
	out = appendText8(out, l.Password.Bytes())
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
func (l LoginRegister) Clone() LoginRegister {
	l.Info = l.Info.Clone()
	l.BindSecret = l.BindSecret.clone()
	l.Username = cloneBytes(l.Username)
	l.Password = l.Password.clone()
	l.Context = cloneBytes(l.Context)
	return l
}

// DecodeLoginRegister decodes a LoginRegister of the 0.11.0 layout
// (RevisionBase) from the start of src and returns it with the number of
// bytes it used. Like the reference server it ignores bytes after the last
// field; use ParseLoginRegister to reject them. DecodeLoginRegisterRev
// reads either revision.
func DecodeLoginRegister(src []byte) (l LoginRegister, n int, err error) {
	if n, ok := l.fast(src, false, RevisionBase); ok {
		return l, n, nil
	}
	r := reader{src: src, truncated: ruleLoginTruncated}
	return decoded(r.loginRegister(RevisionBase), &r)
}

// ParseLoginRegister decodes src as exactly one LoginRegister of the 0.11.0
// layout; trailing bytes are ErrTrailing. ParseLoginRegisterRev reads
// either revision.
func ParseLoginRegister(src []byte) (l LoginRegister, err error) {
	if _, ok := l.fast(src, true, RevisionBase); ok {
		return l, nil
	}
	r := reader{src: src, truncated: ruleLoginTruncated}
	return parsed(r.loginRegister(RevisionBase), &r, ruleBodyTrailing)
}

// DecodeLoginRegisterRev is DecodeLoginRegister for a body of revision rev:
// with RevisionBindSecret it reads the 32-byte bind secret after the
// ClientVersionInfo. A server passes RevisionOf of the version the body's
// prefix carries (WIRE.md section 10.1). An error names rev unless it is
// RevisionBase (Error.Revision); a rev that is not known is ErrField at
// the offset after the ClientVersionInfo.
func DecodeLoginRegisterRev(src []byte, rev Revision) (l LoginRegister, n int, err error) {
	if n, ok := l.fast(src, false, rev); ok {
		return l, n, nil
	}
	r := reader{src: src, truncated: ruleLoginTruncated, rev: rev}
	return decoded(r.loginRegister(rev), &r)
}

// ParseLoginRegisterRev is ParseLoginRegister for a body of revision rev;
// see DecodeLoginRegisterRev.
func ParseLoginRegisterRev(src []byte, rev Revision) (l LoginRegister, err error) {
	if _, ok := l.fast(src, true, rev); ok {
		return l, nil
	}
	r := reader{src: src, truncated: ruleLoginTruncated, rev: rev}
	return parsed(r.loginRegister(rev), &r, ruleBodyTrailing)
}

// fast is the fast path of both decoders (see fast.go). It fills l in
// place, the caller's result, since a value this large is returned through
// memory and every copy of it costs; l is meaningful only when ok. The
// bind secret, raw bytes, is left out of the ASCII test.
func (l *LoginRegister) fast(src []byte, whole bool, rev Revision) (n int, ok bool) {
	s := scan{src: src, ok: rev.IsKnown()}
	l.Info.Protocol, l.Info.SDKName, l.Info.SDKVersion = s.clientInfo()
	info := s.p
	l.Revision, l.BindSecret = rev, NewSecret(s.raw(rev.secretLen()))
	secretEnd := s.p
	l.Username, l.Password, l.Context = s.text8(1), NewSecret(s.text8(0)), s.text32()
	return s.p, s.doneAround(whole, info, secretEnd)
}

func (r *reader) loginRegister(rev Revision) LoginRegister {
	var l LoginRegister
	l.Info = r.clientInfo()
	l.Revision = rev
	l.BindSecret = r.bindSecret(rev)
	l.Username = r.text8(&fieldUsername)
	l.Password = NewSecret(r.text8(&fieldPassword))
	l.Context = r.text32(&fieldLoginContext)
	return l
}
