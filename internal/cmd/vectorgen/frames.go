package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"

	"github.com/iggywire/iggywire/codec"
)

// A header case's input is the header, and a decoder of headers needs no
// more; an SDK's decoder takes frames, a header and the size-256 body bytes
// its size announces, and waits for those that are missing. Frame is the
// same case as a whole frame, for decoders that take frames.
type Frame struct {
	// Input is the frame's first bytes as hex, and Fill the number of
	// zero bytes after them: a body of zeros is not written out, so that a
	// 64 MiB frame costs the file nothing. Length is Input's bytes plus
	// Fill: the size the header announces, or, when the reader cannot use
	// the size (a short header, a size outside 256..64 MiB), just the bytes
	// it reads before it stops.
	Input  string `json:"input"`
	Fill   int    `json:"fill"`
	Length int    `json:"length"`
	// Body says what follows the header: "none" (nothing), "zeros",
	// "login_reply" (an empty result section and a login reply, on a
	// Register reply with status 0 whose size leaves room for one), or
	// "input" (the case's own bytes after its header).
	Body string `json:"body"`
	// Expect is the verdict of reading the whole frame: the header case's,
	// except that a size outside 256..64 MiB is the frame reader's rule
	// (frame.size), found before the header's kind is looked at. It never
	// holds fields: they are the case's expect.fields.
	Expect *Expect `json:"expect"`
}

// isHeaderKind reports whether the cases of kind also come as frames.
func isHeaderKind(kind string) bool {
	return kind == KindRequest || kind == KindReply || kind == KindEviction
}

// frameOf builds the frame of a header case from its input: the bytes a
// frame reader takes before it decodes or refuses the header, and the
// model of its verdict (Frame.Expect says why a size outside 256..64 MiB
// is frame.size whatever else the header breaks).
func frameOf(c *Case) *Frame {
	in, _ := hex.DecodeString(c.input())
	if len(in) < codec.HeaderSize {
		return newFrame(in, 0, "none", c.Expect)
	}
	size := int(le.Uint32(in[48:]))
	if size < codec.HeaderSize || size > maxFrame {
		e := *c.Expect
		e.Verdict, e.Sentinel, e.Field, e.Offset, e.Rule, e.Convention = "error", sentinelOf(codec.ErrSize), "size", intp(48), "frame.size", "field"
		return newFrame(in[:codec.HeaderSize], 0, "none", &e)
	}
	n := size - codec.HeaderSize
	switch {
	case len(in) > codec.HeaderSize:
		body := in[codec.HeaderSize:min(len(in), size)]
		return newFrame(in[:codec.HeaderSize+len(body)], n-len(body), "input", c.Expect)
	case n == 0:
		return newFrame(in, 0, "none", c.Expect)
	case c.Kind == KindReply && in[208] == opRegister && le.Uint32(in[216:]) == 0 && n >= 22 && n <= 276:
		// 4 (result section) + 17 + server_version of 1..255 bytes.
		return newFrame(cat(in, u32b(0), replyBody(1, 42, 0x2C00, repeat("9", n-21))), 0, "login_reply", c.Expect)
	}
	return newFrame(in, n, "zeros", c.Expect)
}

// newFrame is a frame of head and fill zeros whose verdict is e's without
// its fields.
func newFrame(head []byte, fill int, body string, e *Expect) *Frame {
	fe := *e
	fe.Fields, fe.Consumed = nil, nil
	return &Frame{Input: hex.EncodeToString(head), Fill: fill, Length: len(head) + fill, Body: body, Expect: &fe}
}

// addFrames gives every header case its frame and the frame's verdict.
func (g *gen) addFrames() {
	for i := range g.cases {
		c := &g.cases[i]
		if !isHeaderKind(c.Kind) {
			continue
		}
		c.Frame = frameOf(c)
		if c.Frame.Body == "login_reply" {
			if e, err := observeLoginFrame(c.Frame.bytes()); err != nil || e.Verdict != "ok" {
				g.failf("%s: the frame's login reply body does not read as one: %v", c.Name, err)
			}
		}
	}
}

// bytes is the whole frame, fill included.
func (f *Frame) bytes() []byte {
	b, _ := hex.DecodeString(f.Input)
	return append(b, make([]byte, f.Fill)...)
}

// observeFrame reads a header case's frame as a stream reader does
// (codec.ReadFrame: the header, then the body its size announces) and
// decodes the header of the case's kind from the whole frame.
func observeFrame(kind string, f *Frame) (*Expect, error) {
	in, err := hex.DecodeString(f.Input)
	if err != nil {
		return nil, fmt.Errorf("frame input: %w", err)
	}
	frame, err := codec.ReadFrame(bytes.NewReader(f.bytes()), nil, codec.MaxFrameSize)
	var e *Expect
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		if len(in) >= codec.HeaderSize {
			return nil, fmt.Errorf("a frame of %d bytes ends before its size", f.Length)
		}
		_, err = codec.FrameSize(in) // the stream ended inside the header
		e = errorVerdict(err, 0)
	case err != nil:
		e = errorVerdict(err, 0)
		if kind == KindEviction && codec.Command(in[60]) == codec.CommandEviction {
			withSDK(e, codeInvalidCommand)
		}
	default:
		if len(frame) != f.Length {
			return nil, fmt.Errorf("the frame reader took %d bytes, the frame has %d", len(frame), f.Length)
		}
		e = observeHeader(kind, frame)
	}
	e.Fields = nil
	return e, nil
}
