package codec_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// Offsets after infoGoSDKHex (17 bytes): token_len 17, token 18..; with
// token "tok", context_len 21..25 and context 25..

// TestLoginRegisterPATDecodeErrors checks the decoder's field order.
func TestLoginRegisterPATDecodeErrors(t *testing.T) {
	checkBadBodies(t, codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT, []badBody{
		{"empty sdk_name", "00 2c 00 00 | 00", codec.ErrLength, "sdk_name_len", 4},
		{"no token length", infoGoSDKHex, codec.ErrTruncated, "token_len", 17},
		{"bad token, truncated later", infoGoSDKHex + "| 03 74 ff 6b | 01", codec.ErrUTF8, "token", 18},
		{"token claims 4, has 3", infoGoSDKHex + "| 04 74 6f 6b", codec.ErrTruncated, "token", 18},
		{"no context length", infoGoSDKHex + "| 03 74 6f 6b", codec.ErrTruncated, "context_len", 21},
		{"context_len 4 GiB - 1", infoGoSDKHex + "| 03 74 6f 6b | ff ff ff ff | 63", codec.ErrTruncated, "context", 25},
		{"bad context", infoGoSDKHex + "| 03 74 6f 6b | 01 00 00 00 | c0", codec.ErrUTF8, "context", 25},
	})
}

// TestLoginRegisterPATEncodeErrors checks Validate's field order and
// offsets.
func TestLoginRegisterPATEncodeErrors(t *testing.T) {
	ok := patTok
	with := func(edit func(*codec.LoginRegisterPAT)) codec.LoginRegisterPAT { l := ok; edit(&l); return l }
	checkBadValues(t, []badValue[codec.LoginRegisterPAT]{
		{"zero value", codec.LoginRegisterPAT{}, codec.ErrLength, "sdk_name_len", 4},
		{"256-byte token", with(func(l *codec.LoginRegisterPAT) { l.Token = codec.NewSecret([]byte(strings.Repeat("T", 256))) }), codec.ErrLength, "token_len", 17},
		{"bad token", with(func(l *codec.LoginRegisterPAT) { l.Token = codec.NewSecret([]byte("\x80")) }), codec.ErrUTF8, "token", 18},
		{"bad context", with(func(l *codec.LoginRegisterPAT) { l.Context = []byte("c\xff") }), codec.ErrUTF8, "context", 26},
	})
}

// TestPasswordBodyAsTokenBody is the consequence WIRE.md section 7 asks to
// test: a password body with an empty password and no context also decodes
// as a token body, the username becoming the token; only a whole-body parse
// tells them apart.
func TestPasswordBodyAsTokenBody(t *testing.T) {
	src := hx(infoGoSDKHex + "|" + iggy + "| 00 | 00 00 00 00")
	login, err := codec.ParseLoginRegister(src)
	if err != nil {
		t.Fatalf("ParseLoginRegister: err = %v", err)
	}
	if !login.Password.IsZero() {
		t.Fatalf("password: a %d-byte Secret, want the zero Secret", login.Password.Len())
	}
	pat, n, err := codec.DecodeLoginRegisterPAT(src)
	if err != nil {
		t.Fatalf("DecodeLoginRegisterPAT: err = %v", err)
	}
	if n != len(src)-1 {
		t.Fatalf("bytes used = %d, want %d", n, len(src)-1)
	}
	if got, want := pat.Token.Bytes(), []byte("iggy"); !bytes.Equal(got, want) {
		t.Fatalf("token = %q, want %q", got, want)
	}
	if pat.Context != nil {
		t.Fatalf("context = %#v, want nil", pat.Context)
	}
	_, err = codec.ParseLoginRegisterPAT(src)
	wantErr(t, err, codec.ErrTrailing, "body", len(src)-1)

	// With a non-empty password the token shape fails: the password length
	// byte is read as the low byte of context_len.
	_, _, err = codec.DecodeLoginRegisterPAT(hx(loginIggyHex))
	wantErr(t, err, codec.ErrTruncated, "context", 26)
}
