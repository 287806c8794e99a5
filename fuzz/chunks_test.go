package fuzz

import "github.com/iggywire/iggywire/codec"

// chunks cuts a fuzz input into frames for the lifecycle targets. Each
// frame is written as [flags u8][len u16 LE][len bytes]; a length past the
// end takes what is left. Unless flags bit 0 is set, a frame of 256 bytes
// or more gets its size field set to its length, so that the fuzzer spends
// its time on what the state machines do with well-delimited frames and
// still reaches the size checks when it sets the bit.
type chunks struct{ rest []byte }

// next returns the next frame and its flags; ok is false at the end.
func (c *chunks) next() (frame []byte, flags byte, ok bool) {
	if len(c.rest) < 3 {
		return nil, 0, false
	}
	flags = c.rest[0]
	n := int(le.Uint16(c.rest[1:]))
	c.rest = c.rest[3:]
	n = min(n, len(c.rest))
	frame = append([]byte(nil), c.rest[:n]...) // a copy: the fixes below must not touch the input
	c.rest = c.rest[n:]
	if flags&1 == 0 && len(frame) >= codec.HeaderSize {
		le.PutUint32(frame[48:], uint32(len(frame)))
	}
	return frame, flags, true
}

// appendChunk is the inverse of next, for tests and seeds: it writes frame
// with the flags that keep its size field as it is.
func appendChunk(dst, frame []byte, flags byte) []byte {
	dst = append(dst, flags)
	dst = le.AppendUint16(dst, uint16(len(frame)))
	return append(dst, frame...)
}
