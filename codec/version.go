package codec

// Version is a semantic version packed into a u32, ten bits per component:
// bits 29..20 major, 19..10 minor, 9..0 patch; bits 31..30 are reserved and
// zero in a valid version. Integer order equals semver order.
//
// On the wire a version is just a u32 and decodes as one whatever its bits;
// Valid says whether it is a version at all, and no Window accepts one that
// is not. The zero value is 0.0.0.
type Version uint32

// Version bit layout.
const (
	versionBits     = 10
	versionMaxPart  = 1<<versionBits - 1 // 1023
	versionReserved = 0xC000_0000
)

// Pack returns major.minor.patch as a Version; a component above 1023 is
// ErrRange.
func Pack(major, minor, patch uint32) (Version, error) {
	if major > versionMaxPart || minor > versionMaxPart || patch > versionMaxPart {
		return 0, newError(ErrRange, "version", 0, ruleVersionRange, wantComponent)
	}
	return Version(major<<20 | minor<<10 | patch), nil
}

// MustPack is Pack for use in tests and constant-like declarations; it panics
// on a component above 1023.
func MustPack(major, minor, patch uint32) Version {
	v, err := Pack(major, minor, patch)
	if err != nil {
		panic(err)
	}
	return v
}

// Major returns bits 29..20.
func (v Version) Major() uint32 { return uint32(v) >> 20 & versionMaxPart }

// Minor returns bits 19..10.
func (v Version) Minor() uint32 { return uint32(v) >> 10 & versionMaxPart }

// Patch returns bits 9..0.
func (v Version) Patch() uint32 { return uint32(v) & versionMaxPart }

// Valid reports whether the reserved bits 31..30 are zero.
func (v Version) IsValid() bool { return uint32(v)&versionReserved == 0 }

// String returns "major.minor.patch" for a valid version and
// "invalid(0xXXXXXXXX)" for one with reserved bits set, so that
// ParseVersion(v.String()) == v exactly when v is valid.
func (v Version) String() string {
	var b [24]byte
	return string(v.appendText(b[:0]))
}

// AppendText appends the String form to b. It never fails; the error is
// there to implement encoding.TextAppender.
func (v Version) AppendText(b []byte) ([]byte, error) { return v.appendText(b), nil }

// MarshalText returns the String form.
func (v Version) MarshalText() ([]byte, error) { return v.appendText(nil), nil }

// UnmarshalText sets *v from text with ParseVersion's grammar.
func (v *Version) UnmarshalText(text []byte) error {
	p, err := parseVersion(text)
	if err != nil {
		return err
	}
	*v = p
	return nil
}

func (v Version) appendText(b []byte) []byte {
	if !v.IsValid() {
		const hex = "0123456789abcdef"
		b = append(b, "invalid(0x"...)
		for shift := 28; shift >= 0; shift -= 4 {
			b = append(b, hex[uint32(v)>>uint(shift)&0xf])
		}
		return append(b, ')')
	}
	b = appendUint(b, v.Major())
	b = append(b, '.')
	b = appendUint(b, v.Minor())
	b = append(b, '.')
	return appendUint(b, v.Patch())
}

func appendUint(b []byte, x uint32) []byte {
	var d [10]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + x%10)
		x /= 10
		if x == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}

// ParseVersion parses "major.minor.patch": each component one or more ASCII
// digits (leading zeros allowed, no sign, space or 'v') of value at most
// 1023, then either the end of the text, or '-' or '+' followed by anything,
// which is ignored ("0.11.0-edge.2", "1.2.3+build.5").
//
// It scans left to right and reports the first problem: ErrRange for a
// component above 1023 as soon as its digits end, ErrSyntax for anything else.
// The error's Offset is the index of the offending character.
func ParseVersion(s string) (Version, error) { return parseVersion(s) }

// MustParseVersion is ParseVersion for use in tests; it panics on error.
func MustParseVersion(s string) Version {
	v, err := ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

func parseVersion[T string | []byte](s T) (Version, error) {
	var parts [3]uint32
	i := 0
	for p := range parts {
		if p > 0 {
			if i >= len(s) || s[i] != '.' {
				return 0, newError(ErrSyntax, "version", i, ruleVersionDot, "'.' between components")
			}
			i++
		}
		start := i
		var x uint32
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			if x <= versionMaxPart { // saturate: anything past 1023 is out of range
				x = x*10 + uint32(s[i]-'0')
			}
			i++
		}
		if i == start {
			return 0, newError(ErrSyntax, "version", i, ruleVersionDigits, "one or more digits")
		}
		if x > versionMaxPart {
			return 0, newError(ErrRange, "version", start, ruleVersionRange, wantComponent)
		}
		parts[p] = x
	}
	if i < len(s) && s[i] != '-' && s[i] != '+' {
		return 0, newError(ErrSyntax, "version", i, ruleVersionEnd, "end, '-' or '+' after patch")
	}
	return Version(parts[0]<<20 | parts[1]<<10 | parts[2]), nil
}

// Window is the range of client protocol versions a server accepts; a
// server's Max is its own version. The zero value is not well-formed and
// accepts nothing.
//
// Two gates exist (WIRE.md sections 1 and 10.5): protocol 0.11.0's, whose
// upper bound under 0.x ignores patch, and protocol 0.11.1's, which counts
// it. CountPatch chooses; its zero value is 0.11.0's, so a Window built
// before 0.11.1 keeps its meaning. An eviction carries only Min and Max.
type Window struct {
	Min, Max Version // the oldest and newest version accepted; Max is the server's own
	// CountPatch makes the window accept exactly Min <= v <= Max, every
	// component compared, as upstream's gate does from protocol 0.11.1
	// on ("a patch increment does not imply wire compatibility").
	CountPatch bool
}

// DefaultWindow returns the window a server of version server accepts by
// default: Max is server; Min is server with patch zeroed under 0.x, and with
// minor and patch zeroed from 1.0.0 on.
func DefaultWindow(server Version) Window {
	lowBits := uint32(versionMaxPart) // 0.x: drop patch
	if server.Major() >= 1 {
		lowBits = 1<<(2*versionBits) - 1 // >= 1.0: drop minor and patch
	}
	return Window{Min: Version(uint32(server) &^ lowBits), Max: server}
}

// InclusiveWindow returns the window [min, max] that counts patch: it
// accepts v iff min <= v <= max. InclusiveWindow(Protocol0111,
// Protocol0111) is upstream's 0.11.1 gate; InclusiveWindow(Protocol0110,
// Protocol0111) serves both revisions, each read in its own layout.
func InclusiveWindow(min, max Version) Window { return Window{Min: min, Max: max, CountPatch: true} }

// ServeWindow returns the window a server of protocol server accepts, as
// upstream builds it: for 0.11.1, [0.11.1, 0.11.1], counting patch (WIRE.md
// section 10.5); for every other version DefaultWindow(server), the 0.11.0
// rule, as for the layout (RevisionOf: 0.11.1 is the one version known to
// have changed the wire).
func ServeWindow(server Version) Window {
	if RevisionOf(server) == RevisionBindSecret {
		return InclusiveWindow(server, server)
	}
	return DefaultWindow(server)
}

// Valid reports whether the window is well-formed: 1 <= Min <= Max.
func (w Window) IsValid() bool { return 1 <= w.Min && w.Min <= w.Max }

// Accepts reports whether a client built against v may log in. With
// CountPatch it accepts Min <= v <= Max. Otherwise, under 0.x
// (Max.Major() == 0) it accepts v >= Min whose major.minor is at most Max's,
// ignoring patch at the upper bound; from 1.0.0 on it accepts v >= Min of the
// same major as Max. An ill-formed window and a version with reserved bits
// set are never accepted.
func (w Window) Accepts(v Version) bool {
	if !w.IsValid() || !v.IsValid() || v < w.Min {
		return false
	}
	if w.CountPatch {
		return v <= w.Max
	}
	if w.Max.Major() == 0 {
		return v>>versionBits <= w.Max>>versionBits
	}
	return v.Major() == w.Max.Major()
}

// String returns "[min, max]".
func (w Window) String() string {
	var b [64]byte
	s := append(b[:0], '[')
	s = w.Min.appendText(s)
	s = append(s, ", "...)
	s = w.Max.appendText(s)
	return string(append(s, ']'))
}
