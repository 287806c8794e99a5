package codec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// info0111Hex is ClientVersionInfo {0.11.1, "go-sdk", "0.1.0"}: 17 bytes, so
// a BIND_SESSION body built on it has client_id at 17, session at 33,
// metadata_watermark at 41 and bind_secret at 49..81.
const info0111Hex = "01 2c 00 00 | 06 67 6f 2d 73 64 6b | 05 30 2e 31 2e 30"

// bindSecretHex is 32 bytes a0 a1 .. bf, easy to find in a dump.
var bindSecretHex = func() string {
	var b strings.Builder
	for i := range codec.BindSecretLen {
		fmt.Fprintf(&b, "%02x ", 0xa0+i)
	}
	return b.String()
}()

// bindHex is the BIND_SESSION body of bindValue, written out by hand from
// WIRE.md section 10.3, not by the encoder.
var bindHex = info0111Hex +
	"| 01 02 03 04 05 06 07 08  11 12 13 14 15 16 17 18" + // client_id: Lo, then Hi
	"| 2a 00 00 00 00 00 00 00" + // session 42
	"| 07 00 00 00 00 00 00 00" + // metadata_watermark 7
	"|" + bindSecretHex

func bindValue() codec.BindSession {
	return codec.BindSession{
		Info:              codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")},
		ClientID:          codec.Uint128{Lo: 0x0807060504030201, Hi: 0x1817161514131211},
		Session:           42,
		MetadataWatermark: 7,
		BindSecret:        codec.NewSecret(hx(bindSecretHex)),
	}
}

// TestBindSessionLayout: the encoder writes WIRE.md's bytes, both decoders
// read them back, and the prefix decoder ignores what follows, as the
// reference server does, while the strict parse refuses it.
func TestBindSessionLayout(t *testing.T) {
	want := hx(bindHex)
	require.Len(t, want, 17+64)
	v := bindValue()
	assert.Equal(t, len(want), v.EncodedLen())
	got, err := v.AppendBinary([]byte{0xee})
	require.NoError(t, err)
	assert.Equal(t, append([]byte{0xee}, want...), got)

	parsed, err := codec.ParseBindSession(want)
	require.NoError(t, err)
	assert.True(t, sameValue(v, parsed), "ParseBindSession = %v, want %v", parsed, v)
	assert.True(t, parsed.BindSecret.Equal(codec.NewSecret(hx(bindSecretHex))))

	withTail := cat(want, []byte{1, 2, 3})
	decoded, n, err := codec.DecodeBindSession(withTail)
	require.NoError(t, err)
	assert.Equal(t, len(want), n)
	assert.True(t, sameValue(v, decoded))
	_, err = codec.ParseBindSession(withTail)
	wantErr(t, err, codec.ErrTrailing, "body", len(want))
	assert.Equal(t, "body.trailing", codecError(t, err).Rule)
}

// TestBindSessionNonASCII: a body whose SDK text is not ASCII leaves the
// fast path and is read by the rule-by-rule decoder, with the same result.
func TestBindSessionNonASCII(t *testing.T) {
	v := bindValue()
	v.Info.SDKName = []byte("sdk-é")
	b, err := v.AppendBinary(nil)
	require.NoError(t, err)
	got, err := codec.ParseBindSession(b)
	require.NoError(t, err)
	assert.True(t, sameValue(v, got))
}

// TestBindSessionDecodeErrors: each field missing is bind.truncated at its
// own offset; the ClientVersionInfo's rules come first.
func TestBindSessionDecodeErrors(t *testing.T) {
	checkBadBodies(t, codec.DecodeBindSession, codec.ParseBindSession, []badBody{
		{"bad sdk_name", "01 2c 00 00 | 01 ff | 01 61", codec.ErrUTF8, "sdk_name", 5},
		{"no client_id", info0111Hex, codec.ErrTruncated, "client_id", 17},
		{"half a client_id", info0111Hex + "| 01 02 03 04 05 06 07 08", codec.ErrTruncated, "client_id", 17},
		{"no session", info0111Hex + "| 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01", codec.ErrTruncated, "session", 33},
		{"no watermark", info0111Hex + "| 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 01 | 2a 00 00 00 00 00 00 00", codec.ErrTruncated, "metadata_watermark", 41},
		{"31-byte secret", bindHex[:len(bindHex)-3], codec.ErrTruncated, "bind_secret", 49},
	})
	_, err := codec.ParseBindSession(hx(info0111Hex))
	assert.Equal(t, "bind.truncated", codecError(t, err).Rule)
}

// TestBindSessionEncodeErrors: Validate and AppendBinary refuse a secret
// that is not 32 bytes, after the ClientVersionInfo's rules.
func TestBindSessionEncodeErrors(t *testing.T) {
	with := func(edit func(*codec.BindSession)) codec.BindSession { b := bindValue(); edit(&b); return b }
	cases := []struct {
		name  string
		v     codec.BindSession
		kind  error
		field string
		off   int
	}{
		{"zero value", codec.BindSession{}, codec.ErrLength, "sdk_name_len", 4},
		{"bad info and no secret", with(func(b *codec.BindSession) { b.Info.SDKVersion, b.BindSecret = nil, codec.Secret{} }), codec.ErrLength, "sdk_version_len", 11},
		{"no secret", with(func(b *codec.BindSession) { b.BindSecret = codec.Secret{} }), codec.ErrLength, "bind_secret", 49},
		{"31-byte secret", with(func(b *codec.BindSession) { b.BindSecret = codec.NewSecret(make([]byte, 31)) }), codec.ErrLength, "bind_secret", 49},
		{"33-byte secret", with(func(b *codec.BindSession) { b.BindSecret = codec.NewSecret(make([]byte, 33)) }), codec.ErrLength, "bind_secret", 49},
		{"bad sdk text", with(func(b *codec.BindSession) { b.Info.SDKName = []byte("\xff") }), codec.ErrUTF8, "sdk_name", 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.v.Validate(), c.kind, c.field, c.off)
			dst := []byte{9, 9}
			out, err := c.v.AppendBinary(dst)
			wantErr(t, err, c.kind, c.field, c.off)
			assert.Equal(t, []byte{9, 9}, out)
		})
	}
	err := with(func(b *codec.BindSession) { b.BindSecret = codec.Secret{} }).Validate()
	assert.Equal(t, "bind.bind_secret.length", codecError(t, err).Rule)
}

// TestBindSessionClone: a clone keeps nothing of the input.
func TestBindSessionClone(t *testing.T) {
	src := hx(bindHex)
	b, err := codec.ParseBindSession(src)
	require.NoError(t, err)
	c := b.Clone()
	for i := range src {
		src[i] ^= 0xff
	}
	assert.True(t, sameValue(bindValue(), c), "clone changed with its input: %v", c)
}

// TestBindSessionPrintsNoSecret: every printed form shows the redaction and
// no byte of the secret.
func TestBindSessionPrintsNoSecret(t *testing.T) {
	v := bindValue()
	for _, format := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		s := fmt.Sprintf(format, v)
		assert.NotContains(t, s, "a0a1a2a3", format)
		assert.NotContains(t, s, "\xa0\xa1", format)
		assert.NotContains(t, s, "160, 161", format)
	}
	assert.Contains(t, v.String(), "bind_secret: [REDACTED]")
}

// TestAppendBindReplyFrame: the bare login reply after the header, no
// result section, and a denial header refused.
func TestAppendBindReplyFrame(t *testing.T) {
	reply := codec.LoginReply{UserID: 1, Session: 42, ServerProtocol: codec.Protocol0111, ServerVersion: []byte("0.11.1")}
	body, err := reply.AppendBinary(nil)
	require.NoError(t, err)
	h := codec.ReplyHeader{Client: client5, Request: 3, Operation: codec.OperationNonReplicated}
	frame, err := codec.AppendBindReplyFrame([]byte{7}, h, reply)
	require.NoError(t, err)
	require.Len(t, frame, 1+codec.HeaderSize+len(body))
	assert.Equal(t, body, frame[1+codec.HeaderSize:])
	got, err := codec.DecodeReplyHeader(frame[1:])
	require.NoError(t, err)
	assert.Equal(t, uint32(codec.HeaderSize+len(body)), got.Size)
	assert.Equal(t, codec.StatusOK, got.Status)

	h.Status = codec.StatusUnauthenticated
	out, err := codec.AppendBindReplyFrame([]byte{7}, h, reply)
	require.Error(t, err)
	assert.Equal(t, []byte{7}, out)
	_, err = codec.AppendBindReplyFrame(nil, codec.ReplyHeader{Client: client5}, codec.LoginReply{})
	require.Error(t, err)
}
