package codec_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestHeaderReadsWhatDecodeDoes: on the goldens of each kind, every field
// a kind's view reads is the decoded header's, whatever byte 60 says (a
// reader that expects a kind reads it); a short input is refused by its
// length alone.
func TestHeaderReadsWhatDecodeDoes(t *testing.T) {
	h, err := codec.HeaderOf(reqPingHex)
	require.NoError(t, err)
	assert.Equal(t, codec.CommandRequest, h.Command())
	assert.Equal(t, reqPing.Size, h.Size())
	q := h.Request()
	assert.Equal(t, reqPing.Client, q.Client())
	assert.Equal(t, reqPing.Request, q.Request())
	assert.Equal(t, reqPing.Operation, q.Operation())
	assert.Equal(t, reqPing.Session, q.Session())
	assert.Equal(t, reqPing.Code, q.Code())

	h, err = codec.HeaderOf(repDenyHex)
	require.NoError(t, err)
	r := h.Reply()
	assert.Equal(t, repDeny.Client, r.Client())
	assert.Equal(t, repDeny.Request, r.Request())
	assert.Equal(t, repDeny.Operation, r.Operation())
	assert.Equal(t, repDeny.Status, r.Status())

	h, err = codec.HeaderOf(ev14Hex)
	require.NoError(t, err)
	e := h.Eviction()
	assert.Equal(t, ev14.Client, e.Client())
	assert.Equal(t, ev14.Reason, e.Reason())
	assert.Equal(t, ev14.Window, e.Window())

	// a header that breaks rules still reads: a denial with a body, and one
	// whose command byte is not set
	bad := applyRules(repDenyHex, breakRule{mutate: setLE(48, 4, 300)}, breakRule{mutate: setByte(60, 0)})
	h = (*codec.Header)(bad)
	assert.Equal(t, codec.StatusUnauthenticated, h.Reply().Status())
	assert.Equal(t, codec.CommandReserved, h.Command())
	n, err := h.FrameSize()
	require.NoError(t, err)
	assert.Equal(t, 300, n)
	h = (*codec.Header)(applyRules(repDenyHex, breakRule{mutate: setLE(48, 4, 255)}))
	_, err = h.FrameSize()
	assert.ErrorIs(t, err, codec.ErrSize)
	assert.Equal(t, uint32(255), h.Size())

	_, err = codec.HeaderOf(repDenyHex[:255])
	var ce *codec.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, codec.FieldHeader, ce.Field)
	assert.Equal(t, 255, ce.Offset)
	assert.Zero(t, testing.AllocsPerRun(100, func() { _, sinkErr = codec.HeaderOf(repDenyHex) }))
}

// TestPutRequestHeader: the header is stamped over the first 256 bytes, the
// payload after it is untouched, and the frame is what AppendRequestFrame
// builds; a short, oversized or invalid header leaves the frame unchanged.
func TestPutRequestHeader(t *testing.T) {
	payload := []byte("payload in place")
	frame := append(make([]byte, codec.HeaderSize), payload...)
	h := codec.RequestHeader{Client: client5, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodePing}
	require.NoError(t, codec.PutRequestHeader(frame, h))
	want, err := codec.AppendRequestFrame(nil, h, payload)
	require.NoError(t, err)
	assert.Equal(t, want, frame)
	assert.Zero(t, testing.AllocsPerRun(100, func() { sinkErr = codec.PutRequestHeader(frame, h) }))

	before := bytes.Clone(frame)
	bad := h
	bad.Client = codec.Uint128{}
	assert.ErrorIs(t, codec.PutRequestHeader(frame, bad), codec.ErrField)
	assert.Equal(t, before, frame, "an invalid header writes nothing")
	assert.ErrorIs(t, codec.PutRequestHeader(frame[:255], h), codec.ErrTruncated)
	var ce *codec.Error
	require.ErrorAs(t, codec.PutRequestHeader(make([]byte, codec.MaxFrameSize+1), h), &ce)
	assert.Equal(t, codec.FieldSize, ce.Field)
	assert.ErrorIs(t, ce, codec.ErrSize)
}

// TestReadFrameHeaderBody: a frame read header then body is the frame; a
// stream cut anywhere inside it is io.ErrUnexpectedEOF, an empty one io.EOF;
// a size above the limit reads and allocates nothing of the body.
func TestReadFrameHeaderBody(t *testing.T) {
	frame, err := codec.AppendReplyFrame(nil, repDeny, nil)
	require.NoError(t, err)
	ok := codec.ReplyHeader{Client: client5, Request: 3, Operation: codec.OperationNonReplicated}
	body := bytes.Repeat([]byte{7}, 70<<10)
	big, err := codec.AppendReplyFrame(nil, ok, body)
	require.NoError(t, err)
	stream := append(bytes.Clone(frame), big...)
	r := bytes.NewReader(stream)
	var h codec.Header
	for _, want := range [][]byte{frame, big} {
		size, err := codec.ReadFrameHeader(r, &h)
		require.NoError(t, err)
		assert.Equal(t, len(want), size)
		got, err := codec.ReadFrameBody(r, &h, []byte("x"), codec.MaxFrameSize)
		require.NoError(t, err)
		assert.Equal(t, append([]byte("x"), want[codec.HeaderSize:]...), got)
	}
	_, err = codec.ReadFrameHeader(r, &h)
	assert.Equal(t, io.EOF, err, "between frames")

	for _, cut := range []int{1, 100, 255, 256, 257, 64<<10 + 256, 64<<10 + 257, len(big) - 1} {
		r := bytes.NewReader(big[:cut])
		_, err := codec.ReadFrameHeader(r, &h)
		if err == nil {
			dst := []byte("kept")
			var got []byte
			got, err = codec.ReadFrameBody(r, &h, dst, codec.MaxFrameSize)
			assert.Equal(t, []byte("kept"), got, "cut at %d: dst's length is unchanged", cut)
		}
		assert.Equal(t, io.ErrUnexpectedEOF, err, "cut at %d", cut)
	}

	r = bytes.NewReader(big)
	_, err = codec.ReadFrameHeader(r, &h)
	require.NoError(t, err)
	got, err := codec.ReadFrameBody(r, &h, nil, len(big)-1)
	assert.ErrorIs(t, err, codec.ErrFrameTooLarge)
	assert.Nil(t, got)
	assert.Equal(t, len(big)-codec.HeaderSize, r.Len(), "no byte of the body was read")

	bad := bytes.Clone(frame)
	bad[48] = 1 // size 1: the frame cannot be delimited
	bad[49] = 0
	_, err = codec.ReadFrameHeader(bytes.NewReader(bad), &h)
	assert.ErrorIs(t, err, codec.ErrSize, "size 1")
}
