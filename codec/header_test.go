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
	// The bounds themselves are frames: a header alone, and the largest
	// frame (untouched past its header, so its pages are never written).
	require.NoError(t, codec.PutRequestHeader(make([]byte, codec.HeaderSize), h))
	require.NoError(t, codec.PutRequestHeader(make([]byte, codec.MaxFrameSize), h))
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
	got, err = codec.ReadFrameBody(r, &h, nil, len(big))
	require.NoError(t, err, "a frame of exactly the limit")
	assert.Equal(t, body, got)

	bad := bytes.Clone(frame)
	bad[48] = 1 // size 1: the frame cannot be delimited
	bad[49] = 0
	_, err = codec.ReadFrameHeader(bytes.NewReader(bad), &h)
	assert.ErrorIs(t, err, codec.ErrSize, "size 1")
}

// TestReadFrameBodyRoom: the body is appended after dst's bytes, into dst's
// own array when it has exactly the room (no allocation) and into a new one
// when it has less, whatever dst's length; a frame that is a header alone
// reads nothing more from the stream.
func TestReadFrameBodyRoom(t *testing.T) {
	ok := codec.ReplyHeader{Client: client5, Request: 3, Operation: codec.OperationNonReplicated}
	body := []byte("fifteen bytes..")
	frame, err := codec.AppendReplyFrame(nil, ok, body)
	require.NoError(t, err)
	var h codec.Header
	_, err = codec.ReadFrameHeader(bytes.NewReader(frame), &h)
	require.NoError(t, err)
	r := bytes.NewReader(frame[codec.HeaderSize:])
	for _, c := range []struct{ len, cap int }{{10, 20}, {10, 25}, {0, 14}, {0, 15}} {
		r.Reset(frame[codec.HeaderSize:])
		dst := append(make([]byte, 0, c.cap), bytes.Repeat([]byte("d"), c.len)...)
		got, err := codec.ReadFrameBody(r, &h, dst, codec.MaxFrameSize)
		require.NoError(t, err, "len %d cap %d", c.len, c.cap)
		assert.Equal(t, append(bytes.Repeat([]byte("d"), c.len), body...), got, "len %d cap %d", c.len, c.cap)
		if c.len+len(body) <= c.cap {
			assert.Equal(t, &dst[:1][0], &got[0], "len %d cap %d: dst had the room, so its array holds the body", c.len, c.cap)
		}
	}
	exact := make([]byte, 4, 4+len(body))
	allocs := testing.AllocsPerRun(100, func() {
		r.Reset(frame[codec.HeaderSize:])
		sinkBytes, sinkErr = codec.ReadFrameBody(r, &h, exact, codec.MaxFrameSize)
	})
	require.NoError(t, sinkErr)
	assert.Zero(t, allocs, "a dst with exactly the room")

	bare, err := codec.AppendReplyFrame(nil, ok, nil)
	require.NoError(t, err)
	_, err = codec.ReadFrameHeader(bytes.NewReader(bare), &h)
	require.NoError(t, err)
	var reads countingReader
	got, err := codec.ReadFrameBody(&reads, &h, []byte("x"), codec.MaxFrameSize)
	require.NoError(t, err)
	assert.Equal(t, []byte("x"), got)
	assert.Zero(t, reads.calls, "a frame without a body reads nothing past its header")
}

// countingReader counts its Reads and returns io.EOF to each.
type countingReader struct{ calls int }

func (c *countingReader) Read([]byte) (int, error) { c.calls++; return 0, io.EOF }
