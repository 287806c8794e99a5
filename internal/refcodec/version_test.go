package refcodec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPack(t *testing.T) {
	cases := []struct {
		ma, mi, pa uint32
		want       uint32
		class      Class
	}{
		{0, 11, 0, 0x0000_2C00, OK}, // WIRE.md: 0.11.0 = 0x0000_2C00
		{0, 0, 0, 0, OK},
		{1, 0, 0, 0x0010_0000, OK},
		{1023, 1023, 1023, 0x3FFF_FFFF, OK},
		{1, 2, 3, 1<<20 | 2<<10 | 3, OK},
		{1024, 0, 0, 0, Range},
		{0, 1024, 0, 0, Range},
		{0, 0, 1024, 0, Range},
		{0xFFFF_FFFF, 0, 0, 0, Range},
	}
	for _, c := range cases {
		got, err := Pack(c.ma, c.mi, c.pa)
		assert.Equal(t, c.class, ClassOf(err), "Pack(%d,%d,%d)", c.ma, c.mi, c.pa)
		assert.Equal(t, c.want, got, "Pack(%d,%d,%d)", c.ma, c.mi, c.pa)
	}
}

func TestParseVersion(t *testing.T) {
	cases := []struct {
		in    string
		want  uint32
		class Class
	}{
		{"0.11.0", 0x2C00, OK},
		{"0.11.0-edge.2", 0x2C00, OK},
		{"0.11.0+build.5", 0x2C00, OK},
		{"0.11.0-", 0x2C00, OK},
		{"0.11.0+", 0x2C00, OK},
		{"0.11.0-x.y z!", 0x2C00, OK},
		{"1.2.3", 1<<20 | 2<<10 | 3, OK},
		{"1023.1023.1023", 0x3FFF_FFFF, OK},
		{"0000000001.0.0", 1 << 20, OK},
		{"0.0.00000000000000000000000000001023", 1023, OK},
		{"0.0.0", 0, OK},
		{"1024.0.0", 0, Range},
		{"0.1024.0", 0, Range},
		{"0.0.1024", 0, Range},
		{"99999999999999999999999", 0, Range},        // Range before the missing '.'
		{"99999999999999999999999.x", 0, Range},      // overflow-proof
		{"4294967296.0.0", 0, Range},                 // would wrap a u32 to 0
		{"4294968319.0.0", 0, Range},                 // would wrap a u32 to 1023
		{"1024", 0, Range},                           // checked as soon as digits end
		{"0.1024", 0, Range},                         // ... even with more missing
		{"1024.x.y", 0, Range},                       // Range wins over later syntax
		{"1.2000.x", 0, Range},                       // second component, then stop
		{"1.2.3000-rc", 0, Range},                    // third component
		{"1.2.3000x", 0, Range},                      // Range before the bad suffix
		{"", 0, Syntax},                              // no digits
		{"v1.2.3", 0, Syntax},                        // no 'v'
		{"+1.2.3", 0, Syntax},                        // no sign
		{"-1.2.3", 0, Syntax},                        // no sign
		{" 1.2.3", 0, Syntax},                        // no spaces
		{"1.2.3 ", 0, Syntax},                        // no spaces after
		{"1 .2.3", 0, Syntax},                        // no spaces inside
		{"1", 0, Syntax},                             // '.' required
		{"1.", 0, Syntax},                            // digits required
		{"1.2", 0, Syntax},                           // '.' required
		{"1.2.", 0, Syntax},                          // digits required
		{"1..3", 0, Syntax},                          // empty component
		{".1.2", 0, Syntax},                          // empty first component
		{"1.2.3.4", 0, Syntax},                       // '.' is not a suffix start
		{"1.2.3a", 0, Syntax},                        // any other byte
		{"1.2.3_1", 0, Syntax},                       // any other byte
		{"1.2.-3", 0, Syntax},                        // sign in a component
		{"1,2,3", 0, Syntax},                         // wrong separator
		{"١.٢.٣", 0, Syntax},                         // only ASCII digits
		{"1.2.3\x00", 0, Syntax},                     // NUL is another byte
		{"1.1024x.3", 0, Range},                      // Range as soon as digits end
		{"1.x1024.3", 0, Syntax},                     // Syntax first when earlier
		{strings.Repeat("0", 10000) + ".0.1", 1, OK}, // long but fine
	}
	for _, c := range cases {
		got, err := ParseVersion(c.in)
		assert.Equal(t, c.class, ClassOf(err), "ParseVersion(%q)", c.in)
		assert.Equal(t, c.want, got, "ParseVersion(%q)", c.in)
	}
}

func TestFormatVersion(t *testing.T) {
	cases := map[uint32]string{
		0x2C00:            "0.11.0",
		0:                 "0.0.0",
		0x3FFF_FFFF:       "1023.1023.1023",
		0xFFFF_FFFF:       "1023.1023.1023", // reserved bits ignored
		0x4000_0000:       "0.0.0",
		1<<20 | 2<<10 | 3: "1.2.3",
	}
	for v, want := range cases {
		assert.Equal(t, want, FormatVersion(v), "FormatVersion(%#x)", v)
	}
	// Format then parse gives the value back (bits 29..0).
	for _, v := range []uint32{0, 1, 1023, 1024, 0x2C00, 0x2C03, 0x0010_0000, 0x3FFF_FFFF, 0xC000_0001} {
		got, err := ParseVersion(FormatVersion(v))
		if assert.NoError(t, err, "round trip %#x", v) {
			assert.Equal(t, v&0x3FFF_FFFF, got, "round trip %#x", v)
		}
	}
}

func TestValidVersion(t *testing.T) {
	for v, want := range map[uint32]bool{0: true, 0x2C00: true, 0x3FFF_FFFF: true, 0x4000_0000: false, 0x8000_0000: false, 0xFFFF_FFFF: false} {
		assert.Equal(t, want, ValidVersion(v), "ValidVersion(%#x)", v)
	}
}

func TestDefaultWindow(t *testing.T) {
	cases := []struct {
		server uint32
		want   Window
	}{
		{0x2C03, Window{Min: 0x2C00, Max: 0x2C03}},                        // 0.11.3 -> 0.11.0
		{0x2C00, Window{Min: 0x2C00, Max: 0x2C00}},                        // 0.11.0
		{1<<20 | 2<<10 | 3, Window{Min: 1 << 20, Max: 1<<20 | 2<<10 | 3}}, // 1.2.3 -> 1.0.0
		{0x3FF, Window{Min: 0, Max: 0x3FF}},                               // 0.0.1023 -> 0.0.0
	}
	for _, c := range cases {
		assert.Equal(t, c.want, DefaultWindow(c.server), "DefaultWindow(%#x)", c.server)
	}
	assert.False(t, WindowValid(DefaultWindow(0x3FF)), "a default window with min 0 is not well-formed")
}

func TestWindowValid(t *testing.T) {
	for w, want := range map[Window]bool{
		{Min: 0, Max: 0}: false, {Min: 0, Max: 5}: false, {Min: 1, Max: 0}: false, {Min: 5, Max: 4}: false,
		{Min: 1, Max: 1}: true, {Min: 1, Max: 5}: true, {Min: 0x2C00, Max: 0x2C03}: true,
	} {
		assert.Equal(t, want, WindowValid(w), "WindowValid(%+v)", w)
	}
}

func TestAccepts(t *testing.T) {
	v := func(ma, mi, pa uint32) uint32 {
		p, err := Pack(ma, mi, pa)
		require.NoError(t, err)
		return p
	}
	zeroX := DefaultWindow(v(0, 11, 3)) // {0.11.0, 0.11.3}
	oneX := DefaultWindow(v(1, 2, 3))   // {1.0.0, 1.2.3}
	cases := []struct {
		w    Window
		v    uint32
		want bool
	}{
		{zeroX, v(0, 11, 0), true},
		{zeroX, v(0, 11, 3), true},
		{zeroX, v(0, 11, 9), true}, // patch above max is fine under 0.x
		{zeroX, v(0, 11, 1023), true},
		{zeroX, v(0, 12, 0), false}, // minor above
		{zeroX, v(0, 10, 9), false}, // below min
		{zeroX, v(1, 0, 0), false},
		{oneX, v(1, 0, 0), true},
		{oneX, v(1, 2, 3), true},
		{oneX, v(1, 9, 9), true}, // strict semver: same major
		{oneX, v(1, 1023, 1023), true},
		{oneX, v(2, 0, 0), false},
		{oneX, v(0, 99, 0), false},
		{Window{Min: v(0, 9, 0), Max: v(1, 0, 0)}, v(0, 10, 0), false}, // major must equal 1
		{Window{Min: v(0, 9, 0), Max: v(1, 0, 0)}, v(1, 0, 5), true},
		{Window{}, v(0, 11, 0), false},               // ill-formed
		{Window{Min: 5, Max: 4}, 4, false},           // ill-formed
		{Window{Min: 1, Max: v(0, 11, 0)}, 0, false}, // below min 1
		{zeroX, v(0, 11, 0) | 0x4000_0000, false},    // invalid version
		{Window{Min: 1, Max: 0xFFFF_FFFF}, 0xC000_2C00, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Accepts(c.w, c.v), "Accepts(%+v, %s=%#x)", c.w, FormatVersion(c.v), c.v)
	}
}
