package codec_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// bench runs f with allocation reporting and bytes/op set to n, so the
// figures read as throughput.
func bench(b *testing.B, n int, f func()) {
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		f()
	}
	if sinkErr != nil {
		b.Fatal(sinkErr)
	}
}

// BenchmarkDecode decodes each body (whole-input Parse) and header.
func BenchmarkDecode(b *testing.B) {
	info, login, pat, reply := hx(infoRustHex), hx(loginUTF8Hex), hx(patTokHex), hx(replyBodyHex)
	b.Run("ClientVersionInfo", func(b *testing.B) {
		bench(b, len(info), func() { sinkInfo, sinkErr = codec.ParseClientVersionInfo(info) })
	})
	b.Run("LoginRegister", func(b *testing.B) {
		bench(b, len(login), func() { sinkLogin, sinkErr = codec.ParseLoginRegister(login) })
	})
	b.Run("LoginRegisterPAT", func(b *testing.B) {
		bench(b, len(pat), func() { sinkPAT, sinkErr = codec.ParseLoginRegisterPAT(pat) })
	})
	b.Run("LoginReply", func(b *testing.B) {
		bench(b, len(reply), func() { sinkReply, sinkErr = codec.ParseLoginReply(reply) })
	})
	b.Run("RequestHeader", func(b *testing.B) {
		bench(b, 256, func() { sinkReqH, sinkErr = codec.DecodeRequestHeader(reqRegisterHex) })
	})
	b.Run("ReplyHeader", func(b *testing.B) {
		bench(b, 256, func() { sinkRepH, sinkErr = codec.DecodeReplyHeader(repOKHex) })
	})
	b.Run("Eviction", func(b *testing.B) {
		bench(b, 256, func() { sinkEv, sinkErr = codec.DecodeEviction(ev14Hex) })
	})
}

// BenchmarkEncode appends each body and header to a reused buffer.
func BenchmarkEncode(b *testing.B) {
	buf := make([]byte, 0, 1024)
	for _, c := range []struct {
		name string
		v    encoder
	}{
		{"ClientVersionInfo", infoRust},
		{"LoginRegister", loginUTF8},
		{"LoginRegisterPAT", patTok},
		{"LoginReply", replyBody},
		{"RequestHeader", reqRegister},
		{"ReplyHeader", repOK},
		{"Eviction", ev14},
	} {
		b.Run(c.name, func(b *testing.B) {
			bench(b, c.v.EncodedLen(), func() { sinkBytes, sinkErr = c.v.AppendTo(buf[:0]) })
		})
	}
}

// BenchmarkFrame measures the frame-level helpers.
func BenchmarkFrame(b *testing.B) {
	buf := make([]byte, 0, 1024)
	login := hx(loginUTF8Hex)
	frame := cat(repOKHex, hx("00 00 00 00"), hx(replyBodyHex))
	b.Run("AppendRequestFrame", func(b *testing.B) {
		h := codec.RequestHeader{Client: client5, Operation: codec.OperationRegister}
		bench(b, 256+len(login), func() { sinkBytes, sinkErr = codec.AppendRequestFrame(buf[:0], h, login) })
	})
	b.Run("AppendLoginReplyFrame", func(b *testing.B) {
		bench(b, len(frame), func() { sinkBytes, sinkErr = codec.AppendLoginReplyFrame(buf[:0], repOK, replyBody) })
	})
	b.Run("SplitResult", func(b *testing.B) {
		body := frame[256:]
		bench(b, len(body), func() { sinkBytes, sinkCode, sinkErr = codec.SplitResult(body) })
	})
	b.Run("FrameSize", func(b *testing.B) {
		bench(b, 256, func() { sinkN, sinkErr = codec.FrameSize(frame) })
	})
}

// BenchmarkParseVersion parses a plain and a suffixed version.
func BenchmarkParseVersion(b *testing.B) {
	for _, s := range []string{"0.11.0", "1023.1023.1023-edge.2+build.5"} {
		b.Run(s, func(b *testing.B) {
			bench(b, len(s), func() { sinkVersion, sinkErr = codec.ParseVersion(s) })
		})
	}
}

// BenchmarkWindowAccepts checks a version against a 0.x window.
func BenchmarkWindowAccepts(b *testing.B) {
	w := codec.DefaultWindow(0x2C05)
	bench(b, 4, func() { sinkBool = w.Accepts(0x2C03) })
}
