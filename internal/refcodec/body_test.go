package refcodec

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Golden bodies, written byte by byte from WIRE.md sections 2..4.
const (
	// protocol 0.11.0, sdk_name "go-sdk", sdk_version "0.1.0"
	goldenCVI = "002c0000" + "06" + "676f2d73646b" + "05" + "302e312e30"
	// username "iggy", password "iggy", no context
	goldenLogin = goldenCVI + "04" + "69676779" + "04" + "69676779" + "00000000"
	// username "iggy", empty password, context "ctx"
	goldenLoginCtx = goldenCVI + "04" + "69676779" + "00" + "03000000" + "637478"
	// token "tok", no context
	goldenPAT = goldenCVI + "03" + "746f6b" + "00000000"
	// user 1, session 7, server protocol 0.11.0, server version "0.6.0"
	goldenReply = "01000000" + "0700000000000000" + "002c0000" + "05" + "302e362e30"
)

var goldenInfo = ClientVersionInfo{Protocol: 0x2C00, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}

func TestClientVersionInfoGolden(t *testing.T) {
	src := unhex(t, goldenCVI)
	v, n, err := DecodeClientVersionInfo(src)
	require.NoError(t, err)
	assert.Equal(t, len(src), n)
	assert.Equal(t, goldenInfo, v)
	enc, err := EncodeClientVersionInfo(goldenInfo)
	require.NoError(t, err)
	assert.Equal(t, src, enc)
	// Prefix decode ignores what follows; Parse rejects it.
	more := append(append([]byte{}, src...), 0xAA, 0xBB)
	_, n, err = DecodeClientVersionInfo(more)
	require.NoError(t, err, "prefix decode")
	assert.Equal(t, len(src), n, "prefix decode")
	_, err = ParseClientVersionInfo(more)
	assert.Equal(t, Trailing, ClassOf(err), "parse with trailing")
	v, err = ParseClientVersionInfo(src)
	require.NoError(t, err)
	assert.Equal(t, goldenInfo, v)
}

func TestLoginRegisterGolden(t *testing.T) {
	cases := []struct {
		hex  string
		want LoginRegister
	}{
		{goldenLogin, LoginRegister{Info: goldenInfo, Username: []byte("iggy"), Password: []byte("iggy")}},
		{goldenLoginCtx, LoginRegister{Info: goldenInfo, Username: []byte("iggy"), Context: []byte("ctx")}},
	}
	for _, c := range cases {
		src := unhex(t, c.hex)
		v, n, err := DecodeLoginRegister(src)
		require.NoError(t, err, "decode %s", c.hex)
		assert.Equal(t, len(src), n, "decode %s", c.hex)
		assert.Equal(t, c.want, v, "decode %s: an empty field is nil", c.hex)
		enc, err := EncodeLoginRegister(c.want)
		require.NoError(t, err)
		assert.Equal(t, src, enc)
		_, err = ParseLoginRegister(src)
		assert.NoError(t, err, "parse")
		_, err = ParseLoginRegister(append(src, 0))
		assert.Equal(t, Trailing, ClassOf(err), "parse trailing")
	}
}

func TestLoginRegisterPATGolden(t *testing.T) {
	src := unhex(t, goldenPAT)
	want := LoginRegisterPAT{Info: goldenInfo, Token: []byte("tok")}
	v, n, err := DecodeLoginRegisterPAT(src)
	require.NoError(t, err)
	assert.Equal(t, len(src), n)
	assert.Equal(t, want, v)
	enc, err := EncodeLoginRegisterPAT(want)
	require.NoError(t, err)
	assert.Equal(t, src, enc)
	_, err = ParseLoginRegisterPAT(append(src, 1, 2, 3))
	assert.Equal(t, Trailing, ClassOf(err), "parse trailing")
	// Empty token and a context.
	src = unhex(t, goldenCVI+"00"+"02000000"+"6869")
	v, err = ParseLoginRegisterPAT(src)
	require.NoError(t, err)
	assert.Nil(t, v.Token, "an empty token is nil")
	assert.Equal(t, "hi", string(v.Context))
}

func TestLoginReplyGolden(t *testing.T) {
	src := unhex(t, goldenReply)
	want := LoginReply{UserID: 1, Session: 7, ServerProtocol: 0x2C00, ServerVersion: []byte("0.6.0")}
	v, n, err := DecodeLoginReply(src)
	require.NoError(t, err)
	assert.Equal(t, len(src), n)
	assert.Equal(t, want, v)
	enc, err := EncodeLoginReply(want)
	require.NoError(t, err)
	assert.Equal(t, src, enc)
	_, err = ParseLoginReply(append(src, 0))
	assert.Equal(t, Trailing, ClassOf(err), "parse trailing")
	// Reserved bits in the protocol version are just a u32 on the wire.
	odd := unhex(t, "01000000"+"0700000000000000"+"ffffffff"+"01"+"78")
	v, err = ParseLoginReply(odd)
	require.NoError(t, err, "reserved bits")
	assert.Equal(t, uint32(0xFFFF_FFFF), v.ServerProtocol, "reserved bits")
}

// TestLoginFrameBody decodes a login reply frame body as WIRE.md section 4
// shows it: an empty result section, then the login reply.
func TestLoginFrameBody(t *testing.T) {
	body := unhex(t, "00000000"+goldenReply)
	payload, code, err := SplitResult(body)
	require.NoError(t, err)
	assert.Zero(t, code)
	v, err := ParseLoginReply(payload)
	require.NoError(t, err)
	assert.Equal(t, uint64(7), v.Session)
}

func TestProtocolIsAnyU32(t *testing.T) {
	src := unhex(t, "ffffffff"+"01"+"61"+"01"+"62")
	v, err := ParseClientVersionInfo(src)
	require.NoError(t, err)
	assert.Equal(t, uint32(0xFFFF_FFFF), v.Protocol, "protocol with reserved bits")
}

// TestEveryPrefixTruncated cuts each golden body at every length: every
// proper prefix is Truncated, since every layout needs all its fields.
func TestEveryPrefixTruncated(t *testing.T) {
	decoders := map[string]struct {
		hex    string
		decode func([]byte) error
	}{
		"cvi":      {goldenCVI, func(b []byte) error { _, _, err := DecodeClientVersionInfo(b); return err }},
		"login":    {goldenLogin, func(b []byte) error { _, _, err := DecodeLoginRegister(b); return err }},
		"loginCtx": {goldenLoginCtx, func(b []byte) error { _, _, err := DecodeLoginRegister(b); return err }},
		"pat":      {goldenPAT, func(b []byte) error { _, _, err := DecodeLoginRegisterPAT(b); return err }},
		"reply":    {goldenReply, func(b []byte) error { _, _, err := DecodeLoginReply(b); return err }},
	}
	for name, d := range decoders {
		src := unhex(t, d.hex)
		for i := 0; i < len(src); i++ {
			assert.Equal(t, Truncated, ClassOf(d.decode(src[:i])), name+" prefix")
		}
		assert.Equal(t, OK, ClassOf(d.decode(src)), name+" whole")
	}
}

func TestDecodeBodyErrors(t *testing.T) {
	type dec func([]byte) error
	cvi := func(b []byte) error { _, _, err := DecodeClientVersionInfo(b); return err }
	login := func(b []byte) error { _, _, err := DecodeLoginRegister(b); return err }
	pat := func(b []byte) error { _, _, err := DecodeLoginRegisterPAT(b); return err }
	reply := func(b []byte) error { _, _, err := DecodeLoginReply(b); return err }
	cases := []struct {
		name  string
		d     dec
		hex   string
		class Class
	}{
		{"cvi empty", cvi, "", Truncated},
		{"cvi short protocol", cvi, "002c00", Truncated},
		{"cvi no name length", cvi, "002c0000", Truncated},
		{"cvi name length 0", cvi, "002c0000" + "00", Length},
		{"cvi name length 0 wins over missing rest", cvi, "002c0000" + "00" + "ff", Length},
		{"cvi name short", cvi, "002c0000" + "05" + "61626364", Truncated},
		{"cvi name bad utf8", cvi, "002c0000" + "02" + "c328" + "01" + "61", UTF8},
		{"cvi name bad utf8 before missing version", cvi, "002c0000" + "01" + "ff", UTF8},
		{"cvi no version length", cvi, "002c0000" + "01" + "61", Truncated},
		{"cvi version length 0", cvi, "002c0000" + "01" + "61" + "00", Length},
		{"cvi version short", cvi, "002c0000" + "01" + "61" + "03" + "6162", Truncated},
		{"cvi version bad utf8", cvi, "002c0000" + "01" + "61" + "01" + "80", UTF8},
		{"cvi surrogate", cvi, "002c0000" + "01" + "61" + "03" + "eda080", UTF8},
		{"cvi overlong", cvi, "002c0000" + "01" + "61" + "02" + "c080", UTF8},
		{"cvi name 255", cvi, "00000000" + "ff" + strings.Repeat("61", 255) + "01" + "61", OK},

		{"login no username length", login, goldenCVI, Truncated},
		{"login username 0", login, goldenCVI + "00", Length},
		{"login username short", login, goldenCVI + "04" + "6967", Truncated},
		{"login username utf8", login, goldenCVI + "01" + "fe", UTF8},
		{"login no password length", login, goldenCVI + "01" + "61", Truncated},
		{"login password short", login, goldenCVI + "01" + "61" + "02" + "61", Truncated},
		{"login password utf8", login, goldenCVI + "01" + "61" + "01" + "c3", UTF8},
		{"login empty password, no context length", login, goldenCVI + "01" + "61" + "00", Truncated},
		{"login context length short", login, goldenCVI + "01" + "61" + "00" + "000000", Truncated},
		{"login context claims too much", login, goldenCVI + "01" + "61" + "00" + "ffffffff" + "6162", Truncated},
		{"login context one short", login, goldenCVI + "01" + "61" + "00" + "03000000" + "6162", Truncated},
		{"login context utf8", login, goldenCVI + "01" + "61" + "00" + "01000000" + "ff", UTF8},
		{"login cvi error first", login, "002c0000" + "00" + "00", Length},

		{"pat no token length", pat, goldenCVI, Truncated},
		{"pat token short", pat, goldenCVI + "05" + "61", Truncated},
		{"pat token utf8", pat, goldenCVI + "01" + "ff" + "00000000", UTF8},
		{"pat no context length", pat, goldenCVI + "00", Truncated},
		{"pat context claims too much", pat, goldenCVI + "00" + "00000001", Truncated},
		{"pat context utf8", pat, goldenCVI + "00" + "02000000" + "c328", UTF8},

		{"reply empty", reply, "", Truncated},
		{"reply short user", reply, "010000", Truncated},
		{"reply short session", reply, "01000000" + "07000000", Truncated},
		{"reply session 0", reply, "01000000" + "0000000000000000", Field},
		{"reply session 0 before short protocol", reply, "01000000" + "0000000000000000" + "00", Field},
		{"reply session 0 before bad version", reply, "01000000" + "0000000000000000" + "002c0000" + "00", Field},
		{"reply short protocol", reply, "01000000" + "0700000000000000" + "002c00", Truncated},
		{"reply no version length", reply, "01000000" + "0700000000000000" + "002c0000", Truncated},
		{"reply version 0", reply, "01000000" + "0700000000000000" + "002c0000" + "00", Length},
		{"reply version short", reply, "01000000" + "0700000000000000" + "002c0000" + "02" + "30", Truncated},
		{"reply version utf8", reply, "01000000" + "0700000000000000" + "002c0000" + "01" + "ff", UTF8},
	}
	for _, c := range cases {
		assert.Equal(t, c.class, ClassOf(c.d(unhex(t, c.hex))), c.name)
	}
}

// TestPasswordBodyAlsoDecodesAsToken pins the consequence spelled out in
// WIRE.md section 7: an empty password and no context also decode as a token
// body whose token is the username, since both decodes are prefix decodes.
func TestPasswordBodyAlsoDecodesAsToken(t *testing.T) {
	src := unhex(t, goldenCVI+"04"+"69676779"+"00"+"00000000")
	lr, err := ParseLoginRegister(src)
	require.NoError(t, err, "as password body")
	assert.Equal(t, "iggy", string(lr.Username))
	assert.Nil(t, lr.Password)
	tok, n, err := DecodeLoginRegisterPAT(src)
	require.NoError(t, err, "as token body")
	assert.Equal(t, "iggy", string(tok.Token))
	assert.Nil(t, tok.Context)
	assert.Equal(t, len(src)-1, n)
	_, err = ParseLoginRegisterPAT(src)
	assert.Equal(t, Trailing, ClassOf(err), "strict token parse")
}

func TestEncodeBodyErrors(t *testing.T) {
	long := []byte(strings.Repeat("a", 256))
	max := []byte(strings.Repeat("a", 255))
	bad := []byte{0xff}
	info := goldenInfo
	withName := func(b []byte) ClientVersionInfo { i := info; i.SDKName = b; return i }
	withVer := func(b []byte) ClientVersionInfo { i := info; i.SDKVersion = b; return i }
	user := []byte("iggy")

	cvi := []struct {
		name  string
		v     ClientVersionInfo
		class Class
	}{
		{"ok", info, OK},
		{"name empty", withName(nil), Length},
		{"name 255", withName(max), OK},
		{"name 256", withName(long), Length},
		{"name utf8", withName(bad), UTF8},
		{"name before version", ClientVersionInfo{SDKName: bad}, UTF8},
		{"version empty", withVer([]byte{}), Length},
		{"version 256", withVer(long), Length},
		{"version utf8", withVer(bad), UTF8},
		{"any protocol", ClientVersionInfo{Protocol: 0xFFFF_FFFF, SDKName: user, SDKVersion: user}, OK},
	}
	for _, c := range cvi {
		_, err := EncodeClientVersionInfo(c.v)
		assert.Equal(t, c.class, ClassOf(err), "cvi "+c.name)
	}

	login := []struct {
		name  string
		v     LoginRegister
		class Class
	}{
		{"ok", LoginRegister{Info: info, Username: user}, OK},
		{"info first", LoginRegister{Info: withName(nil), Username: bad, Password: long}, Length},
		{"username empty", LoginRegister{Info: info, Password: bad}, Length},
		{"username 256", LoginRegister{Info: info, Username: long}, Length},
		{"username utf8", LoginRegister{Info: info, Username: bad, Password: long}, UTF8},
		{"password 255", LoginRegister{Info: info, Username: user, Password: max}, OK},
		{"password 256", LoginRegister{Info: info, Username: user, Password: long, Context: bad}, Length},
		{"password utf8", LoginRegister{Info: info, Username: user, Password: bad, Context: bad}, UTF8},
		{"context utf8", LoginRegister{Info: info, Username: user, Context: bad}, UTF8},
		{"context long", LoginRegister{Info: info, Username: user, Context: []byte(strings.Repeat("c", 70000))}, OK},
	}
	for _, c := range login {
		_, err := EncodeLoginRegister(c.v)
		assert.Equal(t, c.class, ClassOf(err), "login "+c.name)
	}

	pat := []struct {
		name  string
		v     LoginRegisterPAT
		class Class
	}{
		{"ok empty token", LoginRegisterPAT{Info: info}, OK},
		{"info first", LoginRegisterPAT{Info: withVer(long), Token: bad}, Length},
		{"token 256", LoginRegisterPAT{Info: info, Token: long, Context: bad}, Length},
		{"token utf8", LoginRegisterPAT{Info: info, Token: bad}, UTF8},
		{"context utf8", LoginRegisterPAT{Info: info, Context: bad}, UTF8},
	}
	for _, c := range pat {
		_, err := EncodeLoginRegisterPAT(c.v)
		assert.Equal(t, c.class, ClassOf(err), "pat "+c.name)
	}

	reply := []struct {
		name  string
		v     LoginReply
		class Class
	}{
		{"ok", LoginReply{Session: 1, ServerVersion: user}, OK},
		{"session 0 first", LoginReply{ServerVersion: nil}, Field},
		{"version empty", LoginReply{Session: 1}, Length},
		{"version 256", LoginReply{Session: 1, ServerVersion: long}, Length},
		{"version utf8", LoginReply{Session: 1, ServerVersion: bad}, UTF8},
	}
	for _, c := range reply {
		_, err := EncodeLoginReply(c.v)
		assert.Equal(t, c.class, ClassOf(err), "reply "+c.name)
	}
}

func TestBodyRoundTrip(t *testing.T) {
	info := ClientVersionInfo{Protocol: 0x3FFF_FFFF, SDKName: []byte("rust-sdk"), SDKVersion: []byte("0.8.0-edge.1")}
	lrs := []LoginRegister{
		{Info: info, Username: []byte("ü"), Password: []byte(strings.Repeat("p", 255)), Context: []byte("日本")},
		{Info: info, Username: []byte(strings.Repeat("u", 255))},
	}
	for _, v := range lrs {
		enc, err := EncodeLoginRegister(v)
		require.NoError(t, err)
		got, err := ParseLoginRegister(enc)
		require.NoError(t, err)
		assert.Equal(t, v, got)
	}
	p := LoginRegisterPAT{Info: info, Token: []byte("t"), Context: []byte("x")}
	enc, err := EncodeLoginRegisterPAT(p)
	require.NoError(t, err)
	gotPAT, err := ParseLoginRegisterPAT(enc)
	require.NoError(t, err)
	assert.Equal(t, p, gotPAT)
	r := LoginReply{UserID: 0xFFFF_FFFF, Session: 0xFFFF_FFFF_FFFF_FFFF, ServerProtocol: 1, ServerVersion: []byte("x")}
	enc, err = EncodeLoginReply(r)
	require.NoError(t, err)
	gotReply, err := ParseLoginReply(enc)
	require.NoError(t, err)
	assert.Equal(t, r, gotReply)
}

// TestDecodedFieldsAreCopies checks that decoded fields do not alias the
// input (the oracle copies, so a caller mutating the input cannot change it).
func TestDecodedFieldsAreCopies(t *testing.T) {
	src := unhex(t, goldenLogin)
	v, _, err := DecodeLoginRegister(src)
	require.NoError(t, err)
	for i := range src {
		src[i] = 'z'
	}
	assert.Equal(t, "iggy", string(v.Username), "decoded fields alias the input")
	assert.Equal(t, "go-sdk", string(v.Info.SDKName), "decoded fields alias the input")
}
