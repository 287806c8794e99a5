package fuzz

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// The frame helpers set Size themselves and validate like AppendBinary; these
// checks hold them to that for built values, valid or not.

// checkRequestFrame: AppendRequestFrame with an empty body refuses exactly
// what AppendBinary of the header with size 256 refuses.
func checkRequestFrame(t *testing.T, h codec.RequestHeader) {
	h.Size = codec.HeaderSize
	want := h.Validate()
	out, err := codec.AppendRequestFrame(append([]byte(nil), prefix...), h, nil)
	sameErr(t, "AppendRequestFrame", err, want)
	if err != nil {
		checkUnchanged(t, "AppendRequestFrame", out)
		return
	}
	if d, err := codec.DecodeRequestHeader(out[len(prefix):]); err != nil || d != h {
		t.Fatalf("AppendRequestFrame wrote a frame that decodes to %+v, %v", d, err)
	}
}

// loginReply is a valid login reply for frame checks.
var loginReply = codec.LoginReply{UserID: 1, Session: 7, ServerProtocol: 0x2C00, ServerVersion: []byte("0.11.0")}

// checkReplyFrames: AppendReplyFrame and AppendLoginReplyFrame refuse
// exactly what AppendBinary of the header with their size refuses.
func checkReplyFrames(t *testing.T, h codec.ReplyHeader) {
	h.Size = codec.HeaderSize
	out, err := codec.AppendReplyFrame(append([]byte(nil), prefix...), h, nil)
	sameErr(t, "AppendReplyFrame", err, h.Validate())
	if err != nil {
		checkUnchanged(t, "AppendReplyFrame", out)
	}
	h.Size = uint32(codec.HeaderSize + 4 + loginReply.EncodedLen())
	out, err = codec.AppendLoginReplyFrame(append([]byte(nil), prefix...), h, loginReply)
	sameErr(t, "AppendLoginReplyFrame", err, h.Validate())
	if err != nil {
		checkUnchanged(t, "AppendLoginReplyFrame", out)
		return
	}
	checkReplyFrame(t, h, out[len(prefix):])
}

// checkLoginReplyFrame: AppendLoginReplyFrame refuses a login reply
// exactly as its Validate does.
func checkLoginReplyFrame(t *testing.T, l codec.LoginReply) {
	h := codec.ReplyHeader{Client: codec.Uint128{Lo: 1}, Operation: codec.OperationRegister}
	out, err := codec.AppendLoginReplyFrame(append([]byte(nil), prefix...), h, l)
	sameErr(t, "AppendLoginReplyFrame", err, l.Validate())
	if err != nil {
		checkUnchanged(t, "AppendLoginReplyFrame", out)
	}
}

// checkConstructors: the eviction constructors build the value a literal
// would, and every eviction means what section 8 says.
func checkConstructors(t *testing.T, e codec.Eviction) {
	if got := codec.NewEviction(e.Client, e.Reason); got != (codec.Eviction{Client: e.Client, Reason: e.Reason}) {
		t.Fatalf("NewEviction = %+v", got)
	}
	want := codec.Eviction{Client: e.Client, Window: e.Window, Reason: codec.ReasonIncompatibleProtocol}
	if got := codec.NewIncompatibleProtocolEviction(e.Client, e.Window); got != want {
		t.Fatalf("NewIncompatibleProtocol = %+v", got)
	}
	checkMeaning(t, e)
}
