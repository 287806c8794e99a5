package fuzz

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// checkAPIs holds a decoded message v, whose encoding is enc, to the
// methods every message type has besides AppendBinary: AppendBinary appends
// the same bytes, String names the type and never fails, and a body is
// Equal to its Clone and to itself.
func checkAPIs(t *testing.T, name string, v any, enc []byte) {
	t.Helper()
	type appender interface {
		AppendBinary([]byte) ([]byte, error)
	}
	if a, ok := v.(appender); ok {
		out, err := a.AppendBinary(append([]byte(nil), prefix...))
		if err != nil || !bytes.Equal(out[len(prefix):], enc) || string(out[:len(prefix)]) != prefix {
			t.Fatalf("%s: AppendBinary = %x, %v; AppendBinary wrote %x", name, out, err, enc)
		}
	}
	if s, ok := v.(interface{ String() string }); ok {
		if got := s.String(); !strings.HasPrefix(got, reflect.TypeOf(v).Name()+"{") {
			t.Fatalf("%s: String() = %q", name, got)
		}
	}
	rv := reflect.ValueOf(v)
	if eq := rv.MethodByName("Equal"); eq.IsValid() {
		clone := rv.MethodByName("Clone").Call(nil)[0]
		if !eq.Call([]reflect.Value{clone})[0].Bool() || !eq.Call([]reflect.Value{rv})[0].Bool() {
			t.Fatalf("%s: a value is not Equal to its Clone or to itself", name)
		}
	}
}

// checkReadFrame reads stream with codec.ReadFrame, one byte per Read
// and into a buffer that must grow, and holds every frame, error and
// stop to what FrameSize says of the same bytes. limit caps the frames
// read as a transport would.
func checkReadFrame(t *testing.T, stream []byte, limit int) {
	r := iotest.OneByteReader(bytes.NewReader(stream))
	rest := stream
	for {
		dst := make([]byte, 1, 2) // one byte of the caller's, kept
		dst[0] = 0xAA
		got, err := codec.ReadFrame(r, dst, limit)
		if len(got) == 0 || got[0] != 0xAA {
			t.Fatal("ReadFrame lost the bytes dst held")
		}
		got = got[1:]
		if len(rest) < codec.HeaderSize {
			// Only a stream that ends between frames is a clean io.EOF.
			want := io.ErrUnexpectedEOF
			if len(rest) == 0 {
				want = io.EOF
			}
			if err != want || len(got) != 0 {
				t.Fatalf("ReadFrame of %d bytes left: %d bytes, %v; want nothing and %v", len(rest), len(got), err, want)
			}
			return
		}
		size, serr := codec.FrameSize(rest)
		switch {
		case serr != nil:
			if !errors.Is(err, codec.ErrSize) || !bytes.Equal(got, rest[:codec.HeaderSize]) {
				t.Fatalf("unusable size: ReadFrame = %d bytes, %v; want the header and ErrSize", len(got), err)
			}
			return
		case size > limit:
			if !errors.Is(err, codec.ErrFrameTooLarge) || !bytes.Equal(got, rest[:codec.HeaderSize]) {
				t.Fatalf("size %d above %d: ReadFrame = %d bytes, %v; want the header and ErrFrameTooLarge", size, limit, len(got), err)
			}
			return
		case size > len(rest):
			// The header came, so the frame is cut: never a clean io.EOF.
			if err != io.ErrUnexpectedEOF || len(got) != 0 {
				t.Fatalf("size %d with %d bytes: ReadFrame = %d bytes, %v; want nothing and io.ErrUnexpectedEOF", size, len(rest), len(got), err)
			}
			return
		}
		if err != nil || !bytes.Equal(got, rest[:size]) {
			t.Fatalf("ReadFrame = %d bytes, %v; want the frame of %d bytes", len(got), err, size)
		}
		rest = rest[size:]
	}
}

// checkReadFrameReaders reads stream through readers that bend the
// io.Reader contract: empty Reads between the bytes (the frames must come
// out the same as through a plain reader), and a reader whose every Read
// returns the count the stream's first byte picks, -128..127, or -1,
// whatever it filled (an error or io.ErrNoProgress, never a panic), and
// one whose Read after the header times out.
func checkReadFrameReaders(t *testing.T, stream []byte) {
	want, wantErr := codec.ReadFrame(bytes.NewReader(stream), nil, codec.MaxFrameSize)
	got, err := codec.ReadFrame(&codectest.StutterReader{Src: stream}, nil, codec.MaxFrameSize)
	if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
		t.Fatalf("with empty Reads between the bytes: %d bytes, %v; a plain reader: %d bytes, %v", len(got), err, len(want), wantErr)
	}
	// The header arrives whole; the next Read fails with a timeout.
	if _, err := codec.ReadFrame(iotest.TimeoutReader(bytes.NewReader(stream)), nil, codec.MaxFrameSize); err == nil && wantErr == nil && len(want) > codec.HeaderSize {
		t.Fatalf("a body read that times out: no error")
	}
	if len(stream) == 0 {
		return
	}
	for _, n := range []int{int(int8(stream[0])), -1} {
		got, err = codec.ReadFrame(codectest.CountReader(n), []byte{0xAA}, codec.MaxFrameSize)
		switch {
		case n == 0 && !errors.Is(err, io.ErrNoProgress):
			t.Fatalf("a reader that returns 0 and no error: %v, want io.ErrNoProgress", err)
		case n < 0 && (err == nil || !bytes.Equal(got, []byte{0xAA})):
			t.Fatalf("a reader that returns %d: %d bytes, %v; want dst as it was and an error", n, len(got), err)
		}
	}
}
