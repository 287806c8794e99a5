package main

import (
	"errors"
	"fmt"
	"maps"

	"github.com/iggywire/iggywire/codec"
)

// WIRE.md section 8: the error codes an SDK maps frames to (57 and 58 are
// result codes of a Register reply).
const (
	codeOK                    = 0
	codeInvalidCommand        = 3
	codeTransientNotCommitted = 57
	codeTransientNotAccepted  = 58
)

// incompatibleName is what eviction 14 with a well-formed window means: an
// error without a numeric code, carrying the client version and window.
const incompatibleName = "IncompatibleProtocolVersion"

// sdkRetry says what a client does after a transient result code: replay
// the same request (same connection, same client id) after 57; reissue the
// login, anywhere, even under a fresh client id, after 58.
var sdkRetry = map[uint32]string{codeTransientNotCommitted: "replay", codeTransientNotAccepted: "reissue"}

// withSDK sets the code an SDK surfaces, named as codec.Status names it.
func withSDK(e *Expect, code uint32) *Expect {
	e.SDKCode, e.SDKError, e.Retry = intp(int(code)), codec.Status(code).String(), sdkRetry[code]
	return e
}

// observeEviction decodes an eviction and, for any 256-byte frame whose
// command byte says Eviction, the code an SDK surfaces: what the reason
// means when the frame is valid; 40 for reason 14 whose window is
// ill-formed; 3 (a malformed frame) for every other invalid eviction.
func observeEviction(in []byte) *Expect {
	e, err := codec.DecodeEviction(in)
	ex := verdict(evictionFields(e), err)
	if len(in) < codec.HeaderSize || codec.Command(in[60]) != codec.CommandEviction {
		return ex
	}
	switch {
	case err == nil:
		var ipe *codec.IncompatibleProtocolError
		if !errors.As(e.Err(), &ipe) {
			return withSDK(ex, uint32(e.Reason.Status()))
		}
		ex.SDKError = incompatibleName
		return ex
	case errors.Is(err, codec.ErrWindow) && codec.EvictionReason(in[255]) == codec.ReasonIncompatibleProtocol:
		return withSDK(ex, uint32(codec.StatusUnauthenticated))
	}
	return withSDK(ex, codeInvalidCommand)
}

// observeLoginFrame reads a whole Reply frame answering a Register the way
// an SDK does: the frame's size (codec.FrameSize, as a reader of a stream
// needs it to find the body), the header, a denial status, the result
// section, then the login reply, which is the rest of the frame. Anything
// that does not decode is a malformed reply (code 3).
func observeLoginFrame(in []byte) (*Expect, error) {
	h, err := codec.DecodeReplyHeader(in)
	if _, serr := codec.FrameSize(in); serr != nil {
		err = serr // the size comes first: without it there is no body
	}
	if err != nil {
		return withSDK(errorVerdict(err, 0), codeInvalidCommand), nil
	}
	if int(h.Size) != len(in) {
		return nil, fmt.Errorf("login_reply_frame input of %d bytes has size %d", len(in), h.Size)
	}
	fields := replyFields(h)
	if h.Status != codec.StatusOK {
		return withSDK(&Expect{Verdict: "ok", Fields: fields}, uint32(h.Status)), nil
	}
	body := in[codec.HeaderSize:]
	payload, code, err := codec.SplitResult(body)
	if err != nil {
		return withSDK(errorVerdict(err, codec.HeaderSize), codeInvalidCommand), nil
	}
	fields["result_code"] = uint32(code)
	if code != codec.StatusOK {
		return withSDK(&Expect{Verdict: "ok", Fields: fields}, uint32(code)), nil
	}
	base := codec.HeaderSize + 4 + 8*int(le.Uint32(body))
	lr, err := codec.ParseLoginReply(payload)
	if err != nil {
		return withSDK(errorVerdict(err, base), codeInvalidCommand), nil
	}
	maps.Copy(fields, loginReplyFields(lr))
	return withSDK(&Expect{Verdict: "ok", Fields: fields}, codeOK), nil
}
