package fuzz

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChunks: next reads back what appendChunk wrote, fixes the size field
// unless flags bit 0 is set, and never writes into its input.
func TestChunks(t *testing.T) {
	unitTest(t)
	frame := make([]byte, 300)
	short := []byte{1, 2, 3}
	in := appendChunk(appendChunk(appendChunk(nil, frame, 0), frame, 1), short, 2)
	in = append(in, 9, 0xff) // a tail too short to be a chunk
	orig := append([]byte(nil), in...)
	c := chunks{rest: in}

	got, flags, ok := c.next()
	require.True(t, ok, "first chunk")
	assert.Zero(t, flags, "first chunk")
	require.Len(t, got, 300, "first chunk")
	assert.Equal(t, uint32(300), le.Uint32(got[48:]), "first chunk: the size is fixed")

	got, flags, ok = c.next()
	require.True(t, ok, "second chunk")
	assert.Equal(t, byte(1), flags, "second chunk")
	require.Len(t, got, 300, "second chunk")
	assert.Zero(t, le.Uint32(got[48:]), "second chunk: the size is kept")

	got, flags, ok = c.next()
	require.True(t, ok, "third chunk")
	assert.Equal(t, byte(2), flags, "third chunk")
	assert.Equal(t, short, got, "third chunk")

	_, _, ok = c.next()
	assert.False(t, ok, "a chunk from a two-byte tail")
	assert.Equal(t, orig, in, "next wrote into its input")

	long := chunks{rest: []byte{0, 0xff, 0xff, 7, 7}}
	got, _, ok = long.next()
	require.True(t, ok, "a length past the end")
	assert.Equal(t, []byte{7, 7}, got, "a length past the end gives the rest")
}
