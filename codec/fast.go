package codec

import (
	"encoding/binary"
	"unicode/utf8"
)

// The body decoders have two paths. The fast path below recognises a valid
// body in one pass: it walks the length prefixes, checks the length rules,
// and validates every text field at once with a single ASCII test over the
// whole body, which is true for almost every real login (ASCII is valid
// UTF-8, and the non-text bytes of a typical body are small). It builds no
// error: on any doubt (a broken rule, or a non-ASCII byte anywhere) it gives
// up, and the reader-based decoder, which states every rule once in wire
// order and builds the exact error, decodes the input from the start. The
// fast path is only ever allowed to accept bodies the reader accepts, with
// the same fields; the differential fuzz target and the properties check it.

// ascii reports whether every byte of b is below 0x80. It reads a word at a
// time; a tail shorter than a word is covered by the word that ends b.
func ascii(b []byte) bool {
	if len(b) < 8 {
		var acc byte
		for _, c := range b {
			acc |= c
		}
		return acc < utf8.RuneSelf
	}
	var acc uint64
	for i := 0; i+8 <= len(b); i += 8 {
		acc |= binary.LittleEndian.Uint64(b[i:])
	}
	acc |= binary.LittleEndian.Uint64(b[len(b)-8:])
	return acc&0x8080808080808080 == 0
}

// asciiTop reports whether the top n bytes of the little-endian word w are
// ASCII, for 0 <= n <= 8 (n == 0 shifts the mask out). A text field shorter
// than a word at the end of a body is tested by loading the word that ends
// with it: one load instead of a byte loop.
func asciiTop(w uint64, n int) bool {
	return w&(0x8080808080808080<<(8*uint(8-n))) == 0
}

// scan is the fast path's cursor: a position and a flag that turns false on
// the first doubt. It never builds an error.
type scan struct {
	src []byte
	p   int
	ok  bool
}

func (s *scan) u32() uint32 {
	if !s.ok || len(s.src)-s.p < 4 {
		s.ok = false
		return 0
	}
	v := binary.LittleEndian.Uint32(s.src[s.p:])
	s.p += 4
	return v
}

// text8 takes a u8 length of at least minLen and that many bytes, aliased
// like the reader's spans (capacity capped, nil when empty). UTF-8 is left
// to the caller's one test over the whole body.
func (s *scan) text8(minLen int) []byte {
	if !s.ok || s.p >= len(s.src) {
		s.ok = false
		return nil
	}
	n := int(s.src[s.p])
	return s.take(s.p+1, n, n < minLen)
}

// text32 takes a u32 length and that many bytes.
func (s *scan) text32() []byte {
	n := s.u32()
	if !s.ok || uint64(n) > uint64(len(s.src)-s.p) {
		s.ok = false
		return nil
	}
	return s.take(s.p, int(n), false)
}

// take returns src[from:from+n] and moves past it; short fails.
func (s *scan) take(from, n int, short bool) []byte {
	end := from + n
	if short || end > len(s.src) {
		s.ok = false
		return nil
	}
	s.p = end
	if n == 0 {
		return nil
	}
	return s.src[from:end:end]
}

// done reports whether the scan accepted src[:p], nothing follows when
// whole is set, and every byte from the first text field's length on is
// ASCII (the fixed-width fields before it may hold any value).
func (s *scan) done(whole bool, text int) bool {
	return s.ok && (!whole || s.p == len(s.src)) && ascii(s.src[text:s.p])
}

// raw takes exactly n bytes of any value (a bind secret), aliased; n == 0
// takes nothing and returns nil.
func (s *scan) raw(n int) []byte {
	if n == 0 {
		return nil
	}
	return s.take(s.p, n, !s.ok)
}

// doneAround is done for a login body whose bytes info..secretEnd are a
// bind secret (raw bytes, left out of the ASCII test); with no secret
// (info == secretEnd) it is done itself, one test over the whole body.
func (s *scan) doneAround(whole bool, info, secretEnd int) bool {
	if info == secretEnd {
		return s.done(whole, offInfoText)
	}
	return s.ok && (!whole || s.p == len(s.src)) && ascii(s.src[offInfoText:info]) && ascii(s.src[secretEnd:s.p])
}

// asciiAround is the encoders' ASCII test of the text written from text
// on, leaving out the bind secret at from..to (none when from == to).
func asciiAround(b []byte, text, from, to int) bool {
	if from == to {
		return ascii(b[text:])
	}
	return ascii(b[text:from]) && ascii(b[to:])
}

// clientInfo reads the ClientVersionInfo prefix as its three fields: a
// struct of this size would be copied through memory between calls, the
// fields travel in registers.
func (s *scan) clientInfo() (Version, []byte, []byte) {
	return Version(s.u32()), s.text8(1), s.text8(1)
}
