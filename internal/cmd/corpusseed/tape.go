package main

import "encoding/binary"

// tape writes the input of a structured fuzz target: the field generator
// of fuzz/gen_test.go reads bytes in a fixed order and width, and each
// method here writes the bytes that make one of its reads return the
// value named. Keep the two in step.
type tape []byte

// Text modes of the generator (first byte of a text read, mod 8).
const (
	textNil     = 0
	textEmpty   = 1
	textTooLong = 2 // 256 + next byte
	textMax     = 3 // 255 bytes
	textBadUTF8 = 4 // next byte picks where 0xff goes
	textBytes   = 5 // next byte is a length, then that many bytes
)

func (t tape) b(v ...byte) tape { return append(t, v...) }

func (t tape) u32(v uint32) tape { return binary.BigEndian.AppendUint32(t, v) }

func (t tape) u64(v uint64) tape { return t.u32(uint32(v >> 32)).u32(uint32(v)) }

// text writes literal text bytes.
func (t tape) text(s string) tape { return append(t.b(textBytes, byte(len(s))), s...) }

// mode writes a text of one of the special shapes.
func (t tape) mode(m byte) tape {
	if m == textTooLong || m == textBadUTF8 {
		return t.b(m, 3)
	}
	return t.b(m)
}

func (t tape) version(v uint32) tape { return t.b(0).u32(v) }

// zero writes the "this field is 0" choice of u128 and maybe-zero reads.
func (t tape) zero() tape { return t.b(0) }

func (t tape) u128(lo, hi uint64) tape { return t.b(1).u64(lo).u64(hi) }

func (t tape) nonZero(v uint64) tape { return t.b(1).u64(v) }

func (t tape) size(v uint32) tape { return t.b(1).u32(v) }

func (t tape) op(o byte) tape { return t.b(1, o) }

func (t tape) info(name, version string) tape { return t.version(0x2C00).text(name).text(version) }

// windowPair writes an explicit {min, max}.
func (t tape) windowPair(min, max uint32) tape { return t.b(2).version(min).version(max) }
