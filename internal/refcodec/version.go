package refcodec

import "fmt"

// MaxComponent is the largest value of one version component (10 bits).
const MaxComponent = 1023

// Pack packs major.minor.patch into a protocol version:
// major<<20 | minor<<10 | patch. Any component above 1023 is a Range error.
func Pack(major, minor, patch uint32) (uint32, error) {
	if major > MaxComponent || minor > MaxComponent || patch > MaxComponent {
		return 0, Range
	}
	return major<<20 | minor<<10 | patch, nil
}

// major returns bits 29..20 of v.
func major(v uint32) uint32 { return v >> 20 & MaxComponent }

// ParseVersion parses "major.minor.patch", optionally followed by a '-' or
// '+' and anything at all (a pre-release or build suffix, ignored), into a
// packed version.
//
// The text is scanned left to right and the first problem found wins: a
// component with no digits, a missing '.', or any other byte after the third
// component is a Syntax error; a component whose value is above 1023 is a
// Range error, reported as soon as its digits end. Leading zeros are allowed.
func ParseVersion(s string) (uint32, error) {
	pos := 0
	v := uint32(0)
	for i := 0; i < 3; i++ {
		if i > 0 {
			if pos >= len(s) || s[pos] != '.' {
				return 0, Syntax
			}
			pos++
		}
		start := pos
		value := uint32(0)
		for pos < len(s) && s[pos] >= '0' && s[pos] <= '9' {
			// Saturate just above the limit so that many digits cannot
			// overflow; any value above 1023 is a Range error anyway.
			if value <= MaxComponent {
				value = value*10 + uint32(s[pos]-'0')
			}
			pos++
		}
		if pos == start {
			return 0, Syntax
		}
		if value > MaxComponent {
			return 0, Range
		}
		v = v<<10 | value
	}
	if pos < len(s) && s[pos] != '-' && s[pos] != '+' {
		return 0, Syntax
	}
	return v, nil
}

// FormatVersion formats v as "major.minor.patch" from bits 29..20, 19..10
// and 9..0; the reserved bits 31..30 are ignored.
func FormatVersion(v uint32) string {
	return fmt.Sprintf("%d.%d.%d", major(v), v>>10&MaxComponent, v&MaxComponent)
}

// ValidVersion reports whether v is a valid version: bits 31..30 are zero.
func ValidVersion(v uint32) bool {
	return v>>30 == 0
}

// DefaultWindow returns the window a server at version server accepts by
// default: Max is server; Min is server with the patch zeroed under 0.x
// (major 0), or with minor and patch zeroed from 1.0.0 on.
func DefaultWindow(server uint32) Window {
	if major(server) == 0 {
		return Window{Min: server &^ MaxComponent, Max: server}
	}
	return Window{Min: server &^ 0xFFFFF, Max: server}
}

// WindowValid reports whether w is well-formed: 1 <= Min <= Max.
func WindowValid(w Window) bool {
	return w.Min >= 1 && w.Min <= w.Max
}

// Accepts reports whether the window w accepts the client version v. An
// ill-formed window accepts nothing, and no window accepts an invalid
// version. Otherwise v must be at least Min and, when Max's major (bits
// 29..20) is 0, v's major.minor (v>>10) must be at most Max's (Max>>10);
// when Max's major is at least 1, v's major must equal Max's. A window that
// counts patch (CountPatch) accepts exactly Min <= v <= Max instead.
func Accepts(w Window, v uint32) bool {
	if !WindowValid(w) || !ValidVersion(v) {
		return false
	}
	if v < w.Min {
		return false
	}
	if w.CountPatch {
		// Protocol 0.11.1's gate: both bounds inclusive, patch counted.
		return v <= w.Max
	}
	if major(w.Max) == 0 {
		return v>>10 <= w.Max>>10
	}
	return major(v) == major(w.Max)
}
