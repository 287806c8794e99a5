//go:build go1.24

// The benchmarks use testing.B.Loop, new in Go 1.24; the module's go
// directive is lower, so they build only with a Go that has it.

package codec_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
)

// The benchmarks measure every path on a typical input and on a maximal one,
// next to floors: the work no decoder or encoder of the same bytes can avoid.
// `make bench` prints each path's ratio to its floor from the same run. Each
// loop is written out in its benchmark (no closure per iteration), and every
// decoded value is kept whole in a package-level sink, as a caller keeps it.

// Typical inputs.
var (
	benchInfo = codec.ClientVersionInfo{
		Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0"),
	}
	benchLogin = codec.LoginRegister{Info: benchInfo, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	benchPAT   = codec.LoginRegisterPAT{Info: benchInfo, Token: codec.NewSecret([]byte("iggy-personal-access-token"))}
	benchReply = codec.LoginReply{
		UserID: 1, Session: 42, ServerProtocol: codec.MustPack(0, 11, 0), ServerVersion: []byte("0.11.0"),
	}
	benchReqH = codec.RequestHeader{Size: 300, Client: codec.Uint128From(7), Operation: codec.OperationRegister}
	benchRepH = codec.ReplyHeader{
		Size: 256, Client: codec.Uint128From(7), Request: 3, Operation: codec.OperationNonReplicated,
	}
	benchEv = codec.NewIncompatibleProtocolEviction(codec.Uint128From(7), codec.DefaultWindow(codec.MustPack(0, 11, 0)))
	// Protocol 0.11.1: a bind secret of random-looking bytes, most above
	// 0x7f, as crypto/rand gives, which the decoders must skip in their
	// ASCII test.
	benchSecret = codec.NewSecret([]byte("\x9a\xf3\x10\xc4\x7e\x88\xd1\x02\xb6\x5c\xe9\x31\xa7\x4f\x90\xfe" +
		"\x13\xcd\x66\x8b\xf0\x27\x99\xe2\x41\xbb\x0c\xd8\x75\xa3\x1e\x6f"))
	benchInfo11  = codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	benchLogin11 = codec.LoginRegister{Info: benchInfo11, Revision: codec.RevisionBindSecret, BindSecret: benchSecret,
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	benchBind = codec.BindSession{Info: benchInfo11, ClientID: codec.Uint128{Lo: 7, Hi: 9}, Session: 42, MetadataWatermark: 42,
		BindSecret: benchSecret}
)

// Maximal inputs: every text field 255 bytes of multi-byte UTF-8 (85 × 日),
// and a 64 KiB context (32768 × é).
var (
	max255      = []byte(strings.Repeat("日", 85))
	max64K      = []byte(strings.Repeat("é", 32<<10))
	benchInfoX  = codec.ClientVersionInfo{Protocol: codec.MustPack(1023, 1023, 1023), SDKName: max255, SDKVersion: max255}
	benchLoginX = codec.LoginRegister{Info: benchInfoX, Username: max255, Password: codec.NewSecret(max255), Context: max64K}
	benchPATX   = codec.LoginRegisterPAT{Info: benchInfoX, Token: codec.NewSecret(max255), Context: max64K}
	benchReplyX = codec.LoginReply{UserID: 1, Session: 42, ServerProtocol: 1, ServerVersion: max255}
)

// mustEncode returns the encoding of a valid value; a failure is a bug here.
func mustEncode(v encoder) []byte {
	b, err := v.AppendBinary(nil)
	if err != nil {
		panic(err)
	}
	return b
}

// textFields lists the text fields of each typical and maximal message, the
// input of its UTF-8 floor.
func textFields() map[string][][]byte {
	info := func(c codec.ClientVersionInfo) [][]byte { return [][]byte{c.SDKName, c.SDKVersion} }
	login := func(l codec.LoginRegister) [][]byte {
		f := append(info(l.Info), l.Username, l.Password.Bytes())
		if len(l.Context) > 0 {
			f = append(f, l.Context)
		}
		return f
	}
	pat := func(l codec.LoginRegisterPAT) [][]byte {
		f := append(info(l.Info), l.Token.Bytes())
		if len(l.Context) > 0 {
			f = append(f, l.Context)
		}
		return f
	}
	return map[string][][]byte{
		"ClientVersionInfo":    info(benchInfo),
		"LoginRegister":        login(benchLogin),
		"LoginRegisterPAT":     pat(benchPAT),
		"LoginReply":           {benchReply.ServerVersion},
		"ClientVersionInfoMax": info(benchInfoX),
		"LoginRegisterMax":     login(benchLoginX),
		"LoginRegisterPATMax":  pat(benchPATX),
		"LoginReplyMax":        {benchReplyX.ServerVersion},
		"LoginRegister0111":    login(benchLogin11),
		"BindSession":          info(benchBind.Info),
	}
}

// BenchmarkFloor measures the unavoidable work each path is compared with:
// reading a header once (Equal256), writing one (Copy256), and validating the
// text fields of a body as UTF-8 (UTF8/<Message>).
func BenchmarkFloor(b *testing.B) {
	b.Run("Equal256", func(b *testing.B) {
		x, y := make([]byte, 256), make([]byte, 256)
		x[255], y[255] = 1, 1
		b.SetBytes(256)
		b.ReportAllocs()
		for b.Loop() {
			sinkBool = string(x) == string(y)
		}
	})
	b.Run("Copy256", func(b *testing.B) {
		src, dst := make([]byte, 256), make([]byte, 256)
		b.SetBytes(256)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
		sinkBytes = dst
	})
	b.Run("MapLookup", func(b *testing.B) {
		// the table an SDK keeps without codec: a map from the replicated
		// commands' codes to their operations, looked up per request
		m := make(map[codec.Code]codec.Operation)
		for o := range 256 {
			if c, ok := codec.Operation(o).Code(); ok {
				m[c] = codec.Operation(o)
			}
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			op, ok := m[benchCodes[i%len(benchCodes)]]
			if !ok {
				op = codec.OperationNonReplicated
			}
			sinkOp = op
			i++
		}
	})
	b.Run("Copy1MiB", func(b *testing.B) {
		src, dst := make([]byte, 1<<20), make([]byte, 1<<20)
		b.SetBytes(1 << 20)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
		sinkBytes = dst
	})
	for name, fields := range textFields() {
		b.Run("UTF8/"+name, func(b *testing.B) {
			n := 0
			for _, f := range fields {
				n += len(f)
			}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				ok := true
				for _, f := range fields {
					ok = utf8.Valid(f) && ok
				}
				sinkBool = ok
			}
		})
	}
}

// benchPath runs the benchmark name of a path that handles n bytes a call:
// loop holds the path's b.Loop written out, so no closure is called per
// iteration, and the last iteration's error fails the benchmark.
func benchPath(b *testing.B, name string, n int, loop func(b *testing.B)) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(n))
		b.ReportAllocs()
		loop(b)
		if sinkErr != nil {
			b.Fatalf("last iteration: err = %v", sinkErr)
		}
	})
}

// BenchmarkDecode decodes each body with its whole-input Parse and each
// header with its Decode.
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct {
		name string
		v    codec.ClientVersionInfo
	}{{"ClientVersionInfo", benchInfo}, {"ClientVersionInfoMax", benchInfoX}} {
		src := mustEncode(c.v)
		benchPath(b, c.name, len(src), func(b *testing.B) {
			for b.Loop() {
				sinkInfo, sinkErr = codec.ParseClientVersionInfo(src)
			}
		})
	}
	for _, c := range []struct {
		name string
		v    codec.LoginRegister
	}{{"LoginRegister", benchLogin}, {"LoginRegisterMax", benchLoginX}} {
		src := mustEncode(c.v)
		benchPath(b, c.name, len(src), func(b *testing.B) {
			for b.Loop() {
				sinkLogin, sinkErr = codec.ParseLoginRegister(src)
			}
		})
	}
	for _, c := range []struct {
		name string
		v    codec.LoginRegisterPAT
	}{{"LoginRegisterPAT", benchPAT}, {"LoginRegisterPATMax", benchPATX}} {
		src := mustEncode(c.v)
		benchPath(b, c.name, len(src), func(b *testing.B) {
			for b.Loop() {
				sinkPAT, sinkErr = codec.ParseLoginRegisterPAT(src)
			}
		})
	}
	for _, c := range []struct {
		name string
		v    codec.LoginReply
	}{{"LoginReply", benchReply}, {"LoginReplyMax", benchReplyX}} {
		src := mustEncode(c.v)
		benchPath(b, c.name, len(src), func(b *testing.B) {
			for b.Loop() {
				sinkReply, sinkErr = codec.ParseLoginReply(src)
			}
		})
	}
	login11, bind := mustEncode(benchLogin11), mustEncode(benchBind)
	benchPath(b, "LoginRegister0111", len(login11), func(b *testing.B) {
		for b.Loop() {
			sinkLogin, sinkErr = codec.ParseLoginRegisterRev(login11, codec.RevisionBindSecret)
		}
	})
	benchPath(b, "BindSession", len(bind), func(b *testing.B) {
		for b.Loop() {
			sinkBind, sinkErr = codec.ParseBindSession(bind)
		}
	})
	reqH, repH, ev := mustEncode(&benchReqH), mustEncode(&benchRepH), mustEncode(&benchEv)
	benchPath(b, "RequestHeader", 256, func(b *testing.B) {
		for b.Loop() {
			sinkReqH, sinkErr = codec.DecodeRequestHeader(reqH)
		}
	})
	benchPath(b, "ReplyHeader", 256, func(b *testing.B) {
		for b.Loop() {
			sinkRepH, sinkErr = codec.DecodeReplyHeader(repH)
		}
	})
	benchPath(b, "Eviction", 256, func(b *testing.B) {
		for b.Loop() {
			sinkEv, sinkErr = codec.DecodeEviction(ev)
		}
	})
	// The in-place forms decode straight into the sink a caller keeps, so
	// no 136-byte result is copied (see RequestHeader.Decode).
	benchPath(b, "RequestHeaderInPlace", 256, func(b *testing.B) {
		for b.Loop() {
			sinkErr = sinkReqH.Decode(reqH)
		}
	})
	benchPath(b, "ReplyHeaderInPlace", 256, func(b *testing.B) {
		for b.Loop() {
			sinkErr = sinkRepH.Decode(repH)
		}
	})
	benchPath(b, "EvictionInPlace", 256, func(b *testing.B) {
		for b.Loop() {
			sinkErr = sinkEv.Decode(ev)
		}
	})
}

// BenchmarkEncode appends each value to a reused buffer.
func BenchmarkEncode(b *testing.B) {
	for _, c := range []struct {
		name string
		v    encoder
	}{
		{"ClientVersionInfo", benchInfo},
		{"ClientVersionInfoMax", benchInfoX},
		{"LoginRegisterPAT", benchPAT},
		{"LoginRegisterPATMax", benchPATX},
		{"LoginReply", benchReply},
		{"LoginReplyMax", benchReplyX},
		{"ReplyHeader", &benchRepH},
	} {
		// Through the interface: these paths have no goal of their own.
		buf := make([]byte, 0, c.v.EncodedLen())
		benchPath(b, c.name, c.v.EncodedLen(), func(b *testing.B) {
			for b.Loop() {
				sinkBytes, sinkErr = c.v.AppendBinary(buf[:0])
			}
		})
	}
	// The paths with goals call the concrete method, as a caller would.
	for _, c := range []struct {
		name string
		v    codec.LoginRegister
	}{{"LoginRegister", benchLogin}, {"LoginRegisterMax", benchLoginX}} {
		buf := make([]byte, 0, c.v.EncodedLen())
		benchPath(b, c.name, c.v.EncodedLen(), func(b *testing.B) {
			for b.Loop() {
				sinkBytes, sinkErr = c.v.AppendBinary(buf[:0])
			}
		})
	}
	buf11 := make([]byte, 0, benchLogin11.EncodedLen()+benchBind.EncodedLen())
	benchPath(b, "LoginRegister0111", benchLogin11.EncodedLen(), func(b *testing.B) {
		for b.Loop() {
			sinkBytes, sinkErr = benchLogin11.AppendBinary(buf11[:0])
		}
	})
	benchPath(b, "BindSession", benchBind.EncodedLen(), func(b *testing.B) {
		for b.Loop() {
			sinkBytes, sinkErr = benchBind.AppendBinary(buf11[:0])
		}
	})
	buf := make([]byte, 0, 256)
	benchPath(b, "RequestHeader", 256, func(b *testing.B) {
		for b.Loop() {
			sinkBytes, sinkErr = benchReqH.AppendBinary(buf[:0])
		}
	})
	benchPath(b, "Eviction", 256, func(b *testing.B) {
		for b.Loop() {
			sinkBytes, sinkErr = benchEv.AppendBinary(buf[:0])
		}
	})
}

// BenchmarkFrame measures the frame-level helpers.
func BenchmarkFrame(b *testing.B) {
	buf := make([]byte, 0, 1024)
	login := mustEncode(benchLogin)
	frame, err := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}, benchReply)
	if err != nil {
		b.Fatal(err)
	}
	benchPath(b, "AppendRequestFrame", 256+len(login), func(b *testing.B) {
		h := codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}
		for b.Loop() {
			sinkBytes, sinkErr = codec.AppendRequestFrame(buf[:0], h, login)
		}
	})
	benchPath(b, "AppendLoginReplyFrame", len(frame), func(b *testing.B) {
		h := codec.ReplyHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}
		for b.Loop() {
			sinkBytes, sinkErr = codec.AppendLoginReplyFrame(buf[:0], h, benchReply)
		}
	})
	body := frame[256:]
	benchPath(b, "SplitResult", len(body), func(b *testing.B) {
		for b.Loop() {
			sinkBytes, sinkCode, sinkErr = codec.SplitResult(body)
		}
	})
	benchPath(b, "FrameSize", 256, func(b *testing.B) {
		for b.Loop() {
			sinkN, sinkErr = codec.FrameSize(frame)
		}
	})
	benchPath(b, "OperationForCode", 0, func(b *testing.B) {
		i := 0
		for b.Loop() {
			sinkOp = codec.OperationForCode(benchCodes[i%len(benchCodes)])
			i++
		}
	})
	big := bigReply(b)
	r := bytes.NewReader(big)
	benchPath(b, "ReadFrame1MiB", len(big), func(b *testing.B) {
		for b.Loop() {
			r.Reset(big)
			sinkBytes, sinkErr = codec.ReadFrame(r, nil, codec.MaxFrameSize)
		}
	})
	var h codec.Header
	benchPath(b, "ReadFrameBody1MiB", len(big), func(b *testing.B) {
		for b.Loop() {
			r.Reset(big)
			if _, sinkErr = codec.ReadFrameHeader(r, &h); sinkErr == nil {
				sinkBytes, sinkErr = codec.ReadFrameBody(r, &h, nil, codec.MaxFrameSize)
			}
		}
	})
}

// benchCodes is a request mix for OperationForCode and its map floor:
// replicated commands of each plane, reads and a code no table names.
var benchCodes = [...]codec.Code{codec.CodeSendMessages, codec.CodePing, codec.CodeCreateStream,
	codec.CodePollMessages, codec.CodeStoreConsumerOffset, codec.CodeLeaveConsumerGroup, 9999, codec.CodeCreateTopic}

// BenchmarkParseVersion parses a plain and a suffixed version.
func BenchmarkParseVersion(b *testing.B) {
	for _, s := range []string{"0.11.0", "1023.1023.1023-edge.2+build.5"} {
		benchPath(b, s, len(s), func(b *testing.B) {
			for b.Loop() {
				sinkVersion, sinkErr = codec.ParseVersion(s)
			}
		})
	}
}

// BenchmarkWindowAccepts checks a version against a 0.x window.
func BenchmarkWindowAccepts(b *testing.B) {
	w := codec.DefaultWindow(0x2C05)
	b.ReportAllocs()
	for b.Loop() {
		sinkBool = w.Accepts(0x2C03)
	}
}
