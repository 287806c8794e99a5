package refcodec

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
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
	if err != nil || n != len(src) || !reflect.DeepEqual(v, goldenInfo) {
		t.Fatalf("decode = %+v, %d, %v", v, n, err)
	}
	enc, err := EncodeClientVersionInfo(goldenInfo)
	if err != nil || !bytes.Equal(enc, src) {
		t.Fatalf("encode = %x, %v", enc, err)
	}
	// Prefix decode ignores what follows; Parse rejects it.
	more := append(append([]byte{}, src...), 0xAA, 0xBB)
	if _, n, err := DecodeClientVersionInfo(more); err != nil || n != len(src) {
		t.Errorf("prefix decode = %d, %v", n, err)
	}
	_, err = ParseClientVersionInfo(more)
	wantClass(t, "parse with trailing", err, Trailing)
	if v, err := ParseClientVersionInfo(src); err != nil || !reflect.DeepEqual(v, goldenInfo) {
		t.Errorf("parse = %+v, %v", v, err)
	}
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
		if err != nil || n != len(src) || !reflect.DeepEqual(v, c.want) {
			t.Errorf("decode %s = %d, %v", c.hex, n, err)
		}
		if v.Password != nil && len(v.Password) == 0 || v.Context != nil && len(v.Context) == 0 {
			t.Error("empty field not nil")
		}
		enc, err := EncodeLoginRegister(c.want)
		if err != nil || !bytes.Equal(enc, src) {
			t.Errorf("encode = %x, %v, want %s", enc, err, c.hex)
		}
		if _, err := ParseLoginRegister(src); err != nil {
			t.Errorf("parse: %v", err)
		}
		_, err = ParseLoginRegister(append(src, 0))
		wantClass(t, "parse trailing", err, Trailing)
	}
}

func TestLoginRegisterPATGolden(t *testing.T) {
	src := unhex(t, goldenPAT)
	want := LoginRegisterPAT{Info: goldenInfo, Token: []byte("tok")}
	v, n, err := DecodeLoginRegisterPAT(src)
	if err != nil || n != len(src) || !reflect.DeepEqual(v, want) {
		t.Fatalf("decode = %d, %v", n, err)
	}
	enc, err := EncodeLoginRegisterPAT(want)
	if err != nil || !bytes.Equal(enc, src) {
		t.Fatalf("encode = %x, %v", enc, err)
	}
	_, err = ParseLoginRegisterPAT(append(src, 1, 2, 3))
	wantClass(t, "parse trailing", err, Trailing)
	// Empty token and a context.
	src = unhex(t, goldenCVI+"00"+"02000000"+"6869")
	v, err = ParseLoginRegisterPAT(src)
	if err != nil || v.Token != nil || string(v.Context) != "hi" {
		t.Errorf("empty token = %v, %v", v, err)
	}
}

func TestLoginReplyGolden(t *testing.T) {
	src := unhex(t, goldenReply)
	want := LoginReply{UserID: 1, Session: 7, ServerProtocol: 0x2C00, ServerVersion: []byte("0.6.0")}
	v, n, err := DecodeLoginReply(src)
	if err != nil || n != len(src) || !reflect.DeepEqual(v, want) {
		t.Fatalf("decode = %+v, %d, %v", v, n, err)
	}
	enc, err := EncodeLoginReply(want)
	if err != nil || !bytes.Equal(enc, src) {
		t.Fatalf("encode = %x, %v", enc, err)
	}
	_, err = ParseLoginReply(append(src, 0))
	wantClass(t, "parse trailing", err, Trailing)
	// Reserved bits in the protocol version are just a u32 on the wire.
	odd := unhex(t, "01000000"+"0700000000000000"+"ffffffff"+"01"+"78")
	if v, err := ParseLoginReply(odd); err != nil || v.ServerProtocol != 0xFFFF_FFFF {
		t.Errorf("reserved bits: %+v, %v", v, err)
	}
}

// TestLoginFrameBody decodes a login reply frame body as WIRE.md section 4
// shows it: an empty result section, then the login reply.
func TestLoginFrameBody(t *testing.T) {
	body := unhex(t, "00000000"+goldenReply)
	payload, code, err := SplitResult(body)
	if err != nil || code != 0 {
		t.Fatalf("SplitResult = %v, %v", code, err)
	}
	v, err := ParseLoginReply(payload)
	if err != nil || v.Session != 7 {
		t.Fatalf("login reply = %+v, %v", v, err)
	}
}

func TestProtocolIsAnyU32(t *testing.T) {
	src := unhex(t, "ffffffff"+"01"+"61"+"01"+"62")
	v, err := ParseClientVersionInfo(src)
	if err != nil || v.Protocol != 0xFFFF_FFFF {
		t.Errorf("protocol with reserved bits: %+v, %v", v, err)
	}
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
			wantClass(t, name+" prefix", d.decode(src[:i]), Truncated)
		}
		wantClass(t, name+" whole", d.decode(src), OK)
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
		wantClass(t, c.name, c.d(unhex(t, c.hex)), c.class)
	}
}

// TestPasswordBodyAlsoDecodesAsToken pins the consequence spelled out in
// WIRE.md section 7: an empty password and no context also decode as a token
// body whose token is the username, since both decodes are prefix decodes.
func TestPasswordBodyAlsoDecodesAsToken(t *testing.T) {
	src := unhex(t, goldenCVI+"04"+"69676779"+"00"+"00000000")
	lr, err := ParseLoginRegister(src)
	if err != nil || string(lr.Username) != "iggy" || lr.Password != nil {
		t.Fatalf("as password body: %v", err)
	}
	tok, n, err := DecodeLoginRegisterPAT(src)
	if err != nil || string(tok.Token) != "iggy" || tok.Context != nil || n != len(src)-1 {
		t.Fatalf("as token body: %d, %v", n, err)
	}
	_, err = ParseLoginRegisterPAT(src)
	wantClass(t, "strict token parse", err, Trailing)
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
		wantClass(t, "cvi "+c.name, err, c.class)
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
		wantClass(t, "login "+c.name, err, c.class)
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
		wantClass(t, "pat "+c.name, err, c.class)
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
		wantClass(t, "reply "+c.name, err, c.class)
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
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseLoginRegister(enc)
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Errorf("round trip: %v", err)
		}
	}
	p := LoginRegisterPAT{Info: info, Token: []byte("t"), Context: []byte("x")}
	enc, err := EncodeLoginRegisterPAT(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseLoginRegisterPAT(enc); err != nil || !reflect.DeepEqual(got, p) {
		t.Errorf("pat round trip: %v", err)
	}
	r := LoginReply{UserID: 0xFFFF_FFFF, Session: 0xFFFF_FFFF_FFFF_FFFF, ServerProtocol: 1, ServerVersion: []byte("x")}
	enc, err = EncodeLoginReply(r)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ParseLoginReply(enc); err != nil || !reflect.DeepEqual(got, r) {
		t.Errorf("reply round trip: %v", err)
	}
}

// TestDecodedFieldsAreCopies checks that decoded fields do not alias the
// input (the oracle copies, so a caller mutating the input cannot change it).
func TestDecodedFieldsAreCopies(t *testing.T) {
	src := unhex(t, goldenLogin)
	v, _, err := DecodeLoginRegister(src)
	if err != nil {
		t.Fatal(err)
	}
	for i := range src {
		src[i] = 'z'
	}
	if string(v.Username) != "iggy" || string(v.Info.SDKName) != "go-sdk" {
		t.Error("decoded fields alias the input")
	}
}
