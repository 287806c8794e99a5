package codec_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// panics reports whether f panics, as the Must forms do on input their
// error-returning forms refuse.
func panics(f func()) (panicked bool) {
	defer func() { _ = recover() }()
	panicked = true
	f()
	return false
}

// TestPack checks the bit layout of WIRE.md section 1.
func TestPack(t *testing.T) {
	cases := []struct {
		major, minor, patch uint32
		want                codec.Version
	}{
		{0, 0, 0, 0},
		{0, 11, 0, 0x2C00}, // the current upstream protocol
		{0, 0, 1, 1},
		{0, 1, 0, 1 << 10},
		{1, 0, 0, 1 << 20},
		{1, 2, 3, 0x00100803},
		{1023, 1023, 1023, 0x3FFF_FFFF},
	}
	for _, c := range cases {
		v, err := codec.Pack(c.major, c.minor, c.patch)
		if err != nil {
			t.Fatalf("Pack(%d, %d, %d): err = %v", c.major, c.minor, c.patch, err)
		}
		if v != c.want {
			t.Fatalf("Pack(%d, %d, %d) = %#x, want %#x", c.major, c.minor, c.patch, uint32(v), uint32(c.want))
		}
		if got, want := [3]uint32{v.Major(), v.Minor(), v.Patch()}, [3]uint32{c.major, c.minor, c.patch}; got != want {
			t.Fatalf("components of %#x = %v, want %v", uint32(v), got, want)
		}
		if !v.IsValid() {
			t.Fatalf("%#x Valid() = false, want true", uint32(v))
		}
		if got := codec.MustPack(c.major, c.minor, c.patch); got != v {
			t.Fatalf("MustPack(%d, %d, %d) = %#x, want %#x", c.major, c.minor, c.patch, uint32(got), uint32(v))
		}
	}
	for _, bad := range [][3]uint32{{1024, 0, 0}, {0, 1024, 0}, {0, 0, 1024}, {1 << 31, 0, 0}} {
		v, err := codec.Pack(bad[0], bad[1], bad[2])
		wantErr(t, err, codec.ErrRange, "version", 0)
		if v != codec.Version(0) {
			t.Fatalf("Pack%v: value on error = %#x, want 0", bad, uint32(v))
		}
	}
	if !panics(func() { codec.MustPack(0, 0, 1024) }) {
		t.Errorf("MustPack(0, 0, 1024) did not panic")
	}
}

// TestVersionReservedBits: a u32 with bits 31..30 set is not a version, but
// its components still read from bits 29..0.
func TestVersionReservedBits(t *testing.T) {
	for _, v := range []codec.Version{0x4000_0000, 0x8000_0000, 0xC000_2C00, 0xFFFF_FFFF} {
		if v.IsValid() {
			t.Fatalf("%#x Valid() = true, want false", uint32(v))
		}
	}
	v := codec.Version(0xFFFF_FFFF)
	if got, want := [3]uint32{v.Major(), v.Minor(), v.Patch()}, [3]uint32{1023, 1023, 1023}; got != want {
		t.Fatalf("components of %#x = %v, want %v", uint32(v), got, want)
	}
	for _, c := range []struct {
		v    codec.Version
		want string
	}{{v, "invalid(0xffffffff)"}, {0xC000_2C00, "invalid(0xc0002c00)"}, {0x4000_0000, "invalid(0x40000000)"}} {
		if got := c.v.String(); got != c.want {
			t.Fatalf("Version(%#x).String() = %q, want %q", uint32(c.v), got, c.want)
		}
	}
}

// TestVersionOrder: integer order equals semver order.
func TestVersionOrder(t *testing.T) {
	ordered := []string{"0.0.0", "0.0.1", "0.0.1023", "0.1.0", "0.10.1023", "0.11.0", "0.11.1", "1.0.0", "1.0.1", "1.1023.1023", "2.0.0", "1023.1023.1023"}
	for i := 1; i < len(ordered); i++ {
		a, b := codec.MustParseVersion(ordered[i-1]), codec.MustParseVersion(ordered[i])
		if a >= b {
			t.Errorf("%s (%#x) >= %s (%#x)", ordered[i-1], uint32(a), ordered[i], uint32(b))
		}
	}
}

// TestParseVersion checks the grammar of WIRE.md section 1.
func TestParseVersion(t *testing.T) {
	ok := []struct {
		in   string
		want codec.Version
	}{
		{"0.11.0", 0x2C00},
		{"00.011.000", 0x2C00},
		{"0000000000000000000000000.11.0", 0x2C00},
		{"0.11.0-edge.2", 0x2C00},
		{"1.2.3+build.5", 0x00100803},
		{"1.2.3-", 0x00100803},
		{"1.2.3+", 0x00100803},
		{"1.2.3-x y\x00\xff", 0x00100803}, // anything after '-' is ignored
		{"1.2.3+-+", 0x00100803},
		{"1023.1023.1023", 0x3FFF_FFFF},
		{"0.0.0", 0},
	}
	for _, c := range ok {
		v, err := codec.ParseVersion(c.in)
		if err != nil {
			t.Fatalf("ParseVersion(%q): err = %v", c.in, err)
		}
		if v != c.want {
			t.Fatalf("ParseVersion(%q) = %#x, want %#x", c.in, uint32(v), uint32(c.want))
		}
	}
	bad := []struct {
		in   string
		kind error
		off  int
	}{
		{"", codec.ErrSyntax, 0},
		{"0.0.10230", codec.ErrRange, 4}, // past 1023 the component saturates, never wraps back into range
		{"1", codec.ErrSyntax, 1},
		{"1.2", codec.ErrSyntax, 3},
		{"1.2.", codec.ErrSyntax, 4},
		{"1..3", codec.ErrSyntax, 2},
		{".1.2.3", codec.ErrSyntax, 0},
		{"1.2.3.4", codec.ErrSyntax, 5},
		{" 1.2.3", codec.ErrSyntax, 0},
		{"1.2.3 ", codec.ErrSyntax, 5},
		{"1 .2.3", codec.ErrSyntax, 1},
		{"v1.2.3", codec.ErrSyntax, 0},
		{"+1.2.3", codec.ErrSyntax, 0},
		{"-1.2.3", codec.ErrSyntax, 0},
		{"1.+2.3", codec.ErrSyntax, 2},
		{"1.2.3x", codec.ErrSyntax, 5},
		{"1.2.3_4", codec.ErrSyntax, 5},
		{"1.2.3\x00", codec.ErrSyntax, 5},
		{"１.2.3", codec.ErrSyntax, 0}, // full-width digit
		{"1,2,3", codec.ErrSyntax, 1},
		{"1.2.1024", codec.ErrRange, 4},
		{"1024.0.0", codec.ErrRange, 0},
		{"0.1024.0-edge", codec.ErrRange, 2},
		{"1.2.99999999999999999999999999999999", codec.ErrRange, 4},
		{"18446744073709551616.0.0", codec.ErrRange, 0}, // 2^64 must not wrap
		{"4294967296.0.0", codec.ErrRange, 0},           // 2^32 must not wrap
		{"1.2.1024.5", codec.ErrRange, 4},               // range is reported as soon as the digits end
		{"1024x", codec.ErrRange, 0},
	}
	for _, c := range bad {
		t.Run(c.in, func(t *testing.T) {
			v, err := codec.ParseVersion(c.in)
			wantErr(t, err, c.kind, "version", c.off)
			if v != codec.Version(0) {
				t.Fatalf("ParseVersion(%q): value on error = %#x, want 0", c.in, uint32(v))
			}
			var u codec.Version = 7
			wantErr(t, u.UnmarshalText([]byte(c.in)), c.kind, "version", c.off)
			if u != codec.Version(7) {
				t.Fatalf("UnmarshalText(%q) leaves the value alone on error: got %#x, want 0x7", c.in, uint32(u))
			}
		})
	}
	if !panics(func() { codec.MustParseVersion("v1") }) {
		t.Errorf("MustParseVersion(%q) did not panic", "v1")
	}
}

// TestVersionText: String, AppendText, MarshalText and UnmarshalText agree,
// and ParseVersion(v.String()) == v exactly when v is valid.
func TestVersionText(t *testing.T) {
	for _, x := range []uint32{0, 1, 0x2C00, 0x00100803, 0x3FFF_FFFF, 0x4000_0000, 0xC000_0001, 0xFFFF_FFFF} {
		v := codec.Version(x)
		s := v.String()
		b, err := v.MarshalText()
		if err != nil {
			t.Fatalf("%#x MarshalText: err = %v", x, err)
		}
		if string(b) != s {
			t.Fatalf("%#x MarshalText = %q, want String's %q", x, b, s)
		}
		b, err = v.AppendText([]byte("v="))
		if err != nil {
			t.Fatalf("%#x AppendText: err = %v", x, err)
		}
		if want := "v=" + s; string(b) != want {
			t.Fatalf("%#x AppendText = %q, want %q", x, b, want)
		}
		p, err := codec.ParseVersion(s)
		if v.IsValid() {
			if err != nil {
				t.Fatalf("ParseVersion(%q): err = %v", s, err)
			}
			if p != v {
				t.Fatalf("round trip of %s: ParseVersion = %#x, want %#x", s, uint32(p), x)
			}
			var u codec.Version
			if err := u.UnmarshalText([]byte(s)); err != nil {
				t.Fatalf("UnmarshalText(%q): err = %v", s, err)
			}
			if u != v {
				t.Fatalf("UnmarshalText(%q) = %#x, want %#x", s, uint32(u), x)
			}
			continue
		}
		wantErr(t, err, codec.ErrSyntax, "version", 0)
	}
	for _, c := range []struct {
		v    codec.Version
		want string
	}{{0x2C00, "0.11.0"}, {0x3FFF_FFFF, "1023.1023.1023"}} {
		if got := c.v.String(); got != c.want {
			t.Fatalf("Version(%#x).String() = %q, want %q", uint32(c.v), got, c.want)
		}
	}
}

// TestDefaultWindow: min is max with patch zeroed under 0.x, with minor and
// patch zeroed from 1.0.0 on.
func TestDefaultWindow(t *testing.T) {
	cases := []struct{ server, min string }{
		{"0.11.0", "0.11.0"},
		{"0.11.7", "0.11.0"},
		{"0.1023.1023", "0.1023.0"},
		{"0.0.7", "0.0.0"}, // ill-formed: min 0
		{"1.0.0", "1.0.0"},
		{"1.2.3", "1.0.0"},
		{"1023.1023.1023", "1023.0.0"},
	}
	for _, c := range cases {
		w := codec.DefaultWindow(codec.MustParseVersion(c.server))
		if want := (codec.Window{Min: codec.MustParseVersion(c.min), Max: codec.MustParseVersion(c.server)}); w != want {
			t.Fatalf("DefaultWindow(%s) = %v, want %v", c.server, w, want)
		}
	}
	if w := codec.DefaultWindow(codec.MustParseVersion("0.0.7")); w.IsValid() {
		t.Fatalf("0.0.7 default window is ill-formed: %v Valid() = true, want false", w)
	}
}

// TestWindowAccepts checks both regimes and the boundary between them.
func TestWindowAccepts(t *testing.T) {
	cases := []struct {
		min, max string
		yes, no  []string
	}{
		{ // 0.x: major.minor at most the server's, patch ignored at the top
			"0.11.0", "0.11.0",
			[]string{"0.11.0", "0.11.1", "0.11.1023"},
			[]string{"0.10.1023", "0.12.0", "1.0.0", "0.0.0"},
		},
		{
			"0.9.5", "0.11.3",
			[]string{"0.9.5", "0.9.1023", "0.10.0", "0.11.0", "0.11.3", "0.11.9"},
			[]string{"0.9.4", "0.12.0", "1.11.3"},
		},
		{ // last 0.x server: a 1.0 client is too new
			"0.1023.0", "0.1023.1023",
			[]string{"0.1023.0", "0.1023.1023"},
			[]string{"1.0.0", "0.1022.1023"},
		},
		{ // >= 1.0: same major as max, at least min; minor and patch free above
			"1.0.0", "1.2.3",
			[]string{"1.0.0", "1.2.3", "1.2.4", "1.1023.1023"},
			[]string{"0.1023.1023", "0.11.0", "2.0.0"},
		},
		{ // a window spanning 0.x and 1.0 follows max's regime
			"0.11.0", "1.0.0",
			[]string{"1.0.0", "1.5.0"},
			[]string{"0.11.0", "0.12.0", "2.0.0"},
		},
		{
			"0.0.1", "0.0.1",
			[]string{"0.0.1", "0.0.9"},
			[]string{"0.0.0", "0.1.0"},
		},
	}
	for _, c := range cases {
		w := codec.Window{Min: codec.MustParseVersion(c.min), Max: codec.MustParseVersion(c.max)}
		if !w.IsValid() {
			t.Fatalf("%v Valid() = false, want true", w)
		}
		for _, v := range c.yes {
			if !w.Accepts(codec.MustParseVersion(v)) {
				t.Fatalf("%v accepts %s: Accepts = false, want true", w, v)
			}
		}
		for _, v := range c.no {
			if w.Accepts(codec.MustParseVersion(v)) {
				t.Fatalf("%v accepts %s: Accepts = true, want false", w, v)
			}
		}
	}
}

// TestWindowAcceptsNothing: an ill-formed window accepts nothing, and no
// window accepts a version with reserved bits set.
func TestWindowAcceptsNothing(t *testing.T) {
	probe := []codec.Version{0, 1, 0x2C00, 0x2C05, 1 << 20, 0x3FFF_FFFF}
	for _, w := range []codec.Window{{}, {Min: 0, Max: 0x2C00}, {Min: 0x2C01, Max: 0x2C00}, {Min: 2, Max: 1}} {
		if w.IsValid() {
			t.Fatalf("%v Valid() = true, want false", w)
		}
		for _, v := range probe {
			if w.Accepts(v) {
				t.Fatalf("%v accepts %v: Accepts = true, want false", w, v)
			}
		}
	}
	windows := []codec.Window{
		{Min: 1, Max: 0x3FFF_FFFF},
		{Min: 1, Max: 0x3FF},
		{Min: 1, Max: 0xFFFF_FFFF},
		codec.DefaultWindow(0x2C00),
		codec.DefaultWindow(0x00100803),
	}
	for _, w := range windows {
		for _, low := range []uint32{0, 1, 0x2C00, 0x2C05, 0x00100803, 0x3FF0_0000, 0x3FFF_FFFF} {
			for _, high := range []uint32{0x4000_0000, 0x8000_0000, 0xC000_0000} {
				v := codec.Version(high | low)
				if w.Accepts(v) {
					t.Fatalf("%v accepts %v: Accepts = true, want false", w, v)
				}
			}
		}
	}
}

// TestWindowString prints both ends.
func TestWindowString(t *testing.T) {
	for _, c := range []struct {
		w    codec.Window
		want string
	}{
		{codec.Window{Min: 0x2C00, Max: 0x2C05}, "[0.11.0, 0.11.5]"},
		{codec.Window{Max: 0xC000_0000}, "[0.0.0, invalid(0xc0000000)]"},
	} {
		if got := c.w.String(); got != c.want {
			t.Fatalf("Window{Min: %#x, Max: %#x}.String() = %q, want %q", uint32(c.w.Min), uint32(c.w.Max), got, c.want)
		}
	}
}
