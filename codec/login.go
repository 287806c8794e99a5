package codec

// LoginRegister is the body of LOGIN_REGISTER (command code 40):
//
//	[ClientVersionInfo][username_len u8][username][password_len u8][password][context_len u32][context]
//
// Username is UTF-8 of 1..255 bytes; Password is UTF-8 of 0..255 bytes;
// Context is UTF-8, empty when context_len is 0. Decoded byte fields alias
// the input; see Clone. The password prints only as a redaction.
type LoginRegister struct {
	Info     ClientVersionInfo // the client's protocol and SDK
	Username []byte            // UTF-8, 1..255 bytes
	Password Secret            // UTF-8, 0..255 bytes
	Context  []byte            // UTF-8, any length the frame holds; nil when empty
}

// EncodedLen returns the number of bytes AppendBinary writes for a valid value.
func (l LoginRegister) EncodedLen() int {
	return l.Info.EncodedLen() + 1 + len(l.Username) + 1 + l.Password.Len() + 4 + len(l.Context)
}

// Validate returns the first broken rule of l, in field order, or nil.
func (l LoginRegister) Validate() error {
	if err := l.Info.validate(0); err != nil {
		return err
	}
	off := l.Info.EncodedLen()
	if err := checkText(l.Username, &fieldUsername, off); err != nil {
		return err
	}
	off += 1 + len(l.Username)
	if err := checkText(l.Password.Bytes(), &fieldPassword, off); err != nil {
		return err
	}
	off += 1 + l.Password.Len()
	return checkText(l.Context, &fieldLoginContext, off)
}

// AppendBinary validates l and appends its encoding to dst. On error it returns
// dst unchanged.
func (l LoginRegister) AppendBinary(dst []byte) ([]byte, error) {
	if !l.Info.lengthsOK() || uint(len(l.Username)-1) >= 255 || l.Password.Len() > 255 || !fitsU32(l.Context) {
		return dst, l.Validate()
	}
	out := l.Info.appendTo(dst)
	out = appendText8(out, l.Username)
	out = appendText8(out, l.Password.Bytes())
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
func (l LoginRegister) Clone() LoginRegister {
	l.Info = l.Info.Clone()
	l.Username = cloneBytes(l.Username)
	l.Password = l.Password.clone()
	l.Context = cloneBytes(l.Context)
	return l
}

// DecodeLoginRegister decodes a LoginRegister from the start of src and
// returns it with the number of bytes it used. Like the reference server it
// ignores bytes after the last field; use ParseLoginRegister to reject them.
func DecodeLoginRegister(src []byte) (l LoginRegister, n int, err error) {
	if n, ok := l.fast(src, false); ok {
		return l, n, nil
	}
	r := reader{src: src, truncated: ruleLoginTruncated}
	return decoded(r.loginRegister(), &r)
}

// ParseLoginRegister decodes src as exactly one LoginRegister; trailing bytes
// are ErrTrailing.
func ParseLoginRegister(src []byte) (l LoginRegister, err error) {
	if _, ok := l.fast(src, true); ok {
		return l, nil
	}
	r := reader{src: src, truncated: ruleLoginTruncated}
	return parsed(r.loginRegister(), &r, ruleBodyTrailing)
}

// fast is the fast path of both decoders (see fast.go). It fills l in
// place, the caller's result, since a value this large is returned through
// memory and every copy of it costs; l is meaningful only when ok.
func (l *LoginRegister) fast(src []byte, whole bool) (n int, ok bool) {
	s := scan{src: src, ok: true}
	l.Info.Protocol, l.Info.SDKName, l.Info.SDKVersion = s.clientInfo()
	l.Username, l.Password, l.Context = s.text8(1), NewSecret(s.text8(0)), s.text32()
	return s.p, s.done(whole, offInfoText)
}

func (r *reader) loginRegister() LoginRegister {
	var l LoginRegister
	l.Info = r.clientInfo()
	l.Username = r.text8(&fieldUsername)
	l.Password = NewSecret(r.text8(&fieldPassword))
	l.Context = r.text32(&fieldLoginContext)
	return l
}
