package fuzz

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
)

// FuzzSplitResult checks SplitResult against the rule of wire reference
// section 4, restated here.
func FuzzSplitResult(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, body []byte) {
		payload, code, err := codec.SplitResult(body)
		wantPayload, wantCode, truncated := splitModel(body)
		if truncated {
			ce := checkErr(t, err, len(body))
			if ce.Err != codec.ErrTruncated || payload != nil || code != 0 {
				t.Fatalf("SplitResult = %x, %d, %v; want ErrTruncated", payload, code, err)
			}
			return
		}
		if err != nil || code != codec.Status(wantCode) || !bytes.Equal(payload, wantPayload) {
			t.Fatalf("SplitResult = %x, %d, %v; want %x, %d", payload, code, err, wantPayload, wantCode)
		}
		checkAlias(t, "payload", body, payload)
	})
}

// splitModel is the result-section rule written the slow way.
func splitModel(body []byte) (payload []byte, code uint32, truncated bool) {
	if len(body) < 4 {
		return nil, 0, true
	}
	count := uint64(binary.LittleEndian.Uint32(body))
	if uint64(len(body)) < 4+8*count {
		return nil, 0, true
	}
	if count >= 1 && binary.LittleEndian.Uint32(body[8:]) != 0 {
		return nil, binary.LittleEndian.Uint32(body[8:]), false
	}
	return nilIfEmpty(body[4+8*count:]), 0, false
}

// FuzzFrame reads the input as a stream of frames the way a connection
// does, FrameSize then PeekCommand then the decoder the command names, and
// checks that the framing helpers agree with the decoders and that a
// decoded frame is rebuilt exactly by the Append*Frame helpers.
func FuzzFrame(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, stream []byte) {
		// Read as a transport would, without a cap and with one that
		// only a frame with no body passes.
		checkReadFrame(t, stream, codec.MaxFrameSize)
		checkReadFrame(t, stream, codec.HeaderSize)
		checkReadFrameReaders(t, stream)
		for len(stream) > 0 {
			size, ok := checkFraming(t, stream)
			if !ok || size > len(stream) {
				return
			}
			checkFrame(t, stream[:size])
			stream = stream[size:]
		}
	})
}

// checkFraming checks PeekCommand and FrameSize on the head of a stream
// and returns the frame size when it is usable.
func checkFraming(t *testing.T, src []byte) (int, bool) {
	cmd, cerr := codec.PeekCommand(src)
	size, serr := codec.FrameSize(src)
	if len(src) < codec.HeaderSize {
		for _, err := range []error{cerr, serr} {
			if ce := checkErr(t, err, len(src)); ce.Err != codec.ErrTruncated {
				t.Fatalf("short input: %v, want ErrTruncated", err)
			}
		}
		return 0, false
	}
	if cerr != nil || cmd != codec.Command(src[60]) {
		t.Fatalf("PeekCommand = %v, %v; byte 60 is %d", cmd, cerr, src[60])
	}
	checkEnums(t, src[:codec.HeaderSize])
	raw := binary.LittleEndian.Uint32(src[48:])
	if raw < codec.HeaderSize || raw > codec.MaxFrameSize {
		if ce := checkErr(t, serr, codec.HeaderSize); ce.Err != codec.ErrSize {
			t.Fatalf("size %d: FrameSize error %v, want ErrSize", raw, serr)
		}
		return 0, false
	}
	if serr != nil || uint32(size) != raw {
		t.Fatalf("FrameSize = %d, %v; size field is %d", size, serr, raw)
	}
	return size, true
}

// checkFrame dispatches one whole frame on its command byte.
func checkFrame(t *testing.T, frame []byte) {
	checkLayout(t, frame)
	body := frame[codec.HeaderSize:]
	switch codec.Command(frame[60]) {
	case codec.CommandRequest:
		if h, err := codec.DecodeRequestHeader(frame); err == nil {
			out, err := codec.AppendRequestFrame(nil, h, body)
			if err != nil || !bytes.Equal(out, frame) {
				t.Fatalf("AppendRequestFrame does not rebuild the frame: %v", err)
			}
			checkAPIs(t, "RequestHeader", h, frame[:codec.HeaderSize])
		}
	case codec.CommandReply:
		if h, err := codec.DecodeReplyHeader(frame); err == nil {
			checkReplyFrame(t, h, frame)
			checkAPIs(t, "ReplyHeader", h, frame[:codec.HeaderSize])
		}
	case codec.CommandEviction:
		e, err := codec.DecodeEviction(frame)
		if err == nil && len(frame) != codec.HeaderSize {
			t.Fatalf("an eviction of size %d decoded", len(frame))
		}
		if err == nil {
			checkAPIs(t, "Eviction", e, frame)
		}
	default:
		checkNoHeaderDecodes(t, frame)
	}
}

// checkReplyFrame: AppendReplyFrame rebuilds every decoded reply, and
// AppendLoginReplyFrame every successful login reply.
func checkReplyFrame(t *testing.T, h codec.ReplyHeader, frame []byte) {
	body := frame[codec.HeaderSize:]
	out, err := codec.AppendReplyFrame(nil, h, body)
	if err != nil || !bytes.Equal(out, frame) {
		t.Fatalf("AppendReplyFrame does not rebuild the frame: %v", err)
	}
	if h.Status != codec.StatusOK || len(body) < 4 || binary.LittleEndian.Uint32(body) != 0 {
		return
	}
	payload, _, err := codec.SplitResult(body)
	if err != nil {
		t.Fatalf("empty result section fails to split: %v", err)
	}
	lr, err := codec.ParseLoginReply(payload)
	if err != nil {
		return
	}
	out, err = codec.AppendLoginReplyFrame(nil, h, lr)
	if err != nil || !bytes.Equal(out, frame) {
		t.Fatalf("AppendLoginReplyFrame does not rebuild the frame: %v", err)
	}
}

// checkNoHeaderDecodes: a frame of any other kind is ErrCommand to every
// header decoder.
func checkNoHeaderDecodes(t *testing.T, frame []byte) {
	_, e1 := codec.DecodeRequestHeader(frame)
	_, e2 := codec.DecodeReplyHeader(frame)
	_, e3 := codec.DecodeEviction(frame)
	for _, err := range []error{e1, e2, e3} {
		if ce := checkErr(t, err, codec.HeaderSize); ce.Err != codec.ErrCommand {
			t.Fatalf("command %d: %v, want ErrCommand", frame[60], err)
		}
	}
}

// checkLayout holds the exported layout table to the decoders: the fields
// of a header kind tile bytes 0..256, and in a header that decodes every
// reserved field is zero and a NonReplicated code sits where
// layout.RequestCode says. Other commands have no layout.
func checkLayout(t *testing.T, frame []byte) {
	cmd := codec.Command(frame[60])
	fields := layout.Header(cmd)
	var err error
	carriesCode := false
	switch cmd {
	case codec.CommandRequest:
		var h codec.RequestHeader
		h, err = codec.DecodeRequestHeader(frame)
		code := layout.RequestCode()
		carriesCode = h.Operation == codec.OperationNonReplicated
		if err == nil && carriesCode && binary.LittleEndian.Uint32(frame[code.Offset:code.End()]) != uint32(h.Code) {
			t.Fatalf("code at %d..%d is not the decoded %d", code.Offset, code.End(), h.Code)
		}
	case codec.CommandReply:
		_, err = codec.DecodeReplyHeader(frame)
	case codec.CommandEviction:
		_, err = codec.DecodeEviction(frame)
	default:
		if fields != nil {
			t.Fatalf("command %d has a layout", cmd)
		}
		return
	}
	at := 0
	for _, f := range fields {
		if f.Offset != at || f.Size < 1 || strings.HasPrefix(f.Kind.String(), "UNKNOWN") {
			t.Fatalf("%v layout: field %q at %d (size %d, kind %v), want offset %d", cmd, f.Name, f.Offset, f.Size, f.Kind, at)
		}
		at = f.End()
		from := f.Offset
		if carriesCode && from == layout.RequestCode().Offset {
			from = layout.RequestCode().End() // the code overlays the reserved area's start
		}
		if err == nil && f.Reserved && strings.Trim(string(frame[from:f.End()]), "\x00") != "" {
			t.Fatalf("%v decoded with a non-zero reserved field %q", cmd, f.Name)
		}
	}
	if at != codec.HeaderSize {
		t.Fatalf("%v layout ends at %d", cmd, at)
	}
}
