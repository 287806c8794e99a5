package refcodec

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Client id used in the golden headers: Lo 0x1122334455667788, Hi
// 0x99aabbccddeeff00, so the bytes at the client offset are Lo then Hi, each
// little-endian.
const goldenClientHex = "8877665544332211" + "00ffeeddccbbaa99"

var goldenClient = Uint128{Lo: 0x1122334455667788, Hi: 0x99aabbccddeeff00}

// pingRequest is a PING request header (WIRE.md 5 and 7.3): size 256,
// command 5, client id, request 1, operation NonReplicated, code 1 at 196.
func pingRequest(t testing.TB) []byte {
	return header256(t, map[int]string{
		48:  "00010000",
		60:  "05",
		128: goldenClientHex,
		168: "0100000000000000",
		176: "02",
		196: "01000000",
	})
}

// logoutRequest is a Logout request header: operation 3, session 9,
// request 4, body-less (size 256), with every prologue field set.
func logoutRequest(t testing.TB) []byte {
	return header256(t, map[int]string{
		0:   "0102030405060708" + "090a0b0c0d0e0f10", // checksum
		16:  "1112131415161718" + "191a1b1c1d1e1f20", // checksum_body
		32:  "2122232425262728" + "292a2b2c2d2e2f30", // cluster
		48:  "00010000",                              // size 256
		52:  "31323334",                              // view
		56:  "35363738",                              // release
		60:  "05",                                    // command Request
		61:  "07",                                    // replica
		128: goldenClientHex,
		144: "4142434445464748" + "494a4b4c4d4e4f50", // request_checksum
		160: "5152535455565758",                      // timestamp
		168: "0400000000000000",                      // request 4
		176: "03",                                    // Logout
		184: "0900000000000000",                      // session 9
		192: "2a000000",                              // user_id 42
	})
}

// registerRequest is a Register request header with a 300-byte frame.
func registerRequest(t testing.TB) []byte {
	return header256(t, map[int]string{
		48:  "2c010000", // 300
		60:  "05",
		128: goldenClientHex,
		176: "01",
	})
}

func TestRequestHeaderGolden(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want RequestHeader
	}{
		{"ping", pingRequest(t), RequestHeader{Size: 256, Client: goldenClient, Request: 1, Operation: OpNonReplicated, Code: 1}},
		{"register", registerRequest(t), RequestHeader{Size: 300, Client: goldenClient, Operation: OpRegister}},
		{"logout", logoutRequest(t), RequestHeader{
			Checksum:        Uint128{Lo: 0x0807060504030201, Hi: 0x100f0e0d0c0b0a09},
			ChecksumBody:    Uint128{Lo: 0x1817161514131211, Hi: 0x201f1e1d1c1b1a19},
			Cluster:         Uint128{Lo: 0x2827262524232221, Hi: 0x302f2e2d2c2b2a29},
			Size:            256,
			View:            0x34333231,
			Release:         0x38373635,
			Replica:         7,
			Client:          goldenClient,
			RequestChecksum: Uint128{Lo: 0x4847464544434241, Hi: 0x504f4e4d4c4b4a49},
			Timestamp:       0x5857565554535251,
			Request:         4,
			Operation:       OpLogout,
			Session:         9,
			UserID:          42,
		}},
	}
	for _, c := range cases {
		got, err := DecodeRequestHeader(c.src)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, got, c.name)
		// Bytes after the header are ignored.
		got, err = DecodeRequestHeader(append(append([]byte{}, c.src...), 1, 2, 3))
		require.NoError(t, err, "%s with a body", c.name)
		assert.Equal(t, c.want, got, "%s with a body", c.name)
		enc, err := EncodeRequestHeader(c.want)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.src, enc, c.name)
	}
}

// poke returns a copy of src with the hex bytes written at each offset.
func poke(t testing.TB, src []byte, at map[int]string) []byte {
	t.Helper()
	b := append([]byte{}, src...)
	for off, h := range at {
		copy(b[off:], unhex(t, h))
	}
	return b
}

func TestDecodeRequestHeaderErrors(t *testing.T) {
	ping := pingRequest(t)
	logout := logoutRequest(t)
	reg := registerRequest(t)
	cases := []struct {
		name  string
		src   []byte
		class Class
	}{
		{"empty", nil, Truncated},
		{"255 bytes", ping[:255], Truncated},
		{"command 8", poke(t, ping, map[int]string{60: "08"}), Command},
		{"command 0", poke(t, ping, map[int]string{60: "00"}), Command},
		{"command before size", poke(t, ping, map[int]string{60: "0d", 48: "00000000"}), Command},
		{"size 255", poke(t, ping, map[int]string{48: "ff000000"}), Size},
		{"size 0", poke(t, ping, map[int]string{48: "00000000"}), Size},
		{"size 64MiB", poke(t, ping, map[int]string{48: "00000004"}), OK},
		{"size 64MiB+1", poke(t, ping, map[int]string{48: "01000004"}), Size},
		{"size max", poke(t, ping, map[int]string{48: "ffffffff"}), Size},
		{"size before client", poke(t, ping, map[int]string{48: "00000000", 128: "00000000000000000000000000000000"}), Size},
		{"client 0", poke(t, ping, map[int]string{128: "00000000000000000000000000000000"}), Field},
		{"client hi only", poke(t, ping, map[int]string{128: "0000000000000000"}), OK},
		{"client lo only", poke(t, ping, map[int]string{136: "0000000000000000"}), OK},
		{"client before reserved", poke(t, ping, map[int]string{128: "00000000000000000000000000000000", 100: "01"}), Field},
		{"operation 0", poke(t, ping, map[int]string{176: "00"}), Field},
		{"operation 4", poke(t, logout, map[int]string{176: "04"}), Field},
		{"operation 63", poke(t, logout, map[int]string{176: "3f"}), Field},
		{"operation 64", poke(t, logout, map[int]string{176: "40"}), OK},
		{"operation 68", poke(t, logout, map[int]string{176: "44"}), OK},
		{"operation 69", poke(t, logout, map[int]string{176: "45"}), Field},
		{"operation 128", poke(t, logout, map[int]string{176: "80"}), OK},
		{"operation 149", poke(t, logout, map[int]string{176: "95"}), OK},
		{"operation 150", poke(t, logout, map[int]string{176: "96"}), Field},
		{"operation 160", poke(t, logout, map[int]string{176: "a0"}), OK},
		{"operation 162", poke(t, logout, map[int]string{176: "a2"}), OK},
		{"operation 163", poke(t, logout, map[int]string{176: "a3"}), Field},
		{"operation 255", poke(t, logout, map[int]string{176: "ff"}), Field},
		{"operation before reserved", poke(t, logout, map[int]string{176: "00", 62: "01"}), Field},
		{"register with session", poke(t, reg, map[int]string{184: "01"}), Field},
		{"register with request", poke(t, reg, map[int]string{168: "01"}), Field},
		{"register with code", poke(t, reg, map[int]string{196: "28"}), Reserved},
		{"nonreplicated code 0", poke(t, ping, map[int]string{196: "00000000"}), Field},
		{"nonreplicated code in high byte", poke(t, ping, map[int]string{196: "00000001"}), OK},
		{"nonreplicated session and request free", poke(t, ping, map[int]string{168: "0000000000000000", 184: "05"}), OK},
		{"nonreplicated code 0 before reserved", poke(t, ping, map[int]string{196: "00000000", 62: "01"}), Field},
		{"logout session 0", poke(t, logout, map[int]string{184: "0000000000000000"}), Field},
		{"logout request 0", poke(t, logout, map[int]string{168: "0000000000000000"}), Field},
		{"logout session 0 and request 0", poke(t, logout, map[int]string{184: "0000000000000000", 168: "0000000000000000"}), Field},
		{"logout code", poke(t, logout, map[int]string{199: "01"}), Reserved},
		{"reserved_frame 62", poke(t, ping, map[int]string{62: "01"}), Reserved},
		{"reserved_frame 127", poke(t, ping, map[int]string{127: "80"}), Reserved},
		{"padding 177", poke(t, ping, map[int]string{177: "01"}), Reserved},
		{"padding 183", poke(t, ping, map[int]string{183: "01"}), Reserved},
		{"reserved 200", poke(t, ping, map[int]string{200: "01"}), Reserved},
		{"reserved 255", poke(t, ping, map[int]string{255: "01"}), Reserved},
		{"user_id free", poke(t, ping, map[int]string{192: "ffffffff"}), OK},
		{"timestamp and checksums free", poke(t, ping, map[int]string{0: "ff", 16: "ff", 32: "ff", 144: "ff", 160: "ff", 52: "ff", 56: "ff", 61: "ff"}), OK},
	}
	for _, c := range cases {
		_, err := DecodeRequestHeader(c.src)
		assert.Equal(t, c.class, ClassOf(err), c.name)
	}
	// Code is 0 in the decoded value unless the operation is NonReplicated.
	h, err := DecodeRequestHeader(logout)
	require.NoError(t, err)
	assert.Zero(t, h.Code, "logout code")
}

func TestEncodeRequestHeaderErrors(t *testing.T) {
	ok := RequestHeader{Size: 256, Client: goldenClient, Operation: OpLogout, Session: 1, Request: 1}
	with := func(f func(*RequestHeader)) RequestHeader { h := ok; f(&h); return h }
	cases := []struct {
		name  string
		h     RequestHeader
		class Class
	}{
		{"ok", ok, OK},
		{"size 0", with(func(h *RequestHeader) { h.Size = 0; h.Client = Uint128{} }), Size},
		{"size big", with(func(h *RequestHeader) { h.Size = 64<<20 + 1 }), Size},
		{"client 0", with(func(h *RequestHeader) { h.Client = Uint128{}; h.Operation = 0 }), Field},
		{"operation 0", with(func(h *RequestHeader) { h.Operation = 0 }), Field},
		{"operation unknown", with(func(h *RequestHeader) { h.Operation = 200 }), Field},
		{"session 0", with(func(h *RequestHeader) { h.Session = 0; h.Code = 5 }), Field},
		{"request 0", with(func(h *RequestHeader) { h.Request = 0 }), Field},
		{"code on logout", with(func(h *RequestHeader) { h.Code = 1 }), Reserved},
		{"code on register", RequestHeader{Size: 256, Client: goldenClient, Operation: OpRegister, Code: 40}, Reserved},
		{"register session", RequestHeader{Size: 256, Client: goldenClient, Operation: OpRegister, Session: 1, Code: 40}, Field},
		{"nonreplicated code 0", RequestHeader{Size: 256, Client: goldenClient, Operation: OpNonReplicated}, Field},
		{"nonreplicated", RequestHeader{Size: 256, Client: goldenClient, Operation: OpNonReplicated, Code: 12, Session: 3}, OK},
	}
	for _, c := range cases {
		enc, err := EncodeRequestHeader(c.h)
		assert.Equal(t, c.class, ClassOf(err), c.name)
		if err == nil {
			assert.Len(t, enc, 256, c.name)
		} else {
			assert.Nil(t, enc, "%s: bytes with an error", c.name)
		}
	}
}

// pingReply answers pingRequest (WIRE.md 7.3): status 0, operation
// NonReplicated, client and request echoed, empty body.
func pingReply(t testing.TB) []byte {
	return header256(t, map[int]string{
		48:  "00010000",
		60:  "08",
		160: goldenClientHex,
		200: "0100000000000000",
		208: "02",
	})
}

// loginReplyHeader is a Register reply with a body (size 256 + 4 + 27).
func loginReplyHeader(t testing.TB) []byte {
	return header256(t, map[int]string{
		0:   "aa",                                    // checksum (carried)
		48:  "1f010000",                              // size 287
		52:  "01000000",                              // view
		56:  "02000000",                              // release
		60:  "08",                                    // command Reply
		61:  "03",                                    // replica
		128: "0102030405060708" + "0900000000000000", // request_checksum
		144: "1100000000000000" + "2200000000000000", // context
		160: goldenClientHex,                         // client
		176: "0500000000000000",                      // op
		184: "0600000000000000",                      // commit
		192: "0700000000000000",                      // timestamp
		208: "01",                                    // Register
	})
}

func TestReplyHeaderGolden(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want ReplyHeader
	}{
		{"ping", pingReply(t), ReplyHeader{Size: 256, Client: goldenClient, Request: 1, Operation: OpNonReplicated}},
		{"login", loginReplyHeader(t), ReplyHeader{
			Checksum:        Uint128{Lo: 0xaa},
			Size:            287,
			View:            1,
			Release:         2,
			Replica:         3,
			RequestChecksum: Uint128{Lo: 0x0807060504030201, Hi: 9},
			Context:         Uint128{Lo: 0x11, Hi: 0x22},
			Client:          goldenClient,
			Op:              5,
			Commit:          6,
			Timestamp:       7,
			Operation:       OpRegister,
		}},
		{"deny 40", poke(t, pingReply(t), map[int]string{216: "28000000"}), ReplyHeader{Size: 256, Client: goldenClient, Request: 1, Operation: OpNonReplicated, Status: 40}},
	}
	for _, c := range cases {
		got, err := DecodeReplyHeader(c.src)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, got, c.name)
		enc, err := EncodeReplyHeader(c.want)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.src, enc, c.name)
	}
}

func TestDecodeReplyHeaderErrors(t *testing.T) {
	ping := pingReply(t)
	login := loginReplyHeader(t)
	cases := []struct {
		name  string
		src   []byte
		class Class
	}{
		{"short", ping[:200], Truncated},
		{"command 5", poke(t, ping, map[int]string{60: "05"}), Command},
		{"size 255", poke(t, ping, map[int]string{48: "ff000000"}), Size},
		{"size too big", poke(t, ping, map[int]string{48: "01000004"}), Size},
		{"operation 0 echoed", poke(t, ping, map[int]string{208: "00"}), OK},
		{"operation 3", poke(t, ping, map[int]string{208: "03"}), OK},
		{"operation 4", poke(t, ping, map[int]string{208: "04"}), Field},
		{"operation 161", poke(t, ping, map[int]string{208: "a1"}), OK},
		{"operation 255 before status", poke(t, login, map[int]string{208: "ff", 216: "01"}), Field},
		{"client 0 allowed", poke(t, ping, map[int]string{160: "00000000000000000000000000000000"}), OK},
		{"denial with body", poke(t, login, map[int]string{216: "03000000"}), Field},
		{"denial with body before reserved", poke(t, login, map[int]string{216: "03000000", 62: "01"}), Field},
		{"denial without body", poke(t, ping, map[int]string{216: "03000000"}), OK},
		{"reserved_frame", poke(t, login, map[int]string{100: "01"}), Reserved},
		{"padding 209", poke(t, login, map[int]string{209: "01"}), Reserved},
		{"padding 215", poke(t, login, map[int]string{215: "01"}), Reserved},
		{"reserved 220", poke(t, login, map[int]string{220: "01"}), Reserved},
		{"reserved 255", poke(t, login, map[int]string{255: "01"}), Reserved},
	}
	for _, c := range cases {
		_, err := DecodeReplyHeader(c.src)
		assert.Equal(t, c.class, ClassOf(err), c.name)
	}
}

func TestEncodeReplyHeaderErrors(t *testing.T) {
	cases := []struct {
		name  string
		h     ReplyHeader
		class Class
	}{
		{"ok", ReplyHeader{Size: 300}, OK},
		{"size 0", ReplyHeader{Operation: 99}, Size},
		{"operation unknown", ReplyHeader{Size: 300, Operation: 99, Status: 1}, Field},
		{"denial with body", ReplyHeader{Size: 300, Status: 1}, Field},
		{"denial", ReplyHeader{Size: 256, Status: 40}, OK},
	}
	for _, c := range cases {
		enc, err := EncodeReplyHeader(c.h)
		assert.Equal(t, c.class, ClassOf(err), c.name)
		if err == nil && assert.Len(t, enc, 256, c.name) {
			assert.Equal(t, byte(8), enc[60], "%s: command", c.name)
		}
	}
}

// incompatibleEviction is an Eviction with reason 14 carrying the window
// {min 0.11.0, max 0.11.3} (max at 144, min at 148).
func incompatibleEviction(t testing.TB) []byte {
	return header256(t, map[int]string{
		48:  "00010000",
		60:  "0d",
		128: goldenClientHex,
		144: "032c0000",
		148: "002c0000",
		255: "0e",
	})
}

// malformedEviction is an Eviction with reason 15 and a zero window.
func malformedEviction(t testing.TB) []byte {
	return header256(t, map[int]string{
		48:  "00010000",
		60:  "0d",
		128: goldenClientHex,
		255: "0f",
	})
}

func TestEvictionGolden(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want Eviction
	}{
		{"incompatible", incompatibleEviction(t), Eviction{Client: goldenClient, Window: Window{Min: 0x2C00, Max: 0x2C03}, Reason: 14}},
		{"malformed", malformedEviction(t), Eviction{Client: goldenClient, Reason: 15}},
		{"prologue", poke(t, malformedEviction(t), map[int]string{0: "01", 31: "02", 47: "03", 52: "04", 56: "05", 61: "06"}), Eviction{
			Checksum: Uint128{Lo: 1}, ChecksumBody: Uint128{Hi: 0x0200000000000000}, Cluster: Uint128{Hi: 0x0300000000000000},
			View: 4, Release: 5, Replica: 6, Client: goldenClient, Reason: 15,
		}},
	}
	for _, c := range cases {
		got, err := DecodeEviction(c.src)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.want, got, c.name)
		enc, err := EncodeEviction(c.want)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.src, enc, c.name)
	}
}

func TestDecodeEvictionErrors(t *testing.T) {
	inc := incompatibleEviction(t)
	mal := malformedEviction(t)
	zero16 := "00000000000000000000000000000000"
	cases := []struct {
		name  string
		src   []byte
		class Class
	}{
		{"short", inc[:255], Truncated},
		{"command 8", poke(t, inc, map[int]string{60: "08"}), Command},
		{"size 257", poke(t, inc, map[int]string{48: "01010000"}), Size},
		{"size 512", poke(t, inc, map[int]string{48: "00020000"}), Size},
		{"size before client", poke(t, inc, map[int]string{48: "00000000", 128: zero16}), Size},
		{"client 0", poke(t, inc, map[int]string{128: zero16, 62: "01"}), Field},
		{"reserved_frame", poke(t, inc, map[int]string{62: "01", 200: "01", 255: "00"}), Reserved},
		{"reserved 152", poke(t, inc, map[int]string{152: "01", 255: "00"}), Reserved},
		{"reserved 254", poke(t, inc, map[int]string{254: "01", 255: "ff"}), Reserved},
		{"reason 0", poke(t, mal, map[int]string{255: "00", 144: "01"}), Reason},
		{"reason 16", poke(t, mal, map[int]string{255: "10"}), Reason},
		{"reason 255", poke(t, mal, map[int]string{255: "ff"}), Reason},
		{"reason 1..15 zero window", poke(t, mal, map[int]string{255: "01"}), OK},
		{"reason 13 zero window", poke(t, mal, map[int]string{255: "0d"}), OK},
		{"reason 14 zero window", poke(t, mal, map[int]string{255: "0e"}), BadWindow},
		{"reason 14 min 0", poke(t, inc, map[int]string{148: "00000000"}), BadWindow},
		{"reason 14 min > max", poke(t, inc, map[int]string{144: "002c0000", 148: "032c0000"}), BadWindow},
		{"reason 14 min == max", poke(t, inc, map[int]string{148: "032c0000"}), OK},
		{"reason 14 min 1", poke(t, inc, map[int]string{148: "01000000"}), OK},
		{"reason 14 reserved bits", poke(t, inc, map[int]string{144: "ffffffff", 148: "ffffffff"}), OK},
		{"reason 15 max set", poke(t, mal, map[int]string{144: "01000000"}), BadWindow},
		{"reason 15 min set", poke(t, mal, map[int]string{148: "00000001"}), BadWindow},
		{"reason 1 well-formed window", poke(t, inc, map[int]string{255: "01"}), BadWindow},
	}
	for _, c := range cases {
		_, err := DecodeEviction(c.src)
		assert.Equal(t, c.class, ClassOf(err), c.name)
	}
}

func TestEncodeEvictionErrors(t *testing.T) {
	cases := []struct {
		name  string
		e     Eviction
		class Class
	}{
		{"ok", Eviction{Client: goldenClient, Reason: 1}, OK},
		{"client 0", Eviction{Reason: 0}, Field},
		{"reason 0", Eviction{Client: goldenClient, Window: Window{Min: 5}}, Reason},
		{"reason 16", Eviction{Client: goldenClient, Reason: 16}, Reason},
		{"reason 14 bad window", Eviction{Client: goldenClient, Reason: 14, Window: Window{Min: 2, Max: 1}}, BadWindow},
		{"reason 14", Eviction{Client: goldenClient, Reason: 14, Window: Window{Min: 1, Max: 1}}, OK},
		{"reason 9 window", Eviction{Client: goldenClient, Reason: 9, Window: Window{Min: 1, Max: 1}}, BadWindow},
	}
	for _, c := range cases {
		enc, err := EncodeEviction(c.e)
		assert.Equal(t, c.class, ClassOf(err), c.name)
		if err == nil && assert.Len(t, enc, 256, c.name) {
			assert.Equal(t, []byte{0, 1}, enc[48:50], "%s: size", c.name)
			assert.Equal(t, byte(13), enc[60], "%s: command", c.name)
		}
	}
}

func TestKnownOperation(t *testing.T) {
	known := map[int]bool{}
	for _, r := range [][2]int{{0, 3}, {64, 68}, {128, 149}, {160, 162}} {
		for op := r[0]; op <= r[1]; op++ {
			known[op] = true
		}
	}
	for op := 0; op < 256; op++ {
		assert.Equal(t, known[op], KnownOperation(uint8(op)), "KnownOperation(%d)", op)
	}
}

// TestKnownReasons: reasons 1..15 are known, every other byte is a Reason
// error, in the encoder and the decoder alike.
func TestKnownReasons(t *testing.T) {
	base, err := EncodeEviction(Eviction{Client: goldenClient, Reason: 1})
	require.NoError(t, err)
	for r := 0; r < 256; r++ {
		e := Eviction{Client: goldenClient, Reason: uint8(r)}
		if r == int(ReasonIncompatibleProtocol) {
			e.Window = Window{Min: 1, Max: 1}
		}
		want := OK
		if r < 1 || r > 15 {
			want = Reason
		}
		b, err := EncodeEviction(e)
		assert.Equal(t, want, ClassOf(err), "EncodeEviction reason %d", r)
		if err != nil {
			b = append([]byte(nil), base...)
			b[255] = uint8(r)
		}
		_, err = DecodeEviction(b)
		assert.Equal(t, want, ClassOf(err), "DecodeEviction reason %d", r)
	}
}

func TestPeekCommandAndFrameSize(t *testing.T) {
	for _, c := range []struct {
		src  []byte
		want uint8
	}{{pingRequest(t), 5}, {pingReply(t), 8}, {malformedEviction(t), 13}, {make([]byte, 256), 0}} {
		got, err := PeekCommand(c.src)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "PeekCommand")
	}
	_, err := PeekCommand(make([]byte, 255))
	assert.Equal(t, Truncated, ClassOf(err), "PeekCommand short")

	sizes := []struct {
		hex   string
		want  int
		class Class
	}{
		{"00010000", 256, OK},
		{"2c010000", 300, OK},
		{"00000004", 64 << 20, OK},
		{"01000004", 0, Size},
		{"ff000000", 0, Size},
		{"00000000", 0, Size},
		{"ffffffff", 0, Size},
	}
	for _, c := range sizes {
		src := header256(t, map[int]string{48: c.hex, 60: "ff"})
		got, err := FrameSize(src)
		assert.Equal(t, c.class, ClassOf(err), "FrameSize "+c.hex)
		assert.Equal(t, c.want, got, "FrameSize %s", c.hex)
	}
	_, err = FrameSize(make([]byte, 100))
	assert.Equal(t, Truncated, ClassOf(err), "FrameSize short")
}

func TestSplitResult(t *testing.T) {
	cases := []struct {
		hex     string
		payload string // hex, "" means nil
		code    uint32
		class   Class
	}{
		{"", "", 0, Truncated},
		{"000000", "", 0, Truncated},
		{"00000000", "", 0, OK},
		{"00000000" + "abcd", "abcd", 0, OK},
		{"01000000", "", 0, Truncated},
		{"01000000" + "00000000" + "000000", "", 0, Truncated},
		{"01000000" + "00000000" + "00000000", "", 0, OK},
		{"01000000" + "00000000" + "00000000" + "beef", "beef", 0, OK},
		{"01000000" + "00000000" + "2a000000" + "beef", "", 42, OK},
		{"02000000" + "00000000" + "00000000" + "01000000" + "05000000" + "ff", "ff", 0, OK}, // first entry decides
		{"02000000" + "00000000" + "03000000" + "01000000" + "00000000", "", 3, OK},
		{"02000000" + "00000000" + "03000000" + "010000", "", 0, Truncated}, // need the whole section
		{"ffffffff" + "00000000" + "00000000", "", 0, Truncated},            // no overflow
		{"00000020" + "00000000" + "00000000", "", 0, Truncated},            // 8*count beyond 2^32
	}
	for _, c := range cases {
		payload, code, err := SplitResult(unhex(t, c.hex))
		name := "SplitResult " + c.hex
		assert.Equal(t, c.class, ClassOf(err), name)
		assert.Equal(t, c.code, code, name)
		if c.payload == "" {
			assert.Nil(t, payload, name)
		} else {
			assert.Equal(t, unhex(t, c.payload), payload, name)
		}
	}
}

// TestEncodeHeaderRoundTrip encodes a spread of valid headers and decodes
// them back.
func TestEncodeHeaderRoundTrip(t *testing.T) {
	for _, op := range []uint8{1, 2, 3, 64, 68, 128, 149, 160, 162} {
		h := RequestHeader{
			Checksum: Uint128{1, 2}, ChecksumBody: Uint128{3, 4}, Cluster: Uint128{5, 6},
			Size: 64 << 20, View: 7, Release: 8, Replica: 9, Client: Uint128{Hi: 1},
			RequestChecksum: Uint128{10, 11}, Timestamp: 12, Operation: op, UserID: 13,
		}
		switch op {
		case OpRegister:
		case OpNonReplicated:
			h.Code = 0xFFFF_FFFF
		default:
			h.Session, h.Request = 14, 15
		}
		enc, err := EncodeRequestHeader(h)
		require.NoError(t, err, "op %d", op)
		got, err := DecodeRequestHeader(enc)
		require.NoError(t, err, "op %d", op)
		assert.Equal(t, h, got, "op %d", op)
	}
	for op := 0; op < 256; op++ {
		if !KnownOperation(uint8(op)) {
			continue
		}
		h := ReplyHeader{Size: 256, Operation: uint8(op), Status: uint32(op), Op: 1, Commit: 2, Request: 3, Context: Uint128{4, 5}}
		enc, err := EncodeReplyHeader(h)
		require.NoError(t, err, "reply op %d", op)
		got, err := DecodeReplyHeader(enc)
		require.NoError(t, err, "reply op %d", op)
		assert.Equal(t, h, got, "reply op %d", op)
	}
	for r := uint8(1); r <= 15; r++ {
		e := Eviction{Client: Uint128{Lo: 1}, Reason: r, Replica: r}
		if r == 14 {
			e.Window = Window{Min: 0x2C00, Max: 0x2C03}
		}
		enc, err := EncodeEviction(e)
		require.NoError(t, err, "reason %d", r)
		got, err := DecodeEviction(enc)
		require.NoError(t, err, "reason %d", r)
		assert.Equal(t, e, got, "reason %d", r)
	}
}

func ExampleDecodeEviction() {
	frame := make([]byte, 256)
	frame[48], frame[49] = 0x00, 0x01 // size 256
	frame[60] = 13                    // Eviction
	frame[128] = 1                    // client id 1
	frame[144], frame[145] = 0x03, 0x2c
	frame[148], frame[149] = 0x00, 0x2c
	frame[255] = 14 // IncompatibleProtocol
	e, err := DecodeEviction(frame)
	fmt.Println(FormatVersion(e.Window.Min), FormatVersion(e.Window.Max), e.Reason, err)
	// Output: 0.11.0 0.11.3 14 <nil>
}
