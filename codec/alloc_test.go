package codec_test

import (
	"bytes"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// Package-level sinks keep the compiler from optimising the measured work
// away.
var (
	sinkErr     error
	sinkN       int
	sinkBool    bool
	sinkBytes   []byte
	sinkCode    codec.Status
	sinkCommand codec.Command
	sinkVersion codec.Version
	sinkWindow  codec.Window
	sinkInfo    codec.ClientVersionInfo
	sinkLogin   codec.LoginRegister
	sinkPAT     codec.LoginRegisterPAT
	sinkReply   codec.LoginReply
	sinkReqH    codec.RequestHeader
	sinkRepH    codec.ReplyHeader
	sinkEv      codec.Eviction
	sinkBind    codec.BindSession
	sinkOp      codec.Operation
)

type measured struct {
	name string
	run  func()
}

// successPaths is every decode, parse and encode path of the package on a
// valid input, encoders writing into a buffer with enough capacity.
func successPaths() []measured {
	info, login, pat, reply := hx(infoLongHex), hx(loginUTF8Hex), hx(patTokHex), hx(replyBodyHex)
	loginFrame := cat(repOKHex, hx("00 00 00 00"), reply)
	buf := make([]byte, 0, 4096)
	w := codec.DefaultWindow(0x2C00)
	w11 := codec.InclusiveWindow(codec.Protocol0110, codec.Protocol0111)
	login11, bind := hx(loginSecretHex), hx(bindHex)
	pat11 := hx(patSecretHex)
	bindV, login11V := bindValue(), loginSecretValue()
	paths := []measured{
		{"DecodeLoginRegisterRev 0.11.1", func() { sinkLogin, sinkN, sinkErr = codec.DecodeLoginRegisterRev(login11, codec.RevisionBindSecret) }},
		{"ParseLoginRegisterRev 0.11.1", func() { sinkLogin, sinkErr = codec.ParseLoginRegisterRev(login11, codec.RevisionBindSecret) }},
		{"ParseLoginRegisterPATRev 0.11.1", func() { sinkPAT, sinkErr = codec.ParseLoginRegisterPATRev(pat11, codec.RevisionBindSecret) }},
		{"DecodeBindSession", func() { sinkBind, sinkN, sinkErr = codec.DecodeBindSession(bind) }},
		{"ParseBindSession", func() { sinkBind, sinkErr = codec.ParseBindSession(bind) }},
		{"BindSession.AppendBinary", func() { sinkBytes, sinkErr = bindV.AppendBinary(buf[:0]) }},
		{"LoginRegister.AppendBinary 0.11.1", func() { sinkBytes, sinkErr = login11V.AppendBinary(buf[:0]) }},
		{"AppendBindReplyFrame", func() { sinkBytes, sinkErr = codec.AppendBindReplyFrame(buf[:0], repOK, replyBody) }},
		{"InclusiveWindow.Accepts", func() { sinkBool = w11.Accepts(0x2C01) }},
		{"RevisionOf", func() { sinkBool = codec.RevisionOf(0x2C01) == codec.RevisionBindSecret }},
		{"DecodeClientVersionInfo", func() { sinkInfo, sinkN, sinkErr = codec.DecodeClientVersionInfo(info) }},
		{"ParseClientVersionInfo", func() { sinkInfo, sinkErr = codec.ParseClientVersionInfo(info) }},
		{"DecodeLoginRegister", func() { sinkLogin, sinkN, sinkErr = codec.DecodeLoginRegister(login) }},
		{"ParseLoginRegister", func() { sinkLogin, sinkErr = codec.ParseLoginRegister(login) }},
		{"DecodeLoginRegisterPAT", func() { sinkPAT, sinkN, sinkErr = codec.DecodeLoginRegisterPAT(pat) }},
		{"ParseLoginRegisterPAT", func() { sinkPAT, sinkErr = codec.ParseLoginRegisterPAT(pat) }},
		{"DecodeLoginReply", func() { sinkReply, sinkN, sinkErr = codec.DecodeLoginReply(reply) }},
		{"ParseLoginReply", func() { sinkReply, sinkErr = codec.ParseLoginReply(reply) }},
		{"DecodeRequestHeader", func() { sinkReqH, sinkErr = codec.DecodeRequestHeader(reqMetadataHex) }},
		{"DecodeReplyHeader", func() { sinkRepH, sinkErr = codec.DecodeReplyHeader(repOKHex) }},
		{"DecodeEviction", func() { sinkEv, sinkErr = codec.DecodeEviction(ev14Hex) }},
		{"RequestHeader.Decode", func() { sinkErr = sinkReqH.Decode(reqMetadataHex) }},
		{"ReplyHeader.Decode", func() { sinkErr = sinkRepH.Decode(repOKHex) }},
		{"Eviction.Decode", func() { sinkErr = sinkEv.Decode(ev14Hex) }},
		{"AppendRequestFrame", func() {
			sinkBytes, sinkErr = codec.AppendRequestFrame(buf[:0], codec.RequestHeader{Client: client5, Operation: codec.OperationRegister}, login)
		}},
		{"AppendReplyFrame", func() { sinkBytes, sinkErr = codec.AppendReplyFrame(buf[:0], repOK, reply) }},
		{"AppendLoginReplyFrame", func() { sinkBytes, sinkErr = codec.AppendLoginReplyFrame(buf[:0], repOK, replyBody) }},
		{"SplitResult", func() { sinkBytes, sinkCode, sinkErr = codec.SplitResult(loginFrame[256:]) }},
		{"ParseVersion", func() { sinkVersion, sinkErr = codec.ParseVersion("0.11.0-edge.2") }},
		{"UnmarshalText", func() { sinkErr = sinkVersion.UnmarshalText([]byte("1.2.3+build.5")) }},
		{"Version.AppendText", func() { sinkBytes, sinkErr = codec.Version(0x2C00).AppendText(buf[:0]) }},
		{"Pack", func() { sinkVersion, sinkErr = codec.Pack(1, 2, 3) }},
		{"DefaultWindow", func() { sinkWindow = codec.DefaultWindow(0x2C00) }},
		{"Window.Accepts", func() { sinkBool = w.Accepts(0x2C05) }},
		{"FrameSize", func() { sinkN, sinkErr = codec.FrameSize(repOKHex) }},
		{"PeekCommand", func() { sinkCommand, sinkErr = codec.PeekCommand(ev1Hex) }},
	}
	for _, g := range goldens {
		paths = append(paths, measured{"AppendBinary " + g.name, func() { sinkBytes, sinkErr = g.want.AppendBinary(buf[:0]) }})
	}
	return paths
}

// TestNoAllocs: every success path allocates nothing.
func TestNoAllocs(t *testing.T) {
	for _, p := range successPaths() {
		if allocs := testing.AllocsPerRun(100, p.run); allocs != 0 {
			t.Errorf("%s: %v allocations, want 0", p.name, allocs)
		}
		if sinkErr != nil {
			t.Errorf("%s: %v", p.name, sinkErr)
		}
	}
}

// TestErrorAllocs: an error path allocates at most the *Error it returns.
func TestErrorAllocs(t *testing.T) {
	cutLogin := hx(loginUTF8Hex)[:40]
	badUTF8 := hx("00 2c 00 00 | 02 61 ff | 01 31")
	trailing := hx(replyBodyHex + "00")
	badHeader := applyRules(reqMetadataHex, breakRule{mutate: setByte(230, 1)})
	zeroHeader := make([]byte, 256)
	buf := make([]byte, 0, 4096)
	paths := []measured{
		{"DecodeLoginRegister truncated", func() { sinkLogin, sinkN, sinkErr = codec.DecodeLoginRegister(cutLogin) }},
		{"ParseClientVersionInfo UTF-8", func() { sinkInfo, sinkErr = codec.ParseClientVersionInfo(badUTF8) }},
		{"ParseLoginReply trailing", func() { sinkReply, sinkErr = codec.ParseLoginReply(trailing) }},
		{"DecodeLoginRegisterPAT truncated", func() { sinkPAT, sinkN, sinkErr = codec.DecodeLoginRegisterPAT(nil) }},
		{"DecodeRequestHeader reserved", func() { sinkReqH, sinkErr = codec.DecodeRequestHeader(badHeader) }},
		{"DecodeReplyHeader truncated", func() { sinkRepH, sinkErr = codec.DecodeReplyHeader(repOKHex[:100]) }},
		{"DecodeEviction command", func() { sinkEv, sinkErr = codec.DecodeEviction(repOKHex) }},
		{"AppendBinary invalid", func() { sinkBytes, sinkErr = codec.LoginRegister{}.AppendBinary(buf[:0]) }},
		{"AppendLoginReplyFrame invalid", func() { sinkBytes, sinkErr = codec.AppendLoginReplyFrame(buf[:0], repDeny, replyBody) }},
		{"SplitResult truncated", func() { sinkBytes, sinkCode, sinkErr = codec.SplitResult(nil) }},
		{"ParseVersion range", func() { sinkVersion, sinkErr = codec.ParseVersion("1.2.99999999999999999999") }},
		{"FrameSize", func() { sinkN, sinkErr = codec.FrameSize(zeroHeader) }},
	}
	for _, p := range paths {
		if allocs := testing.AllocsPerRun(100, p.run); allocs > 1 {
			t.Errorf("%s: %v allocations, want at most 1", p.name, allocs)
		}
		if sinkErr == nil {
			t.Errorf("%s: no error", p.name)
		}
	}
}

// TestReadFrameBodyAllocs: a client reading a 1 MiB reply header then body
// pays one allocation, the body at its exact size (make bench's
// Frame/ReadFrameBody1MiB row holds its bytes to 1.1x the body).
func TestReadFrameBodyAllocs(t *testing.T) {
	big := bigReply(t)
	r := bytes.NewReader(big)
	var h codec.Header
	allocs := testing.AllocsPerRun(20, func() {
		r.Reset(big)
		if _, sinkErr = codec.ReadFrameHeader(r, &h); sinkErr == nil {
			sinkBytes, sinkErr = codec.ReadFrameBody(r, &h, nil, codec.MaxFrameSize)
		}
	})
	require.NoError(t, sinkErr)
	require.Equal(t, big[codec.HeaderSize:], sinkBytes)
	require.Equal(t, len(sinkBytes), cap(sinkBytes), "the body at its exact size")
	require.LessOrEqual(t, allocs, 1.0)
	allocs = testing.AllocsPerRun(20, func() { sinkOp = codec.OperationForCode(codec.CodeSendMessages) })
	require.Zero(t, allocs, "OperationForCode")
}

// bigReply is a reply frame with a 1 MiB body, as a large poll answer.
func bigReply(tb testing.TB) []byte {
	frame, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: codec.Uint128From(7), Request: 3,
		Operation: codec.OperationNonReplicated}, make([]byte, 1<<20))
	if err != nil {
		tb.Fatal(err)
	}
	return frame
}
