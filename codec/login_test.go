package codec_test

import (
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// Offsets after infoGoSDKHex (17 bytes) with username "iggy": username_len
// 17, username 18..22, password_len 22, password 23..; with an empty
// password, context_len 23..27 and context 27..

const iggy = "04 69 67 67 79"

// TestLoginRegisterDecodeErrors checks the decoder's field order.
func TestLoginRegisterDecodeErrors(t *testing.T) {
	checkBadBodies(t, codec.DecodeLoginRegister, codec.ParseLoginRegister, []badBody{
		{"bad sdk_name, truncated later", "00 2c 00 00 | 01 ff | 01", codec.ErrUTF8, "sdk_name", 5},
		{"empty sdk_version", "00 2c 00 00 | 01 61 | 00 |" + iggy, codec.ErrLength, "sdk_version_len", 6},
		{"no username length", infoGoSDKHex, codec.ErrTruncated, "username_len", 17},
		{"empty username", infoGoSDKHex + "| 00 | 00 | 00 00 00 00", codec.ErrLength, "username_len", 17},
		{"bad username, truncated later", infoGoSDKHex + "| 02 ff ff | 09", codec.ErrUTF8, "username", 18},
		{"username claims 255, has 4", infoGoSDKHex + "| ff 69 67 67 79", codec.ErrTruncated, "username", 18},
		{"no password length", infoGoSDKHex + "|" + iggy, codec.ErrTruncated, "password_len", 22},
		// A secret's UTF-8 error names the field's offset, not the byte's.
		{"bad password", infoGoSDKHex + "|" + iggy + "| 02 61 ff | 00 00 00 00", codec.ErrUTF8, "password", 23},
		{"password claims 9, has 2", infoGoSDKHex + "|" + iggy + "| 09 61 62", codec.ErrTruncated, "password", 23},
		{"half a context length", infoGoSDKHex + "|" + iggy + "| 00 | 00 00", codec.ErrTruncated, "context_len", 23},
		{"context_len 4 GiB - 1", infoGoSDKHex + "|" + iggy + "| 00 | ff ff ff ff | 61", codec.ErrTruncated, "context", 27},
		{"context_len 2^31", infoGoSDKHex + "|" + iggy + "| 00 | 00 00 00 80", codec.ErrTruncated, "context", 27},
		{"bad context", infoGoSDKHex + "|" + iggy + "| 00 | 02 00 00 00 | 61 80", codec.ErrUTF8, "context", 28},
	})
}

// TestLoginRegisterHugeContextClaim: a context_len of 4 GiB - 1 is a claim
// checked against the bytes present; it is rejected at once and allocates
// at most the error.
func TestLoginRegisterHugeContextClaim(t *testing.T) {
	src := hx(infoGoSDKHex + "|" + iggy + "| 00 | ff ff ff ff")
	allocs := testing.AllocsPerRun(100, func() { _, _, sinkErr = codec.DecodeLoginRegister(src) })
	wantErr(t, sinkErr, codec.ErrTruncated, "context", 27)
	if allocs > 1 {
		t.Fatalf("a 4 GiB context claim cost %v allocations, want at most 1", allocs)
	}
}

// TestLoginRegisterEncodeErrors checks Validate's field order and offsets.
func TestLoginRegisterEncodeErrors(t *testing.T) {
	long := []byte(strings.Repeat("x", 256))
	ok := loginIggy
	with := func(edit func(*codec.LoginRegister)) codec.LoginRegister { l := ok; edit(&l); return l }
	checkBadValues(t, []badValue[codec.LoginRegister]{
		{"zero value", codec.LoginRegister{}, codec.ErrLength, "sdk_name_len", 4},
		{"bad info, bad username", with(func(l *codec.LoginRegister) {
			l.Info.SDKVersion = nil
			l.Username = nil
		}), codec.ErrLength, "sdk_version_len", 11},
		{"empty username", with(func(l *codec.LoginRegister) { l.Username = nil }), codec.ErrLength, "username_len", 17},
		{"256-byte username", with(func(l *codec.LoginRegister) { l.Username = long }), codec.ErrLength, "username_len", 17},
		{"bad username", with(func(l *codec.LoginRegister) { l.Username = []byte("\xff") }), codec.ErrUTF8, "username", 18},
		{"256-byte password", with(func(l *codec.LoginRegister) { l.Password = codec.NewSecret(long) }), codec.ErrLength, "password_len", 22},
		{"bad password", with(func(l *codec.LoginRegister) { l.Password = codec.NewSecret([]byte("ab\xff")) }), codec.ErrUTF8, "password", 23},
		{"bad context", with(func(l *codec.LoginRegister) { l.Context = []byte("\xe6\x97") }), codec.ErrUTF8, "context", 31},
	})
	// An empty password is allowed, and so is one of 255 bytes, the last
	// length the u8 prefix holds: both are written and read back.
	for _, pw := range [][]byte{nil, long[:255]} {
		v := with(func(l *codec.LoginRegister) { l.Password = codec.NewSecret(pw) })
		b, err := v.AppendBinary(nil)
		if err != nil {
			t.Fatalf("AppendBinary with a %d-byte password: err = %v", len(pw), err)
		}
		if len(b) != v.EncodedLen() {
			t.Fatalf("AppendBinary with a %d-byte password: %d bytes, want EncodedLen() = %d", len(pw), len(b), v.EncodedLen())
		}
		got, err := codec.ParseLoginRegister(b)
		if err != nil {
			t.Fatalf("ParseLoginRegister with a %d-byte password: err = %v", len(pw), err)
		}
		if !got.Password.Equal(codec.NewSecret(pw)) {
			t.Fatalf("a %d-byte password reads back as a different %d-byte one", len(pw), got.Password.Len())
		}
	}
}
