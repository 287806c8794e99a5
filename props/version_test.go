package props

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/internal/refcodec/codecclass"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// semverLess compares by components, independently of the packing.
func semverLess(a, b codec.Version) bool {
	if a.Major() != b.Major() {
		return a.Major() < b.Major()
	}
	if a.Minor() != b.Minor() {
		return a.Minor() < b.Minor()
	}
	return a.Patch() < b.Patch()
}

// specAccepts is WIRE.md section 1's window rule, written from the text:
// a window is well-formed iff 1 <= min <= max; a version with bits 31..30
// set is never accepted; under 0.x accept v >= min with major.minor at most
// max's; past 1.0.0 accept v >= min of max's major.
func specAccepts(w codec.Window, v codec.Version) bool {
	if !(1 <= w.Min && w.Min <= w.Max) || uint32(v)>>30 != 0 || v < w.Min {
		return false
	}
	if uint32(w.Max)>>20&1023 == 0 {
		return uint32(v)>>10 <= uint32(w.Max)>>10
	}
	return uint32(v)>>20&1023 == uint32(w.Max)>>20&1023
}

func withPatch(v codec.Version, p uint32) codec.Version { return v&^1023 | codec.Version(p) }

func TestVersionAlgebra(t *testing.T) {
	t.Parallel()
	big := pick[uint32](0, 2047, 0, 1, 1023, 1024, 2047)
	t.Run("Pack then Major/Minor/Patch is the identity", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "Pack", prop.ForAll(func(ma, mi, pa uint32) string {
			v, err := codec.Pack(ma, mi, pa)
			if ma > 1023 || mi > 1023 || pa > 1023 {
				if !errors.Is(err, codec.ErrRange) {
					return fmt.Sprintf("Pack(%d, %d, %d) = %v, %v; want ErrRange", ma, mi, pa, v, err)
				}
				return ""
			}
			if err != nil || v.Major() != ma || v.Minor() != mi || v.Patch() != pa || !v.IsValid() {
				return fmt.Sprintf("Pack(%d, %d, %d) = %v (%d.%d.%d), %v", ma, mi, pa, v, v.Major(), v.Minor(), v.Patch(), err)
			}
			return ""
		}, big, big, big))
	})
	t.Run("integer order is semver order", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "order", prop.ForAll(func(a, b codec.Version) bool {
			return (a < b) == semverLess(a, b) && (a == b) == (a.String() == b.String())
		}, GenVersion(), GenVersion()))
	})
	t.Run("ParseVersion(v.String()) == v exactly for valid v", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "text", prop.ForAll(func(v codec.Version, suffix string) string {
			got, err := codec.ParseVersion(v.String() + suffix)
			if !v.IsValid() {
				if err == nil {
					return fmt.Sprintf("ParseVersion(%q) accepted an invalid version", v.String())
				}
				return ""
			}
			if err != nil || got != v {
				return fmt.Sprintf("ParseVersion(%q) = %v, %v", v.String()+suffix, got, err)
			}
			return ""
		}, GenWireVersion(), gen.OneConstOf("", "-edge.2", "+build.5", "-", "+")))
	})
}

func TestWindowRules(t *testing.T) {
	t.Parallel()
	t.Run("Accepts is the rule of WIRE.md section 1", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "spec", prop.ForAll(func(w codec.Window, v codec.Version) string {
			if got := w.Accepts(v); got != specAccepts(w, v) {
				return fmt.Sprintf("%v.Accepts(%v) = %v", w, v, got)
			}
			if got, ref := w.Accepts(v), refcodec.Accepts(refcodec.Window{Min: uint32(w.Min), Max: uint32(w.Max)}, uint32(v)); got != ref {
				return fmt.Sprintf("%v.Accepts(%v) = %v, reference %v", w, v, got, ref)
			}
			return ""
		}, GenWindow(), genClientNear()))
	})
	t.Run("acceptance is monotone up to Max and nothing below Min passes", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "monotone", prop.ForAll(func(w codec.Window, a, b codec.Version) string {
			lo, hi := min(a, b), max(a, b)
			if lo < w.Min && w.Accepts(lo) {
				return fmt.Sprintf("%v accepts %v below Min", w, lo)
			}
			if hi <= w.Max && w.Accepts(lo) && !w.Accepts(hi) {
				return fmt.Sprintf("%v accepts %v but not %v <= Max", w, lo, hi)
			}
			return ""
		}, GenWindow(), genClientNear(), genClientNear()))
	})
	t.Run("patch never matters at the 0.x upper bound", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "patch", prop.ForAll(func(w codec.Window, v codec.Version, p uint32) string {
			if w.Max.Major() != 0 || !w.IsValid() {
				return ""
			}
			u := withPatch(v, p)
			if v >= w.Min && u >= w.Min && w.Accepts(v) != w.Accepts(u) {
				return fmt.Sprintf("%v: Accepts(%v) = %v but Accepts(%v) = %v", w, v, w.Accepts(v), u, w.Accepts(u))
			}
			at := withPatch(w.Max, p) // Max's major.minor with any patch
			if at >= w.Min && !w.Accepts(at) {
				return fmt.Sprintf("%v refuses %v: same major.minor as Max", w, at)
			}
			return ""
		}, GenWindow(), genClientNear(), GenComponent()))
	})
	t.Run("past 1.0.0 a major bump is always refused", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "major", prop.ForAll(func(w codec.Window, v codec.Version) string {
			if w.Max.Major() == 0 || v.Major() == w.Max.Major() {
				return ""
			}
			if w.Accepts(v) {
				return fmt.Sprintf("%v accepts %v of another major", w, v)
			}
			if bump := codec.Version(uint32(w.Max.Major()+1) << 20); w.Max.Major() < 1023 && w.Accepts(bump) {
				return fmt.Sprintf("%v accepts the next major %v", w, bump)
			}
			return ""
		}, GenWindow(), genClientNear()))
	})
	t.Run("DefaultWindow(v) accepts v iff v is valid and not 0.0.x", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "default", prop.ForAll(func(v codec.Version) string {
			w := codec.DefaultWindow(v)
			ref := refcodec.DefaultWindow(uint32(v))
			if uint32(w.Min) != ref.Min || uint32(w.Max) != ref.Max || w.Max != v || w.Min != defaultMin(v) {
				return fmt.Sprintf("DefaultWindow(%v) = %v, reference [%d, %d]", v, w, ref.Min, ref.Max)
			}
			// 0.0.x has Min 0.0.0: the window is ill-formed and accepts
			// nothing, not even the server's own version.
			want := v.IsValid() && v >= codec.MustPack(0, 1, 0)
			if w.Accepts(v) != want || w.IsValid() != (v >= codec.MustPack(0, 1, 0)) {
				return fmt.Sprintf("DefaultWindow(%v) = %v: Valid %v, Accepts(self) %v; want %v", v, w, w.IsValid(), w.Accepts(v), want)
			}
			return ""
		}, GenWireVersion()))
	})
}

// genClientNear generates client versions likely to sit near a generated
// window's bounds: boundary versions, their neighbours, and any wire value.
func genClientNear() gopter.Gen {
	return derive(
		func(base codec.Version, delta uint32, down bool) codec.Version {
			if down {
				return base - codec.Version(min(delta, uint32(base)))
			}
			return base + codec.Version(delta)
		},
		func(v codec.Version) (codec.Version, uint32, bool) { return v, 0, false },
		gen.OneGenOf(GenServerVersion(), GenWireVersion()), pick[uint32](0, 2048, 0, 1, 1023, 1024), genBool(),
	)
}

func TestParseVersionDifferential(t *testing.T) {
	t.Parallel()
	text := gen.SliceOf(gen.OneConstOf('0', '1', '9', '.', '-', '+', 'v', ' ', 'x')).Map(func(r []rune) string { return string(r) })
	grammar := derive(
		func(a, b, c uint32, sep, tail string) string { return fmt.Sprintf("%d.%d%s%d%s", a, b, sep, c, tail) },
		func(string) (uint32, uint32, uint32, string, string) { return 0, 0, 0, ".", "" },
		pick[uint32](0, 99999, 0, 1023, 1024, 10000), pick[uint32](0, 1100, 1023, 1024), pick[uint32](0, 1100, 1023, 1024),
		gen.OneConstOf(".", "", ".."), gen.OneConstOf("", "-rc.1", "+b", "x", " ", ".0"),
	)
	property(t, 1, "ParseVersion agrees with the reference", prop.ForAll(func(s string) string {
		got, err := codec.ParseVersion(s)
		want, werr := refcodec.ParseVersion(s)
		if codecclass.Of(err) != refcodec.ClassOf(werr) || err == nil && uint32(got) != want {
			return fmt.Sprintf("ParseVersion(%q) = %v, %v; reference %d, %v", s, got, err, want, werr)
		}
		return ""
	}, gen.OneGenOf(text, grammar)))
}
