package codec

// Revision is a layout of the login bodies (WIRE.md section 10.1). The
// ClientVersionInfo prefix is the same in every revision, so a server reads
// it first, gates its version, and then decodes the rest of the body in the
// revision that version selects (RevisionOf). A decoder is always told the
// revision; none guesses it from the bytes.
//
// The zero value is RevisionBase, the 0.11.0 layout, so that a body built
// or decoded by code written before revisions existed keeps its meaning.
type Revision uint8

// The revisions.
const (
	// RevisionBase is protocol 0.11.0's layout (WIRE.md sections 2 and 3):
	// the login bodies carry no bind secret.
	RevisionBase Revision = iota
	// RevisionBindSecret is protocol 0.11.1's layout (WIRE.md section
	// 10.2): both login bodies carry a 32-byte bind secret right after the
	// ClientVersionInfo, and BIND_SESSION (code 15) exists.
	RevisionBindSecret
)

// The protocol versions that introduced each revision: the two versions
// that select a layout exactly (WIRE.md section 10.1).
const (
	Protocol0110 Version = 0x0000_2C00 // 0.11.0, RevisionBase
	Protocol0111 Version = 0x0000_2C01 // 0.11.1, RevisionBindSecret
)

// BindSecretLen is the size of a bind secret: 32 bytes, any value.
const BindSecretLen = 32

// RevisionOf returns the revision whose layout a body of protocol version v
// has: RevisionBindSecret for 0.11.1 exactly, the one version known to
// carry the bind secret, and RevisionBase for every other, 0.11.0's layout,
// as before 0.11.1 existed (WIRE.md section 10.1 says why). Only a window
// that accepts another version makes the choice matter: the 0.11.0 default
// window accepts every 0.11.x.
func RevisionOf(v Version) Revision {
	if v == Protocol0111 {
		return RevisionBindSecret
	}
	return RevisionBase
}

// IsKnown reports whether r is one of the revisions above.
func (r Revision) IsKnown() bool { return r <= RevisionBindSecret }

// Protocol returns the protocol version that introduced r (0.11.0 or
// 0.11.1), or 0 when r is not known.
func (r Revision) Protocol() Version {
	switch r {
	case RevisionBase:
		return Protocol0110
	case RevisionBindSecret:
		return Protocol0111
	}
	return 0
}

// String returns the version that introduced r ("0.11.0", "0.11.1"), or
// "UNKNOWN_REVISION_N" for a value that is not a revision.
func (r Revision) String() string {
	names := [...]enumName{{0, 0, "0.11.0"}, {1, 1, "0.11.1"}}
	return enumString(names[:], "REVISION", uint32(r))
}

// secretLen is the bind secret length r's login bodies carry: 0 or 32.
func (r Revision) secretLen() int {
	if r == RevisionBindSecret {
		return BindSecretLen
	}
	return 0
}

// wantRevision is the rule of a Revision argument or field.
const wantRevision = "a known revision (0.11.0 or 0.11.1)"

// checkBindSecret is the encoders' rule for a login body's revision and
// bind secret at offset off, in the order the reference checks them: the
// revision must be known, then the one the body's version v selects
// (RevisionOf: an encoder writes no body that a server of v would read in
// the other layout), then the secret exactly as long as it says (none, or
// 32 bytes); rule is the body's length rule. The error names the
// revision.
func checkBindSecret(rev Revision, v Version, secret Secret, off int, rule string) error {
	if !rev.IsKnown() {
		return withRevision(newError(ErrField, "revision", off, ruleBodyRevision, wantRevision), rev)
	}
	if want := RevisionOf(v); rev != want {
		return withRevision(newError(ErrField, "revision", off, ruleBodyRevisionVersion, wantRevisionOf(want, rev, v)), rev)
	}
	if secret.Len() == rev.secretLen() {
		return nil
	}
	want := "len == 0 (0.11.0 layout)"
	if rev == RevisionBindSecret {
		want = wantBindSecretLen
	}
	return withRevision(newError(ErrLength, "bind_secret", off, rule, want), rev)
}

// wantRevisionOf is the Want of a revision that contradicts the body's
// version: it names both, and the version, so that a caller who bumped
// Info.Protocol and left Revision at its zero value reads which field to
// fix. Built on the error path only.
func wantRevisionOf(want, got Revision, v Version) string {
	return "revision == RevisionOf(protocol_version " + v.String() + ") == " + want.String() + ", not " + got.String()
}

// withRevision sets the revision an error of a body of revision rev names;
// RevisionBase names none, so that 0.11.0 errors stay what they were.
func withRevision(err error, rev Revision) error {
	if e, ok := err.(*Error); ok && rev != RevisionBase {
		e.Revision = rev
	}
	return err
}
