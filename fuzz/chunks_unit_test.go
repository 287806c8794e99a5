package fuzz

import (
	"bytes"
	"testing"
)

// TestChunks: next reads back what appendChunk wrote, fixes the size field
// unless flags bit 0 is set, and never writes into its input.
func TestChunks(t *testing.T) {
	frame := make([]byte, 300)
	short := []byte{1, 2, 3}
	in := appendChunk(appendChunk(appendChunk(nil, frame, 0), frame, 1), short, 2)
	in = append(in, 9, 0xff) // a tail too short to be a chunk
	orig := append([]byte(nil), in...)
	c := chunks{rest: in}

	got, flags, ok := c.next()
	if !ok || flags != 0 || len(got) != 300 || le.Uint32(got[48:]) != 300 {
		t.Fatalf("first chunk: ok %v flags %d len %d size %d", ok, flags, len(got), le.Uint32(got[48:]))
	}
	got, flags, ok = c.next()
	if !ok || flags != 1 || le.Uint32(got[48:]) != 0 {
		t.Fatalf("second chunk: ok %v flags %d size %d; want the size kept", ok, flags, le.Uint32(got[48:]))
	}
	got, flags, ok = c.next()
	if !ok || flags != 2 || !bytes.Equal(got, short) {
		t.Fatalf("third chunk: %v %d %x", ok, flags, got)
	}
	if _, _, ok := c.next(); ok {
		t.Fatal("read a chunk from a two-byte tail")
	}
	if !bytes.Equal(in, orig) {
		t.Fatal("next wrote into its input")
	}
	long := chunks{rest: []byte{0, 0xff, 0xff, 7, 7}}
	if got, _, ok := long.next(); !ok || !bytes.Equal(got, []byte{7, 7}) {
		t.Fatalf("a length past the end gives %x, %v; want the rest", got, ok)
	}
}
