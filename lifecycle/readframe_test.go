package lifecycle_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestReadFrameClaimCostsNothing: a header announcing 64 MiB followed by
// nothing costs about what arrived, not what was claimed.
func TestReadFrameClaimCostsNothing(t *testing.T) {
	hdr := nonReplicated(t, clientA, 1, codec.CodePing)
	binary.LittleEndian.PutUint32(hdr[48:], codec.MaxFrameSize)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := lifecycle.ReadFrame(bytes.NewReader(hdr), nil, codec.MaxFrameSize)
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, io.EOF, "the body never came")
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "bytes allocated for a 64 MiB claim")
}

func TestReadFrame(t *testing.T) {
	ping := nonReplicated(t, clientA, 1, codec.CodePing)
	withBody := request(t, codec.RequestHeader{Client: clientA, Request: 1, Operation: codec.OperationNonReplicated, Code: 7}, []byte("body"))
	var stream []byte
	stream = append(stream, ping...)
	stream = append(stream, withBody...)
	r := bytes.NewReader(stream)
	f, err := lifecycle.ReadFrame(r, []byte("x"), codec.MaxFrameSize)
	require.NoError(t, err)
	assert.Equal(t, append([]byte("x"), ping...), f)
	f, err = lifecycle.ReadFrame(r, nil, codec.MaxFrameSize)
	require.NoError(t, err)
	assert.Equal(t, "body", string(f[256:]))
	f, err = lifecycle.ReadFrame(r, []byte("x"), codec.MaxFrameSize)
	require.ErrorIs(t, err, io.EOF)
	assert.Equal(t, []byte("x"), f, "a read error leaves dst as it was")

	bad := append([]byte(nil), ping...)
	binary.LittleEndian.PutUint32(bad[48:], 1)
	f, err = lifecycle.ReadFrame(bytes.NewReader(bad), []byte("x"), codec.MaxFrameSize)
	require.ErrorIs(t, err, lifecycle.ErrFrameSize)
	assert.Equal(t, append([]byte("x"), bad...), f, "an unusable size returns its header")
}

// TestReadFrameCap: a frame above the cap stops at its header, and the
// rest of the stream is not read.
func TestReadFrameCap(t *testing.T) {
	frame := request(t, codec.RequestHeader{Client: clientA, Request: 1, Operation: codec.OperationNonReplicated, Code: 7}, []byte("body"))
	r := bytes.NewReader(frame)
	f, err := lifecycle.ReadFrame(r, nil, len(frame)-1)
	require.ErrorIs(t, err, lifecycle.ErrFrameTooLarge)
	assert.Equal(t, frame[:codec.HeaderSize], f, "the header alone")
	assert.Equal(t, 4, r.Len(), "the body stays unread")

	f, err = lifecycle.ReadFrame(bytes.NewReader(frame), nil, len(frame))
	require.NoError(t, err, "a frame of exactly the cap is read")
	assert.Equal(t, frame, f)
}
