package codec

import "bytes"

// The bodies hold byte slices, and the login bodies a Secret, so none of
// them is comparable with ==, and reflect.DeepEqual tells two Secrets
// apart by the memory they hold. Equal compares the values a body carries
// on the wire.

// Equal reports whether c and d carry the same fields (an empty field
// equals a nil one).
func (c ClientVersionInfo) Equal(d ClientVersionInfo) bool {
	return c.Protocol == d.Protocol && bytes.Equal(c.SDKName, d.SDKName) && bytes.Equal(c.SDKVersion, d.SDKVersion)
}

// Equal reports whether l and m carry the same fields, of the same
// revision; the passwords and bind secrets compare in time that depends
// only on their lengths.
func (l LoginRegister) Equal(m LoginRegister) bool {
	same := l.Password.Equal(m.Password)
	same = l.BindSecret.Equal(m.BindSecret) && same
	return same && l.Revision == m.Revision && l.Info.Equal(m.Info) && bytes.Equal(l.Username, m.Username) &&
		bytes.Equal(l.Context, m.Context)
}

// Equal reports whether l and m carry the same fields; the tokens compare
// in time that depends only on their lengths.
func (l LoginRegisterPAT) Equal(m LoginRegisterPAT) bool {
	same := l.Token.Equal(m.Token)
	same = l.BindSecret.Equal(m.BindSecret) && same
	return same && l.Revision == m.Revision && l.Info.Equal(m.Info) && bytes.Equal(l.Context, m.Context)
}

// Equal reports whether b and c carry the same fields; the bind secrets
// compare in constant time.
func (b BindSession) Equal(c BindSession) bool {
	same := b.BindSecret.Equal(c.BindSecret)
	return same && b.Info.Equal(c.Info) && b.ClientID == c.ClientID && b.Session == c.Session &&
		b.MetadataWatermark == c.MetadataWatermark
}

// Equal reports whether l and m carry the same fields.
func (l LoginReply) Equal(m LoginReply) bool {
	return l.UserID == m.UserID && l.Session == m.Session && l.ServerProtocol == m.ServerProtocol &&
		bytes.Equal(l.ServerVersion, m.ServerVersion)
}
