package codec_test

import (
	"bytes"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestPeekCommand returns byte 60 whatever it is, once 256 bytes are there.
func TestPeekCommand(t *testing.T) {
	for n := range 256 {
		_, err := codec.PeekCommand(make([]byte, n))
		wantErr(t, err, codec.ErrTruncated, "header", n)
	}
	for c := range 256 {
		got, err := codec.PeekCommand(applyRules(reqPingHex, breakRule{mutate: setByte(60, byte(c))}))
		if err != nil || got != codec.Command(c) {
			t.Fatalf("PeekCommand with byte 60 = %d: %v, %v", c, got, err)
		}
	}
}

// TestFrameSize reads and bounds the size field; nothing else is checked.
func TestFrameSize(t *testing.T) {
	for n := range 256 {
		_, err := codec.FrameSize(make([]byte, n))
		wantErr(t, err, codec.ErrTruncated, "header", n)
	}
	for _, c := range []struct {
		size uint64
		ok   bool
	}{{0, false}, {255, false}, {256, true}, {282, true}, {codec.MaxFrameSize, true}, {codec.MaxFrameSize + 1, false}, {1<<32 - 1, false}} {
		h := make([]byte, 256) // command 0: FrameSize does not care
		setLE(48, 4, c.size)(h)
		got, err := codec.FrameSize(h)
		if !c.ok {
			wantErr(t, err, codec.ErrSize, "size", 48)
			if got != 0 {
				t.Fatalf("size %d: FrameSize = %d on error, want 0", c.size, got)
			}
			continue
		}
		if err != nil || got != int(c.size) {
			t.Fatalf("size %d: FrameSize = %d, %v", c.size, got, err)
		}
	}
}

// TestAppendFrameErrors: the frame builders validate first and leave dst
// unchanged on error.
func TestAppendFrameErrors(t *testing.T) {
	huge := make([]byte, codec.MaxFrameSize-codec.HeaderSize+1) // one byte over the cap
	dst := []byte{9}
	check := func(name string, out []byte, err error, kind error, field string, off int) {
		t.Helper()
		wantErr(t, err, kind, field, off)
		if !bytes.Equal(out, []byte{9}) {
			t.Fatalf("%s: dst after an error = %x, want 09", name, out)
		}
	}
	out, err := codec.AppendRequestFrame(dst, reqPing, huge)
	check("request, body over the cap", out, err, codec.ErrSize, "size", 48)
	out, err = codec.AppendRequestFrame(dst, codec.RequestHeader{Operation: codec.OperationRegister}, nil)
	check("request, client 0", out, err, codec.ErrField, "client", 128)
	out, err = codec.AppendReplyFrame(dst, repOK, huge)
	check("reply, body over the cap", out, err, codec.ErrSize, "size", 48)
	out, err = codec.AppendReplyFrame(dst, repDeny, []byte{1})
	check("denial with a body", out, err, codec.ErrField, "size", 48)
	out, err = codec.AppendLoginReplyFrame(dst, repOK, codec.LoginReply{ServerVersion: []byte("v")})
	check("login reply, session 0", out, err, codec.ErrField, "session", 4)
	out, err = codec.AppendLoginReplyFrame(dst, repDeny, replyBody)
	check("login reply on a denial", out, err, codec.ErrField, "size", 48)
	out, err = codec.AppendLoginReplyFrame(dst, codec.ReplyHeader{Operation: 99}, replyBody)
	check("login reply, unknown operation", out, err, codec.ErrField, "operation", 208)

	// The largest body fits exactly.
	out, err = codec.AppendRequestFrame(nil, reqPing, huge[1:])
	if err != nil {
		t.Fatalf("the largest frame: %v", err)
	}
	size, err := codec.FrameSize(out)
	if err != nil || size != codec.MaxFrameSize || len(out) != codec.MaxFrameSize {
		t.Fatalf("the largest frame: size %d, length %d, %v; want %d", size, len(out), err, codec.MaxFrameSize)
	}
}
