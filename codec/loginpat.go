package codec

// LoginRegisterPAT is the body of LOGIN_REGISTER_WITH_PAT (command code 45):
//
//	[ClientVersionInfo][token_len u8][token][context_len u32][context]
//
// Token is UTF-8 of 0..255 bytes; Context is UTF-8, empty when context_len
// is 0. Decoded byte fields alias the input; see Clone. The token prints
// only as a redaction.
type LoginRegisterPAT struct {
	Info    ClientVersionInfo
	Token   Secret
	Context []byte
}

// EncodedLen returns the number of bytes AppendTo writes for a valid value.
func (l LoginRegisterPAT) EncodedLen() int {
	return l.Info.EncodedLen() + 1 + len(l.Token) + 4 + len(l.Context)
}

// Validate returns the first broken rule of l, in field order, or nil.
func (l LoginRegisterPAT) Validate() error {
	if err := l.Info.validate(0); err != nil {
		return err
	}
	off := l.Info.EncodedLen()
	if err := checkText(l.Token, "token_len", "token", off, 1, 0); err != nil {
		return err
	}
	off += 1 + len(l.Token)
	return checkText(l.Context, "context_len", "context", off, 4, 0)
}

// AppendTo validates l and appends its encoding to dst. On error it returns
// dst unchanged.
func (l LoginRegisterPAT) AppendTo(dst []byte) ([]byte, error) {
	if err := l.Validate(); err != nil {
		return dst, err
	}
	dst = l.Info.appendTo(dst)
	dst = appendText8(dst, l.Token)
	return appendText32(dst, l.Context), nil
}

// Clone returns a copy of l that shares no memory with the input it was
// decoded from.
func (l LoginRegisterPAT) Clone() LoginRegisterPAT {
	l.Info = l.Info.Clone()
	l.Token = l.Token.clone()
	l.Context = cloneBytes(l.Context)
	return l
}

// DecodeLoginRegisterPAT decodes a LoginRegisterPAT from the start of src and
// returns it with the number of bytes it used. Like the reference server it
// ignores bytes after the last field; use ParseLoginRegisterPAT to reject
// them.
func DecodeLoginRegisterPAT(src []byte) (LoginRegisterPAT, int, error) {
	r := reader{src: src}
	var l LoginRegisterPAT
	l.Info = r.clientInfo()
	l.Token = r.text8("token_len", "token", 0)
	l.Context = r.text32("context_len", "context")
	if r.err != nil {
		return LoginRegisterPAT{}, 0, r.err
	}
	return l, r.off, nil
}

// ParseLoginRegisterPAT decodes src as exactly one LoginRegisterPAT;
// trailing bytes are ErrTrailing.
func ParseLoginRegisterPAT(src []byte) (LoginRegisterPAT, error) {
	l, n, err := DecodeLoginRegisterPAT(src)
	if err == nil {
		err = trailing(src, n)
	}
	if err != nil {
		return LoginRegisterPAT{}, err
	}
	return l, nil
}
