package codec_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// The golden inputs below are written by hand from WIRE.md: every byte is a
// hex literal at the offset the reference gives it. Helpers only place the
// literals; nothing here is produced by the code under test.

// hx decodes hex written for people: spaces, newlines and '|' (between
// fields) are ignored. A bad literal is a bug in this file.
func hx(s string) []byte {
	s = strings.NewReplacer(" ", "", "\n", "", "\t", "", "|", "").Replace(s)
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// hdr256 returns a 256-byte header that is zero except for the runs.
func hdr256(runs ...at) []byte {
	h := make([]byte, 256)
	for _, r := range runs {
		copy(h[r.off:], hx(r.hex))
	}
	return h
}

// Client ids used by the goldens: 5, and one whose every byte differs so a
// swapped half or byte order shows.
var (
	client5   = codec.Uint128{Lo: 5}
	clientBig = codec.Uint128{Lo: 0xfedcba9876543210, Hi: 0x0123456789abcdef}
)

const clientBigHex = "10 32 54 76 98 ba dc fe | ef cd ab 89 67 45 23 01"

// ClientVersionInfo goldens (WIRE.md section 2).
var (
	// 0.11.0 = 0x2C00, "go-sdk", "0.1.0".
	infoGoSDKHex = "00 2c 00 00 | 06 67 6f 2d 73 64 6b | 05 30 2e 31 2e 30"
	infoGoSDK    = codec.ClientVersionInfo{Protocol: 0x2C00, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}

	// 1.2.3 = 0x00100803, "rust-sdk", "0.7.0-ß" (ß is c3 9f).
	infoRustHex = "03 08 10 00 | 08 72 75 73 74 2d 73 64 6b | 08 30 2e 37 2e 30 2d c3 9f"
	infoRust    = codec.ClientVersionInfo{Protocol: 0x00100803, SDKName: []byte("rust-sdk"), SDKVersion: []byte("0.7.0-ß")}

	// Reserved bits set (decodes as a plain u32), 255-byte fields: 127 × é
	// (c3 a9) then x, and 255 × v.
	infoLongHex = "00 00 00 c0 | ff " + strings.Repeat("c3 a9 ", 127) + "78 | ff " + strings.Repeat("76 ", 255)
	infoLong    = codec.ClientVersionInfo{
		Protocol:   0xC000_0000,
		SDKName:    []byte(strings.Repeat("é", 127) + "x"),
		SDKVersion: []byte(strings.Repeat("v", 255)),
	}
)

// LoginRegister goldens (WIRE.md section 3, code 40).
var (
	loginIggyHex = infoGoSDKHex + "| 04 69 67 67 79 | 04 69 67 67 79 | 00 00 00 00"
	loginIggy    = codec.LoginRegister{Info: infoGoSDK, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}

	// "jürgen", "pässwörd", context "日本".
	loginUTF8Hex = infoRustHex + "| 07 6a c3 bc 72 67 65 6e | 0a 70 c3 a4 73 73 77 c3 b6 72 64 | 06 00 00 00 e6 97 a5 e6 9c ac"
	loginUTF8    = codec.LoginRegister{Info: infoRust, Username: []byte("jürgen"), Password: codec.NewSecret([]byte("pässwörd")), Context: []byte("日本")}

	// 255-byte username, empty password (allowed), no context.
	loginLongHex = infoGoSDKHex + "| ff " + strings.Repeat("61 ", 255) + "| 00 | 00 00 00 00"
	loginLong    = codec.LoginRegister{Info: infoGoSDK, Username: []byte(strings.Repeat("a", 255))}
)

// LoginRegisterPAT goldens (WIRE.md section 3, code 45).
var (
	patTokHex = infoGoSDKHex + "| 03 74 6f 6b | 03 00 00 00 63 74 78"
	patTok    = codec.LoginRegisterPAT{Info: infoGoSDK, Token: codec.NewSecret([]byte("tok")), Context: []byte("ctx")}

	patLongHex = infoLongHex + "| ff " + strings.Repeat("54 ", 255) + "| 00 00 00 00"
	patLong    = codec.LoginRegisterPAT{Info: infoLong, Token: codec.NewSecret([]byte(strings.Repeat("T", 255)))}

	patEmptyHex = infoRustHex + "| 00 | 00 00 00 00"
	patEmpty    = codec.LoginRegisterPAT{Info: infoRust}
)

// LoginReply goldens (WIRE.md section 4).
var (
	// user 1, session 42, 0.11.0, "0.6.0".
	replyBodyHex = "01 00 00 00 | 2a 00 00 00 00 00 00 00 | 00 2c 00 00 | 05 30 2e 36 2e 30"
	replyBody    = codec.LoginReply{UserID: 1, Session: 42, ServerProtocol: 0x2C00, ServerVersion: []byte("0.6.0")}

	replyBodyUTF8Hex = "ef be ad de | 08 07 06 05 04 03 02 01 | 03 08 10 00 | 02 c3 bc"
	replyBodyUTF8    = codec.LoginReply{UserID: 0xdeadbeef, Session: 0x0102030405060708, ServerProtocol: 0x00100803, ServerVersion: []byte("ü")}

	replyBodyLongHex = "00 00 00 00 | ff ff ff ff ff ff ff ff | 00 00 00 00 | ff " + strings.Repeat("39 ", 255)
	replyBodyLong    = codec.LoginReply{Session: ^uint64(0), ServerVersion: []byte(strings.Repeat("9", 255))}
)

// Request header goldens (WIRE.md section 5).
var (
	// A Register request carrying every prologue field, so that decoding
	// and re-encoding must keep them.
	reqRegisterHex = hdr256(
		at{0, "01"},                        // checksum lo = 1
		at{24, "02"},                       // checksum_body hi = 2
		at{32, "03"},                       // cluster = 3
		at{48, "2c 01 00 00"},              // size 300
		at{52, "07 00 00 00"},              // view 7
		at{56, "02 01 00 00"},              // release 0x0102
		at{60, "05"},                       // command Request
		at{61, "09"},                       // replica 9
		at{128, clientBigHex},              // client
		at{144, "aa"},                      // request_checksum
		at{160, "88 77 66 55 44 33 22 11"}, // timestamp
		at{176, "01"},                      // operation Register; session and request 0
	)
	reqRegister = codec.RequestHeader{
		Checksum: codec.Uint128{Lo: 1}, ChecksumBody: codec.Uint128{Hi: 2}, Cluster: codec.Uint128{Lo: 3},
		Size: 300, View: 7, Release: 0x0102, Replica: 9,
		Client: clientBig, RequestChecksum: codec.Uint128{Lo: 0xaa},
		Timestamp: 0x1122334455667788, Operation: codec.OperationRegister,
	}

	// PING before login: NonReplicated, request 1, code 1 at 196.
	reqPingHex = hdr256(
		at{48, "00 01 00 00"},
		at{60, "05"},
		at{128, "05"},
		at{168, "01 00 00 00 00 00 00 00"},
		at{176, "02"},
		at{196, "01 00 00 00"},
	)
	reqPing = codec.RequestHeader{Size: 256, Client: client5, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodePing}

	// GetClusterMetadata after login: session 7, user_id 0x01020304, code 12.
	reqMetadataHex = hdr256(
		at{48, "00 01 00 00"},
		at{60, "05"},
		at{128, "05"},
		at{168, "02"},
		at{176, "02"},
		at{184, "07"},
		at{192, "04 03 02 01"},
		at{196, "0c 00 00 00"},
	)
	reqMetadata = codec.RequestHeader{Size: 256, Client: client5, Request: 2, Operation: codec.OperationNonReplicated,
		Session: 7, UserID: 0x01020304, Code: codec.CodeGetClusterMetadata}

	// Logout: operation 3, request 2, session 0x10, empty body.
	reqLogoutHex = hdr256(
		at{48, "00 01 00 00"},
		at{60, "05"},
		at{128, "05"},
		at{168, "02"},
		at{176, "03"},
		at{184, "10"},
	)
	reqLogout = codec.RequestHeader{Size: 256, Client: client5, Request: 2, Operation: codec.OperationLogout, Session: 0x10}
)

// Reply header goldens.
var (
	// A login reply header: size 282 = 256 + 4 (result section) + 22.
	repOKHex = hdr256(
		at{48, "1a 01 00 00"},
		at{52, "00 00 00 01"}, // view 1<<24
		at{60, "08"},
		at{128, "01"}, // request_checksum
		at{144, "02"}, // context
		at{160, "05"}, // client
		at{176, "0a"}, // op
		at{184, "0b"}, // commit
		at{192, "0c"}, // timestamp
		at{208, "01"}, // operation Register, request 0, status 0
	)
	repOK = codec.ReplyHeader{Size: 282, View: 1 << 24, RequestChecksum: codec.Uint128{Lo: 1}, Context: codec.Uint128{Lo: 2},
		Client: client5, Op: 10, Commit: 11, Timestamp: 12, Operation: codec.OperationRegister}

	// A denial: status 40, no body, request 3 and operation NonReplicated echoed.
	repDenyHex = hdr256(
		at{48, "00 01 00 00"},
		at{60, "08"},
		at{160, clientBigHex},
		at{200, "03"},
		at{208, "02"},
		at{216, "28 00 00 00"},
	)
	repDeny = codec.ReplyHeader{Size: 256, Client: clientBig, Request: 3, Operation: codec.OperationNonReplicated, Status: codec.StatusUnauthenticated}
)

// Eviction goldens.
var (
	// Reason 14 with window max 0.11.0 at 144 and min 0.10.0 at 148.
	ev14Hex = hdr256(
		at{48, "00 01 00 00"},
		at{60, "0d"},
		at{128, "05"},
		at{144, "00 2c 00 00"},
		at{148, "00 28 00 00"},
		at{255, "0e"},
	)
	ev14 = codec.Eviction{Client: client5, Window: codec.Window{Min: 0x2800, Max: 0x2C00}, Reason: codec.ReasonIncompatibleProtocol}

	// Reason 1 (NoSession), window zero, prologue fields carried.
	ev1Hex = hdr256(
		at{8, "ff"},           // checksum hi
		at{48, "00 01 00 00"}, // size 256
		at{56, "01 00 00 00"}, // release 1
		at{60, "0d"},
		at{61, "02"},
		at{128, clientBigHex},
		at{255, "01"},
	)
	ev1 = codec.Eviction{Checksum: codec.Uint128{Hi: 0xff}, Release: 1, Replica: 2, Client: clientBig, Reason: codec.ReasonNoSession}
)

// encoder is what every message type offers.
type encoder interface {
	AppendBinary([]byte) ([]byte, error)
	EncodedLen() int
}

// golden is one valid input with its decoded value.
type golden struct {
	name   string
	wire   []byte
	want   encoder // the value, or for a header a pointer to it
	value  any     // the value, as a decoder returns it
	header bool
	decode func([]byte) (any, int, error) // prefix decode; n is 256 for headers
	parse  func([]byte) (any, error)      // whole-input parse; nil for headers
}

func bodyGolden[T encoder](name string, wire []byte, want T, dec func([]byte) (T, int, error), parse func([]byte) (T, error)) golden {
	return golden{
		name: name, wire: wire, want: want, value: want,
		decode: func(b []byte) (any, int, error) { return dec(b) },
		parse:  func(b []byte) (any, error) { return parse(b) },
	}
}

// headerGolden is a header's golden: the headers encode through a pointer.
func headerGolden[T any, PT interface {
	*T
	encoder
}](name string, wire []byte, want T, dec func([]byte) (T, error)) golden {
	return golden{
		name: name, wire: wire, want: PT(&want), value: want, header: true,
		decode: func(b []byte) (any, int, error) { v, err := dec(b); return v, 256, err },
	}
}

// goldens is every valid golden input of the package.
var goldens = []golden{
	bodyGolden("info/go-sdk", hx(infoGoSDKHex), infoGoSDK, codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo),
	bodyGolden("info/utf8", hx(infoRustHex), infoRust, codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo),
	bodyGolden("info/255", hx(infoLongHex), infoLong, codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo),
	bodyGolden("login/iggy", hx(loginIggyHex), loginIggy, codec.DecodeLoginRegister, codec.ParseLoginRegister),
	bodyGolden("login/utf8", hx(loginUTF8Hex), loginUTF8, codec.DecodeLoginRegister, codec.ParseLoginRegister),
	bodyGolden("login/255", hx(loginLongHex), loginLong, codec.DecodeLoginRegister, codec.ParseLoginRegister),
	bodyGolden("pat/tok", hx(patTokHex), patTok, codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT),
	bodyGolden("pat/255", hx(patLongHex), patLong, codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT),
	bodyGolden("pat/empty", hx(patEmptyHex), patEmpty, codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT),
	bodyGolden("reply/1", hx(replyBodyHex), replyBody, codec.DecodeLoginReply, codec.ParseLoginReply),
	bodyGolden("reply/utf8", hx(replyBodyUTF8Hex), replyBodyUTF8, codec.DecodeLoginReply, codec.ParseLoginReply),
	bodyGolden("reply/255", hx(replyBodyLongHex), replyBodyLong, codec.DecodeLoginReply, codec.ParseLoginReply),
	headerGolden("request/register", reqRegisterHex, reqRegister, codec.DecodeRequestHeader),
	headerGolden("request/ping", reqPingHex, reqPing, codec.DecodeRequestHeader),
	headerGolden("request/metadata", reqMetadataHex, reqMetadata, codec.DecodeRequestHeader),
	headerGolden("request/logout", reqLogoutHex, reqLogout, codec.DecodeRequestHeader),
	headerGolden("reply/ok", repOKHex, repOK, codec.DecodeReplyHeader),
	headerGolden("reply/deny", repDenyHex, repDeny, codec.DecodeReplyHeader),
	headerGolden("eviction/14", ev14Hex, ev14, codec.DecodeEviction),
	headerGolden("eviction/1", ev1Hex, ev1, codec.DecodeEviction),
}

// TestGoldenDecode decodes each golden and compares it with the value
// written from WIRE.md; the prefix decoder ignores a trailing byte and the
// whole-input parser rejects it.
func TestGoldenDecode(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			extra := append(append([]byte{}, g.wire...), 0x99)
			for _, in := range []struct {
				what, note string
				src        []byte
			}{
				{"decode", "", g.wire},
				{"decode with a trailing byte", " (a prefix decode stops at the last field)", extra},
			} {
				v, n, err := g.decode(in.src)
				if err != nil {
					t.Fatalf("%s: err = %v", in.what, err)
				}
				if !sameValue(v, g.value) {
					t.Fatalf("%s: value = %+v, want %+v", in.what, v, g.value)
				}
				if n != len(g.wire) {
					t.Fatalf("%s: bytes used = %d, want %d%s", in.what, n, len(g.wire), in.note)
				}
			}
			if g.parse == nil {
				return
			}
			v, err := g.parse(g.wire)
			if err != nil {
				t.Fatalf("parse: err = %v", err)
			}
			if !sameValue(v, g.value) {
				t.Fatalf("parse: value = %+v, want %+v", v, g.value)
			}
			_, err = g.parse(extra)
			wantErr(t, err, codec.ErrTrailing, "body", len(g.wire))
		})
	}
}

// TestGoldenEncode encodes each golden value after a prefix the encoder
// must keep, and compares with the hand-written bytes.
func TestGoldenEncode(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			if got := g.want.EncodedLen(); got != len(g.wire) {
				t.Fatalf("EncodedLen() = %d, want %d", got, len(g.wire))
			}
			out, err := g.want.AppendBinary([]byte{0xab, 0xcd})
			if err != nil {
				t.Fatalf("AppendBinary: err = %v", err)
			}
			if want := cat([]byte{0xab, 0xcd}, g.wire); !bytes.Equal(out, want) {
				t.Fatalf("encoding = %x, want %x", out, want)
			}
		})
	}
}

// TestGoldenTruncated cuts every golden at every length: each cut is
// ErrTruncated, never a panic; a header cut at n reports offset n.
func TestGoldenTruncated(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			for n := range len(g.wire) {
				cut := g.wire[:n:n]
				_, _, err := g.decode(cut)
				if g.header {
					wantErr(t, err, codec.ErrTruncated, "header", n)
					continue
				}
				if !errors.Is(err, codec.ErrTruncated) {
					t.Fatalf("decode, cut at %d: err = %v, want %v", n, err, codec.ErrTruncated)
				}
				codecError(t, err)
				_, err = g.parse(cut)
				if !errors.Is(err, codec.ErrTruncated) {
					t.Fatalf("parse, cut at %d: err = %v, want %v", n, err, codec.ErrTruncated)
				}
				codecError(t, err)
			}
		})
	}
}

// TestGoldenRequestFrame builds a login request frame: the Register header
// (its size set by AppendRequestFrame to 256 + 31) then the password body.
func TestGoldenRequestFrame(t *testing.T) {
	want := cat(hdr256(
		at{48, "1f 01 00 00"}, // size 287
		at{60, "05"},
		at{128, "05"},
		at{176, "01"},
	), hx(loginIggyHex))
	body, err := loginIggy.AppendBinary(nil)
	if err != nil {
		t.Fatalf("AppendBinary: err = %v", err)
	}
	out, err := codec.AppendRequestFrame([]byte{}, codec.RequestHeader{Client: client5, Operation: codec.OperationRegister}, body)
	if err != nil {
		t.Fatalf("AppendRequestFrame: err = %v", err)
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("frame = %x, want %x", out, want)
	}
}

// TestGoldenReplyFrames checks AppendReplyFrame (a ping reply, empty body)
// and AppendLoginReplyFrame (header, 00 00 00 00, login reply).
func TestGoldenReplyFrames(t *testing.T) {
	t.Run("ping", func(t *testing.T) {
		want := hdr256(at{48, "00 01 00 00"}, at{60, "08"}, at{160, "05"}, at{200, "01"}, at{208, "02"})
		out, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: client5, Request: 1, Operation: codec.OperationNonReplicated}, nil)
		if err != nil {
			t.Fatalf("AppendReplyFrame: err = %v", err)
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("frame = %x, want %x", out, want)
		}
	})
	t.Run("login", func(t *testing.T) {
		want := cat(hdr256(
			at{48, "1a 01 00 00"}, // 282 = 256 + 4 + 22
			at{60, "08"},
			at{160, "05"},
			at{184, "0b"},
			at{208, "01"},
		), hx("00 00 00 00"), hx(replyBodyHex))
		h := codec.ReplyHeader{Size: 1, Client: client5, Commit: 11, Operation: codec.OperationRegister} // Size is overwritten
		out, err := codec.AppendLoginReplyFrame([]byte{}, h, replyBody)
		if err != nil {
			t.Fatalf("AppendLoginReplyFrame: err = %v", err)
		}
		if !bytes.Equal(out, want) {
			t.Fatalf("frame = %x, want %x", out, want)
		}

		// And back: header, result section, body.
		got, err := codec.DecodeReplyHeader(out)
		if err != nil {
			t.Fatalf("DecodeReplyHeader: err = %v", err)
		}
		if got.Size != uint32(282) {
			t.Fatalf("size = %d, want 282", got.Size)
		}
		payload, code, err := codec.SplitResult(out[256:got.Size])
		if err != nil {
			t.Fatalf("SplitResult: err = %v", err)
		}
		if code != codec.StatusOK {
			t.Fatalf("code = %d, want 0", code)
		}
		reply, err := codec.ParseLoginReply(payload)
		if err != nil {
			t.Fatalf("ParseLoginReply: err = %v", err)
		}
		if !sameValue(reply, replyBody) {
			t.Fatalf("reply = %+v, want %+v", reply, replyBody)
		}
	})
}

// TestGoldenSplitResult covers the result section rules of WIRE.md
// section 4.
func TestGoldenSplitResult(t *testing.T) {
	ok := []struct {
		name    string
		body    string
		payload string
		code    codec.Status
	}{
		{"count 0 with payload", "00 00 00 00 | aa bb", "aa bb", 0},
		{"count 0 no payload", "00 00 00 00", "", 0},
		{"first result 0", "01 00 00 00 | 00 00 00 00 00 00 00 00 | cc", "cc", 0},
		{"first result 42, no payload", "01 00 00 00 | 00 00 00 00 2a 00 00 00 | cc", "", 42},
		{"first result decides", "02 00 00 00 | 07 00 00 00 00 00 00 00 | 01 00 00 00 05 00 00 00 | dd", "dd", 0},
		{"u32 code", "01 00 00 00 | 00 00 00 00 04 03 02 01", "", 0x01020304},
		{"login reply", "00 00 00 00 |" + replyBodyHex, replyBodyHex, 0},
	}
	for _, c := range ok {
		t.Run(c.name, func(t *testing.T) {
			payload, code, err := codec.SplitResult(hx(c.body))
			if err != nil {
				t.Fatalf("SplitResult(%s): err = %v", c.body, err)
			}
			if code != c.code {
				t.Fatalf("code = %d, want %d", code, c.code)
			}
			if c.payload == "" {
				if payload != nil {
					t.Fatalf("payload = %#v, want nil", payload)
				}
				return
			}
			if want := hx(c.payload); !bytes.Equal(payload, want) {
				t.Fatalf("payload = %x, want %x", payload, want)
			}
			if cap(payload) != len(payload) {
				t.Fatalf("payload capacity = %d, want its length %d", cap(payload), len(payload))
			}
		})
	}
	bad := []struct {
		name  string
		body  string
		field string
		off   int
	}{
		{"empty body", "", "result_count", 0},
		{"3 bytes", "00 00 00", "result_count", 0},
		{"count 1, 7 entry bytes", "01 00 00 00 | 00 00 00 00 00 00 00", "result_entries", 4},
		{"count 2, one entry", "02 00 00 00 | 00 00 00 00 00 00 00 00", "result_entries", 4},
		{"count 2^32-1", "ff ff ff ff | 00 00 00 00 00 00 00 00", "result_entries", 4},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			payload, code, err := codec.SplitResult(hx(c.body))
			wantErr(t, err, codec.ErrTruncated, c.field, c.off)
			if payload != nil {
				t.Fatalf("payload = %#v, want nil", payload)
			}
			if code != codec.StatusOK {
				t.Fatalf("code = %d, want 0", code)
			}
		})
	}
}
