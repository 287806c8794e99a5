package codec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// pingFrame is a valid NonReplicated request frame with body.
func pingFrame(t *testing.T, body []byte) []byte {
	t.Helper()
	h := codec.RequestHeader{Client: codec.Uint128From(0xA1), Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodePing}
	f, err := codec.AppendRequestFrame(nil, h, body)
	if err != nil {
		t.Fatalf("AppendRequestFrame: %v", err)
	}
	return f
}

// TestReadFrameClaimCostsNothing: a header announcing 64 MiB followed by
// nothing costs about what arrived, not what was claimed. The buffer
// ReadFrame grew is the capacity of what it returns (dst[:start] keeps
// it), so the test reads that, not a process-wide heap figure.
func TestReadFrameClaimCostsNothing(t *testing.T) {
	hdr := pingFrame(t, nil)
	binary.LittleEndian.PutUint32(hdr[48:], codec.MaxFrameSize)
	got, err := codec.ReadFrame(bytes.NewReader(hdr), nil, codec.MaxFrameSize)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("ReadFrame of a header alone: err = %v, want io.ErrUnexpectedEOF (the body never came)", err)
	}
	if len(got) != 0 {
		t.Errorf("ReadFrame returned %d bytes of a cut frame, want none", len(got))
	}
	if c := cap(got); c >= 1<<20 {
		t.Errorf("a 64 MiB claim grew the buffer to %d bytes, want under 1 MiB", c)
	}
}

// TestReadFrameCutIsUnexpectedEOF cuts a frame whose body spans several
// 64 KiB read chunks at every class of place: inside the header, at its
// end, inside the body, on and beside each chunk boundary, one byte short.
// Every cut is io.ErrUnexpectedEOF, whole or byte by byte; only a stream
// that ends before a frame's first byte is io.EOF.
func TestReadFrameCutIsUnexpectedEOF(t *testing.T) {
	const chunk = 64 << 10
	frame := pingFrame(t, bytes.Repeat([]byte{0xB0}, 3*chunk+17))
	cuts := []int{1, 47, 52, codec.HeaderSize - 1, codec.HeaderSize, codec.HeaderSize + 1, len(frame) - 1}
	for k := 1; k <= 3; k++ {
		at := codec.HeaderSize + k*chunk
		cuts = append(cuts, at-1, at, at+1)
	}
	readers := map[string]func([]byte) io.Reader{
		"whole":   func(b []byte) io.Reader { return bytes.NewReader(b) },
		"stutter": func(b []byte) io.Reader { return &codectest.StutterReader{Src: b} },
	}
	for name, open := range readers {
		for _, cut := range cuts {
			_, err := codec.ReadFrame(open(frame[:cut]), []byte("x"), codec.MaxFrameSize)
			require.ErrorIs(t, err, io.ErrUnexpectedEOF, "%s reader, frame cut at %d of %d", name, cut, len(frame))
			require.False(t, errors.Is(err, io.EOF), "cut at %d: %v matches io.EOF", cut, err)
		}
		got, err := codec.ReadFrame(open(frame), nil, codec.MaxFrameSize)
		require.NoError(t, err, "%s reader, whole frame", name)
		require.Equal(t, frame, got)
		_, err = codec.ReadFrame(open(nil), nil, codec.MaxFrameSize)
		require.ErrorIs(t, err, io.EOF, "%s reader, empty stream", name)
	}
}

func TestReadFrame(t *testing.T) {
	ping, withBody := pingFrame(t, nil), pingFrame(t, []byte("body"))
	r := bytes.NewReader(append(append([]byte(nil), ping...), withBody...))
	f, err := codec.ReadFrame(r, []byte("x"), codec.MaxFrameSize)
	if err != nil || !bytes.Equal(f, append([]byte("x"), ping...)) {
		t.Fatalf("first frame = %x, %v; want x then the ping", f, err)
	}
	f, err = codec.ReadFrame(r, nil, codec.MaxFrameSize)
	if err != nil || string(f[codec.HeaderSize:]) != "body" {
		t.Fatalf("second frame = %x, %v; want its body", f, err)
	}
	f, err = codec.ReadFrame(r, []byte("x"), codec.MaxFrameSize)
	if !errors.Is(err, io.EOF) || string(f) != "x" {
		t.Fatalf("at the end: %q, %v; want dst as it was and io.EOF", f, err)
	}

	bad := append([]byte(nil), ping...)
	binary.LittleEndian.PutUint32(bad[48:], 1)
	f, err = codec.ReadFrame(bytes.NewReader(bad), []byte("x"), codec.MaxFrameSize)
	var ce *codec.Error
	if !errors.Is(err, codec.ErrSize) || !errors.As(err, &ce) || ce.Offset != 48 {
		t.Fatalf("size 1: err = %v, want an ErrSize *Error at offset 48", err)
	}
	if !bytes.Equal(f, append([]byte("x"), bad...)) {
		t.Errorf("an unusable size returned %x, want dst with the header", f)
	}
}

// TestReadFrameLimit: a frame above the limit stops at its header, and the
// rest of the stream is not read.
func TestReadFrameLimit(t *testing.T) {
	frame := pingFrame(t, []byte("body"))
	r := bytes.NewReader(frame)
	f, err := codec.ReadFrame(r, nil, len(frame)-1)
	if !errors.Is(err, codec.ErrFrameTooLarge) {
		t.Fatalf("over the limit: err = %v, want ErrFrameTooLarge", err)
	}
	if !bytes.Equal(f, frame[:codec.HeaderSize]) || r.Len() != 4 {
		t.Errorf("over the limit: got %d bytes with %d unread, want the header alone and the body unread", len(f), r.Len())
	}
	f, err = codec.ReadFrame(bytes.NewReader(frame), nil, len(frame))
	if err != nil || !bytes.Equal(f, frame) {
		t.Errorf("a frame of exactly the limit: %x, %v; want it whole", f, err)
	}
}

// TestReadFrameDistrustsTheReader: a Read returning a count outside
// 0..len(p) is an error, not the panic io.ReadFull would raise, and a
// reader that never makes progress ends with io.ErrNoProgress; a slow
// reader that does is read to the end.
func TestReadFrameDistrustsTheReader(t *testing.T) {
	for _, n := range []int{-1, codec.HeaderSize + 1} {
		f, err := codec.ReadFrame(codectest.CountReader(n), []byte("x"), codec.MaxFrameSize)
		if err == nil || string(f) != "x" {
			t.Errorf("a Read returning %d: %q, %v; want dst as it was and an error", n, f, err)
		}
	}
	if _, err := codec.ReadFrame(codectest.CountReader(0), nil, codec.MaxFrameSize); !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("a Read that never returns a byte: err = %v, want io.ErrNoProgress", err)
	}
	frame := pingFrame(t, []byte("body"))
	f, err := codec.ReadFrame(&codectest.StutterReader{Src: frame}, nil, codec.MaxFrameSize)
	if err != nil || !bytes.Equal(f, frame) {
		t.Fatalf("a byte a Read with empty Reads between: %x, %v; want the frame", f, err)
	}
	short := &codectest.StutterReader{Src: frame[:100]}
	if _, err := codec.ReadFrame(short, nil, codec.MaxFrameSize); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("a header cut at 100 bytes: err = %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestReadFrameExactRoom: a dst with exactly the room for the frame is
// filled in place, with no allocation.
func TestReadFrameExactRoom(t *testing.T) {
	frame := pingFrame(t, []byte("body"))
	r := bytes.NewReader(frame)
	dst := make([]byte, 2, 2+len(frame))
	allocs := testing.AllocsPerRun(100, func() {
		r.Reset(frame)
		sinkBytes, sinkErr = codec.ReadFrame(r, dst, codec.MaxFrameSize)
	})
	if sinkErr != nil || !bytes.Equal(sinkBytes[2:], frame) || &sinkBytes[0] != &dst[0] {
		t.Fatalf("ReadFrame into a dst with exactly the room: %v; want the frame after dst's bytes, in dst's array", sinkErr)
	}
	if allocs != 0 {
		t.Errorf("ReadFrame into a dst with exactly the room: %v allocations, want 0", allocs)
	}
}

// TestReadFrameCountAfterProgress: a Read that claims more than it was
// given is refused after bytes have arrived too, not only on the first
// Read, where the bound is the whole buffer.
func TestReadFrameCountAfterProgress(t *testing.T) {
	frame := pingFrame(t, []byte("body"))
	for _, at := range []int{1, 100, codec.HeaderSize + 1} {
		r := &overclaimReader{src: frame, good: at}
		f, err := codec.ReadFrame(r, []byte("x"), codec.MaxFrameSize)
		if err == nil || string(f) != "x" {
			t.Errorf("a Read claiming one byte more than it was given, after %d good bytes: %q, %v; want dst as it was and an error", at, f, err)
		}
	}
}

// overclaimReader gives the first good bytes of src one Read at a time,
// then claims a count one more than the buffer it is given.
type overclaimReader struct {
	src  []byte
	good int
}

func (o *overclaimReader) Read(p []byte) (int, error) {
	if o.good == 0 {
		return len(p) + 1, nil
	}
	n := copy(p[:1], o.src)
	o.src, o.good = o.src[n:], o.good-n
	return n, nil
}
