package props

import (
	"encoding/binary"
	"fmt"

	"github.com/leanovate/gopter"

	"github.com/iggywire/iggywire/codec"
)

// MutationOp is the kind of damage a Mutation does to a valid encoding.
type MutationOp uint8

// Mutation kinds.
const (
	MutFlip     MutationOp = iota // xor one byte (a reserved one, half the time, in a header)
	MutTruncate                   // cut the encoding short
	MutExtend                     // append junk
	MutClaim                      // make a length or size field claim more
	MutBadUTF8                    // write an invalid UTF-8 sequence into a text field
	MutZero                       // zero a run of 1..16 bytes (a session, a client id, a length)
	mutCount
)

var mutNames = [mutCount]string{"flip", "truncate", "extend", "claim", "badutf8", "zero"}

// String names the kind.
func (o MutationOp) String() string {
	if o < mutCount {
		return mutNames[o]
	}
	return fmt.Sprintf("MutationOp(%d)", uint8(o))
}

// Mutation is one deterministic damage to an encoding: Op says what, Pos
// and Val (reduced modulo whatever they index) say where and how.
type Mutation struct {
	Op       MutationOp // the kind of damage
	Pos, Val uint32     // where (reduced modulo what the kind aims at) and with what value
}

// String reads like "flip(pos=3, val=1)".
func (m Mutation) String() string { return fmt.Sprintf("%v(pos=%d, val=%d)", m.Op, m.Pos, m.Val) }

// GenMutation generates mutations of every kind; each part shrinks towards
// 0, so a failing mutation shrinks to a flip of an early byte by 1.
func GenMutation() gopter.Gen {
	return derive(
		func(op uint8, pos, val uint32) Mutation { return Mutation{MutationOp(op), pos, val} },
		func(m Mutation) (uint8, uint32, uint32) { return uint8(m.Op), m.Pos, m.Val },
		pick[uint8](0, uint8(mutCount-1)), pick[uint32](0, 1<<16), pick[uint32](0, 1<<16, 0, 1, 2, 3),
	)
}

// InvalidUTF8 returns byte sequences that are not UTF-8: overlong forms,
// surrogates, code points above U+10FFFF, lone continuation bytes, bytes
// that never occur, and sequences cut short (these last are written at the
// end of a field, where nothing can complete them). Each call returns a
// fresh copy, the caller's to change.
func InvalidUTF8() [][]byte {
	return [][]byte{
		{0xC0, 0x80}, {0xC1, 0xBF}, // overlong 2-byte
		{0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF}, // overlong 3-byte
		{0xF0, 0x80, 0x80, 0x80}, {0xF0, 0x8F, 0xBF, 0xBF}, // overlong 4-byte
		{0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, // surrogates U+D800, U+DFFF
		{0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, // above U+10FFFF
		{0x80}, {0xBF}, // lone continuation bytes
		{0xFE}, {0xFF}, // never valid
		{0xC3}, {0xE2, 0x82}, {0xF0, 0x9F, 0x98}, // cut short
	}
}

// cutShort reports whether seq is a prefix of a valid sequence, which only
// stays invalid at the end of a field.
func cutShort(seq []byte) bool {
	return len(seq) < 4 && (seq[0] == 0xC3 || seq[0] == 0xE2 || seq[0] == 0xF0 && len(seq) == 3)
}

// Apply returns a damaged copy of enc, whose layout is l. It never modifies
// enc. A mutation that has nothing to aim at (a text mutation on a header)
// falls back to a flip.
func (m Mutation) Apply(enc []byte, l Layout) []byte {
	b := append([]byte(nil), enc...)
	if len(b) == 0 {
		return append(b, byte(m.Val))
	}
	switch m.Op {
	case MutTruncate:
		return b[:int(m.Pos)%len(b)]
	case MutExtend:
		for i := 0; i <= int(m.Pos)%8; i++ {
			b = append(b, byte(m.Val>>(i%4*8))^byte(i))
		}
		return b
	case MutClaim:
		if len(l.Lengths) > 0 {
			return m.claim(b, l.Lengths[int(m.Pos)%len(l.Lengths)])
		}
	case MutBadUTF8:
		if t, ok := m.target(l); ok {
			return m.badUTF8(b, t)
		}
	case MutZero:
		at := int(m.Pos) % len(b)
		clear(b[at:min(len(b), at+1+int(m.Val%16))])
		return b
	}
	return m.flip(b, l)
}

func (m Mutation) flip(b []byte, l Layout) []byte {
	i := int(m.Pos) % len(b)
	if m.Val&1 == 1 && len(l.Reserved) > 0 {
		s := l.Reserved[int(m.Pos)%len(l.Reserved)]
		i = s.Off + int(m.Pos/8)%s.Len
	}
	b[i] ^= byte(m.Val>>1)%255 + 1
	return b
}

// claim raises the length field f: by one, by a little, to the largest
// value its width holds, or to one more than the bytes present after it.
func (m Mutation) claim(b []byte, f LenField) []byte {
	if f.Off+f.Size > len(b) {
		return b
	}
	cur := uint64(b[f.Off])
	limit := uint64(0xFF)
	if f.Size == 4 {
		cur = uint64(binary.LittleEndian.Uint32(b[f.Off:]))
		limit = 0xFFFF_FFFF
	}
	var claim uint64
	switch m.Val % 4 {
	case 0:
		claim = cur + 1
	case 1:
		claim = cur + 1 + uint64(m.Val>>2)%64
	case 2:
		claim = limit
	default:
		claim = uint64(len(b)-f.Off-f.Size) + 1
	}
	claim = min(max(claim, cur+1), limit)
	if f.Size == 4 {
		binary.LittleEndian.PutUint32(b[f.Off:], uint32(claim))
	} else {
		b[f.Off] = byte(claim)
	}
	return b
}

// target picks a non-empty text field.
func (m Mutation) target(l Layout) (TextField, bool) {
	var nonEmpty []TextField
	for _, t := range l.Texts {
		if t.Len > 0 {
			nonEmpty = append(nonEmpty, t)
		}
	}
	if len(nonEmpty) == 0 {
		return TextField{}, false
	}
	return nonEmpty[int(m.Pos)%len(nonEmpty)], true
}

// badUTF8 overwrites bytes of t with an invalid sequence, clipped to the
// field; a sequence cut short goes at the very end of the field.
func (m Mutation) badUTF8(b []byte, t TextField) []byte {
	seqs := InvalidUTF8()
	seq := seqs[int(m.Val)%len(seqs)]
	seq = seq[:min(len(seq), t.Len)]
	at := t.Off + int(m.Pos/4)%(t.Len-len(seq)+1)
	if cutShort(seq) {
		at = t.Off + t.Len - len(seq)
	}
	copy(b[at:], seq)
	return b
}

// Message is the constraint of Hostile and GenHostile: the codec's message
// types. Each encodes with AppendBinary, the headers' through a pointer
// (see appendMessage).
type Message interface {
	codec.ClientVersionInfo | codec.LoginRegister | codec.LoginRegisterPAT | codec.LoginReply |
		codec.RequestHeader | codec.ReplyHeader | codec.Eviction
}

// appendMessage appends the encoding of *v: a pointer has both the
// bodies' value methods and the headers' pointer ones.
func appendMessage[T Message](dst []byte, v *T) ([]byte, error) {
	return any(v).(interface {
		AppendBinary([]byte) ([]byte, error)
	}).AppendBinary(dst)
}

// Hostile is a valid value and a mutation of its encoding.
type Hostile[T Message] struct {
	V T        // the valid value
	M Mutation // the damage done to its encoding
}

// Bytes returns the damaged encoding. V is valid by construction; should
// its encoding fail, the damage applies to no bytes at all.
func (h Hostile[T]) Bytes() []byte {
	enc, _ := appendMessage(nil, &h.V)
	return h.M.Apply(enc, LayoutOf(h.V))
}

// String describes the case readably (secrets by length only).
func (h Hostile[T]) String() string { return h.M.String() + " of " + Describe(h.V) }

// GenHostile generates hostile cases from a generator of valid values;
// both the value and the mutation shrink.
func GenHostile[T Message](valid gopter.Gen) gopter.Gen {
	return derive(
		func(v T, m Mutation) Hostile[T] { return Hostile[T]{v, m} },
		func(h Hostile[T]) (T, Mutation) { return h.V, h.M },
		valid, GenMutation(),
	)
}
