package props

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
)

// componentEdges are the version component values a bug hides behind.
var componentEdges = []uint32{0, 1, 2, 9, 10, 11, 1022, 1023}

// GenComponent generates one version component in 0..1023, half the time
// an edge; it shrinks towards 0.
func GenComponent() gopter.Gen { return pick[uint32](0, 1023, componentEdges...) }

// GenVersion generates a valid version (reserved bits clear) from three
// components, each reaching 0 and 1023; it shrinks component by component
// towards 0.0.0.
func GenVersion() gopter.Gen {
	return derive(
		func(major, minor, patch uint32) codec.Version { return codec.MustPack(major, minor, patch) },
		func(v codec.Version) (uint32, uint32, uint32) { return v.Major(), v.Minor(), v.Patch() },
		GenComponent(), GenComponent(), GenComponent(),
	)
}

// GenWireVersion generates any u32 a protocol_version field may carry:
// mostly valid versions, sometimes with one or both reserved bits set. It
// shrinks the reserved bits away first, then the components.
func GenWireVersion() gopter.Gen {
	return derive(
		func(reserved uint32, v codec.Version) codec.Version { return codec.Version(reserved<<30 | uint32(v)) },
		func(v codec.Version) (uint32, codec.Version) { return uint32(v) >> 30, v & 0x3FFF_FFFF },
		pick[uint32](0, 3, 0, 0, 0, 0, 0, 0, 1, 2, 3), GenVersion(),
	)
}

// boundaryVersions sit at and around the 0.x / 1.0.0 boundary and the
// reference value 0.11.0.
var boundaryVersions = []codec.Version{
	codec.MustPack(0, 0, 1), codec.MustPack(0, 1, 0), codec.MustPack(0, 11, 0),
	codec.MustPack(0, 11, 1), codec.MustPack(0, 1023, 1023), codec.MustPack(1, 0, 0),
	codec.MustPack(1, 0, 1), codec.MustPack(1, 1, 0), codec.MustPack(2, 0, 0),
	codec.MustPack(1023, 1023, 1023),
}

// GenServerVersion generates the Max of a window: half the time a version
// at the 0.x / 1.0.0 boundary, otherwise any valid version.
func GenServerVersion() gopter.Gen {
	return derive(
		func(edge bool, i uint8, v codec.Version) codec.Version {
			if edge {
				return boundaryVersions[int(i)%len(boundaryVersions)]
			}
			return v
		},
		func(v codec.Version) (bool, uint8, codec.Version) { return false, 0, v },
		genBool(), pick[uint8](0, uint8(len(boundaryVersions)-1)), GenVersion(),
	)
}

// genBool generates a bool that shrinks to false.
func genBool() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(p.NextBool(), func(v interface{}) gopter.Shrink {
			if v.(bool) {
				return shrinkList([]bool{false})
			}
			return shrinkList[bool](nil)
		})
	}
}

// WindowShape says how a generated window's Min relates to its Max.
type WindowShape uint8

// Window shapes. The first three are well-formed.
const (
	ShapeDefault  WindowShape = iota // Min = DefaultWindow(Max).Min (ill-formed for 0.0.x)
	ShapeEqual                       // Min = Max
	ShapeBelow                       // Min somewhere in 1..Max
	ShapeZeroMin                     // Min = 0: ill-formed
	ShapeAboveMax                    // Min > Max: ill-formed
	shapeCount
)

// GenWindow generates windows of every shape around the 0.x / 1.0.0
// boundary, well-formed or not.
func GenWindow() gopter.Gen {
	return derive(
		func(shape uint8, top codec.Version, frac uint32) codec.Window {
			return shapeWindow(WindowShape(shape), top, frac)
		},
		windowShapeOf,
		pick[uint8](0, uint8(shapeCount-1)), GenServerVersion(), pick[uint32](0, 1<<20),
	)
}

// GenValidWindow generates well-formed windows (1 <= Min <= Max) of the
// shapes Default, Equal and Below; a default window that would be
// ill-formed (Max 0.0.x) becomes Min = Max, and Max 0.0.0 becomes 0.0.1.
func GenValidWindow() gopter.Gen {
	return derive(
		func(shape uint8, top codec.Version, frac uint32) codec.Window {
			w := shapeWindow(WindowShape(shape), max(top, 1), frac)
			if w.Min == 0 {
				w.Min = w.Max
			}
			return w
		},
		windowShapeOf,
		pick[uint8](0, uint8(ShapeBelow)), GenServerVersion(), pick[uint32](0, 1<<20),
	).SuchThat(func(w codec.Window) bool { return 1 <= w.Min && w.Min <= w.Max })
}

// shapeWindow builds the window of shape around top; frac picks Min for
// ShapeBelow and the overshoot for ShapeAboveMax.
func shapeWindow(shape WindowShape, top codec.Version, frac uint32) codec.Window {
	w := codec.Window{Max: top}
	switch shape {
	case ShapeDefault:
		w.Min = defaultMin(top)
	case ShapeEqual:
		w.Min = top
	case ShapeBelow:
		w.Min = 1 + codec.Version(uint64(frac)*uint64(top)>>20)
		w.Min = min(w.Min, top)
	case ShapeZeroMin:
		w.Min = 0
	case ShapeAboveMax:
		w.Min = top + 1 + codec.Version(frac%1024)
	}
	return w
}

// defaultMin is WIRE.md section 1's default Min, computed here rather than
// by the codec so that a wrong codec.DefaultWindow cannot bend the
// generator: Max with patch zeroed under 0.x, with minor and patch zeroed
// from 1.0.0 on.
func defaultMin(top codec.Version) codec.Version {
	if uint32(top)>>20&1023 == 0 {
		return top &^ 1023
	}
	return top &^ (1<<20 - 1)
}

// windowShapeOf is the inverse of shapeWindow, exact for every shape but
// ShapeBelow, whose frac it recovers to within rounding; shrinking only
// needs the candidates it derives to be smaller, not identical.
func windowShapeOf(w codec.Window) (uint8, codec.Version, uint32) {
	switch {
	case w.Min == 0:
		return uint8(ShapeZeroMin), w.Max, 0
	case w.Min == w.Max:
		return uint8(ShapeEqual), w.Max, 0
	case w.Min > w.Max:
		return uint8(ShapeAboveMax), w.Max, uint32(w.Min-w.Max-1) % 1024
	case w.Min == defaultMin(w.Max):
		return uint8(ShapeDefault), w.Max, 0
	}
	return uint8(ShapeBelow), w.Max, uint32((uint64(w.Min-1) << 20) / uint64(w.Max))
}
