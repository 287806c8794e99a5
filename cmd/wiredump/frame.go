package main

import (
	"encoding/binary"
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// dumpRequest decodes a Request header and, when the command byte says
// Request, its body by operation: a Register body as both login shapes,
// the way the server tries them (WIRE.md section 7, steps 1c and 1d).
func dumpRequest(src []byte) []Section {
	hdr := Section{Title: "Request header (command 5)", Fields: walkRequestHeader(src)}
	_, err := codec.DecodeRequestHeader(src)
	hdr.settle(err)
	secs, start, end, ok := frameBody(&hdr, src, codec.CommandRequest)
	if !ok {
		return secs
	}
	op := codec.Operation(src[offReqOperation])
	code := codec.Code(binary.LittleEndian.Uint32(src[offReqCode:]))
	switch {
	case op == codec.OperationRegister:
		// An empty login body is malformed (eviction 15), so it is decoded.
		return append(secs, loginShapes(src, start, end)...)
	case start == end:
		return secs
	case op == codec.OperationNonReplicated && isLoginCode(code):
		return append(secs, withheldBody(start, end, code))
	}
	return append(secs, rawBody(src, start, end, "operation "+showOperation(uint8(op))))
}

// dumpReply decodes a Reply header and, when the command byte says Reply,
// its body: a committed Register reply as a result section then a login
// reply (WIRE.md section 4), any other body as bytes.
func dumpReply(src []byte) []Section {
	hdr := Section{Title: "Reply header (command 8)", Fields: walkReplyHeader(src)}
	_, err := codec.DecodeReplyHeader(src)
	hdr.settle(err)
	secs, start, end, ok := frameBody(&hdr, src, codec.CommandReply)
	if !ok {
		return secs
	}
	op := codec.Operation(src[offRepOperation])
	status := binary.LittleEndian.Uint32(src[offRepStatus:])
	if op == codec.OperationRegister && status == 0 {
		// An empty body here is a terminal failure, so it is decoded too.
		return append(secs, decodeLoginReplyFrame(src, start, end)...)
	}
	if start == end {
		return secs
	}
	return append(secs, rawBody(src, start, end, "operation "+showOperation(uint8(op))))
}

// dumpEviction decodes an Eviction, which is header-only.
func dumpEviction(src []byte) []Section {
	hdr := Section{Title: "Eviction header (command 13)", Fields: walkEviction(src)}
	_, err := codec.DecodeEviction(src)
	hdr.settle(err)
	if len(src) > codec.HeaderSize {
		hdr.Notes = append(hdr.Notes, fmt.Sprintf(
			"%d bytes after the header at offset %d: an eviction is header-only; not decoded",
			len(src)-codec.HeaderSize, codec.HeaderSize))
	}
	return []Section{hdr}
}

// frameBody locates the body that follows hdr by the header's size field.
// It returns the sections so far (hdr, and a failed "frame" section when the
// input ends before size bytes), the body range, and whether the body
// should be decoded: not when the input is too short for a header, the
// command byte is not want, or size cannot be used.
func frameBody(hdr *Section, src []byte, want codec.Command) (secs []Section, start, end int, ok bool) {
	if len(src) < codec.HeaderSize {
		return []Section{*hdr}, 0, 0, false
	}
	if got := codec.Command(src[offCommand]); got != want {
		hdr.Notes = append(hdr.Notes, fmt.Sprintf("command is %s, not %s: body not decoded",
			showCommand(uint8(got)), showCommand(uint8(want))))
		return []Section{*hdr}, 0, 0, false
	}
	size := binary.LittleEndian.Uint32(src[offSize:])
	if size < codec.HeaderSize || size > codec.MaxFrameSize {
		hdr.Notes = append(hdr.Notes, fmt.Sprintf(
			"size %d cannot be used, so the body cannot be located: %d bytes after the header not decoded",
			size, len(src)-codec.HeaderSize))
		return []Section{*hdr}, 0, 0, false
	}
	start, end = codec.HeaderSize, int(size)
	secs = []Section{*hdr}
	switch {
	case len(src) < end:
		f := Section{Title: fmt.Sprintf("frame (size %d, %d bytes present)", size, len(src))}
		f.fail(&codec.Error{Field: "body", Offset: len(src), Rule: "len(frame) >= size", Err: codec.ErrTruncated})
		secs = append(secs, f)
		end = len(src)
	case len(src) > end:
		secs[0].Notes = append(secs[0].Notes, fmt.Sprintf(
			"%d bytes after the frame at offset %d (size %d): not decoded", len(src)-end, end, size))
	}
	return secs, start, end, true
}

// isLoginCode reports whether a request with code c carries credentials:
// the legacy logins and the two login codes sent as NonReplicated.
func isLoginCode(c codec.Code) bool {
	switch c {
	case codec.CodeLoginUser, codec.CodeLoginWithPAT, codec.CodeLoginRegister, codec.CodeLoginRegisterWithPAT:
		return true
	}
	return false
}

// withheldBody stands for the body of a login command sent as
// NonReplicated: its layout is not one this codec decodes, and it may carry
// a password or a token, so none of its bytes is shown.
func withheldBody(start, end int, code codec.Code) Section {
	return Section{
		Title:  fmt.Sprintf("body of %s sent as NonReplicated (%d bytes)", showCode(uint32(code)), end-start),
		Status: statusOK,
		Fields: []Field{{Name: "body", Offset: start, Size: end - start, Value: redaction(end - start), Secret: true}},
		Notes:  []string{"not decoded: a login command's body may carry a secret"},
		Base:   start,
	}
}

// rawBody shows a body wiredump has no layout for.
func rawBody(src []byte, start, end int, why string) Section {
	return Section{
		Title:  fmt.Sprintf("body (%d bytes, not decoded for %s)", end-start, why),
		Status: statusOK,
		Fields: []Field{{Name: "body", Offset: start, Size: end - start, Value: showHex(src[start:end])}},
		Base:   start,
	}
}

// loginShapes decodes a Register body as LOGIN_REGISTER then as
// LOGIN_REGISTER_WITH_PAT, both with the server's prefix decoders, and
// reports which shapes matched.
func loginShapes(src []byte, start, end int) []Section {
	var attempts []attempt
	for _, kind := range []string{kindLogin, kindLoginPAT} {
		d, _ := bodyDecoderFor(kind)
		attempts = append(attempts, attempt{kind, []Section{decodeBody(src, start, end, d)}})
	}
	secs, matched := alternatives(attempts)
	last := &secs[len(secs)-1]
	last.Notes = append(last.Notes, matchSummary("login shapes", matched))
	if len(matched) == 2 {
		last.Notes = append(last.Notes,
			"both shapes decode: the server checks the password first, then the token (WIRE.md 7c, 7d)")
	}
	return secs
}
