package lifecycle_test

import (
	"bytes"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestSequencerStampBytes: the stamp path writes, byte for byte, what
// codec.PutRequestHeader writes for the header WIRE.md section 7, point 9
// gives each request, whichever path stamped the one before (the
// Sequencer's scratch header keeps nothing of an earlier request: no code
// of a NonReplicated one on a metadata one, no number on a login, no size
// of StampHeader's), over a frame whose header bytes were dirty.
func TestSequencerStampBytes(t *testing.T) {
	s, err := lifecycle.NewSequencer(id(7), 3, 5)
	require.NoError(t, err)
	steps := []struct {
		code      codec.Code
		apart     bool // StampHeader into a header array, with a 9-byte body
		want      codec.RequestHeader
		bindAfter bool
	}{
		{code: codec.CodePing, want: codec.RequestHeader{Operation: codec.OperationNonReplicated, Request: 5, Session: 3, Code: codec.CodePing}},
		{code: 202, apart: true, want: codec.RequestHeader{Operation: codec.OperationCreateStream, Request: 5, Session: 3}},
		{code: 12, apart: true, want: codec.RequestHeader{Operation: codec.OperationNonReplicated, Request: 6, Session: 3, Code: 12}},
		{code: 101, want: codec.RequestHeader{Operation: codec.OperationSendMessages, Request: 6, Session: 3}},
		{code: 40, want: codec.RequestHeader{Operation: codec.OperationRegister}, bindAfter: true},
		{code: 503, apart: true, want: codec.RequestHeader{Operation: codec.OperationDeleteSegments, Request: 6, Session: 9}},
		{code: 45, apart: true, want: codec.RequestHeader{Operation: codec.OperationRegister}, bindAfter: true},
		{code: 300, want: codec.RequestHeader{Operation: codec.OperationNonReplicated, Request: 7, Session: 9, Code: 300}},
	}
	for i, st := range steps {
		want := st.want
		want.Client = id(7)
		var got []byte
		var req uint64
		if st.apart {
			var hdr codec.Header
			copy(hdr[:], bytes.Repeat([]byte{0xff}, codec.HeaderSize))
			req, err = s.StampHeader(&hdr, st.code, 9)
			got = hdr[:]
			want.Size = codec.HeaderSize + 9
		} else {
			frame := append(bytes.Repeat([]byte{0xff}, codec.HeaderSize), "body"...)
			req, err = s.Stamp(frame, st.code)
			got = frame[:codec.HeaderSize]
			assert.Equal(t, "body", string(frame[codec.HeaderSize:]), "step %d: the body is untouched", i)
			want.Size = codec.HeaderSize + 4
		}
		require.NoError(t, err, "step %d (code %d)", i, st.code)
		assert.Equal(t, want.Request, req, "step %d", i)
		exp := make([]byte, want.Size) // PutRequestHeader takes the size from the frame
		require.NoError(t, codec.PutRequestHeader(exp, want))
		assert.Equal(t, exp[:codec.HeaderSize], got, "step %d (code %d): header bytes", i, st.code)
		_, err = s.Receive(replyHeader(t, id(7), req, want.Operation, codec.StatusOK), nil)
		require.NoError(t, err, "step %d", i)
		if st.bindAfter {
			require.NoError(t, s.Bind(9))
		}
	}
}

// TestSequencerStampFrameLength: a frame shorter than a header or longer
// than 64 MiB is the codec's own error, and neither the frame nor the
// Sequencer changes.
func TestSequencerStampFrameLength(t *testing.T) {
	s, err := lifecycle.NewSequencer(id(7), 3, 5)
	require.NoError(t, err)
	short := make([]byte, codec.HeaderSize-1)
	_, err = s.Stamp(short, codec.CodePing)
	require.ErrorIs(t, err, codec.ErrTruncated)
	assert.Equal(t, make([]byte, codec.HeaderSize-1), short)

	long := make([]byte, codec.MaxFrameSize+1)
	_, err = s.Stamp(long, 202)
	require.ErrorIs(t, err, codec.ErrSize)
	assert.Equal(t, make([]byte, codec.HeaderSize), long[:codec.HeaderSize], "nothing written")
	assert.Equal(t, lifecycle.SequencerState{Client: id(7), Session: 3, Next: 5}, s.State())

	max := make([]byte, codec.MaxFrameSize)
	req, err := s.Stamp(max, 202)
	require.NoError(t, err)
	assert.Equal(t, uint64(5), req)
	assert.Equal(t, uint32(codec.MaxFrameSize), (*codec.Header)(max).Size())
}
