package codec_test

import (
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// Offsets in infoGoSDKHex: protocol 0, sdk_name_len 4, sdk_name 5..11,
// sdk_version_len 11, sdk_version 12..17.

// TestClientVersionInfoDecodeErrors checks the field order of the decoder:
// each field is checked as it is read, so a broken early field wins over a
// later truncation.
func TestClientVersionInfoDecodeErrors(t *testing.T) {
	checkBadBodies(t, codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo, []badBody{
		{"empty", "", codec.ErrTruncated, "protocol_version", 0},
		{"no name length", "00 2c 00 00", codec.ErrTruncated, "sdk_name_len", 4},
		{"empty sdk_name", "00 2c 00 00 | 00 | 05 30 2e 31 2e 30", codec.ErrLength, "sdk_name_len", 4},
		{"empty sdk_name, then nothing", "00 2c 00 00 | 00", codec.ErrLength, "sdk_name_len", 4},
		{"name claims 6, has 2", "00 2c 00 00 | 06 67 6f", codec.ErrTruncated, "sdk_name", 5},
		{"bad UTF-8 in sdk_name, truncated later", "00 2c 00 00 | 03 67 ff 6f | 05 30", codec.ErrUTF8, "sdk_name", 6},
		{"overlong NUL in sdk_name", "00 2c 00 00 | 02 c0 80 | 01 31", codec.ErrUTF8, "sdk_name", 5},
		{"surrogate in sdk_name", "00 2c 00 00 | 04 61 ed a0 80 | 01 31", codec.ErrUTF8, "sdk_name", 6},
		{"bad byte after U+FFFD", "00 2c 00 00 | 04 ef bf bd fe | 01 31", codec.ErrUTF8, "sdk_name", 8},
		{"cut multi-byte rune at the end", "00 2c 00 00 | 02 61 c3 | 01 31", codec.ErrUTF8, "sdk_name", 6},
		{"no version length", "00 2c 00 00 | 06 67 6f 2d 73 64 6b", codec.ErrTruncated, "sdk_version_len", 11},
		{"empty sdk_version", "00 2c 00 00 | 06 67 6f 2d 73 64 6b | 00", codec.ErrLength, "sdk_version_len", 11},
		{"bad UTF-8 in sdk_version", "00 2c 00 00 | 06 67 6f 2d 73 64 6b | 02 31 80", codec.ErrUTF8, "sdk_version", 13},
	})
}

// TestClientVersionInfoEncodeErrors: empty and 256-byte fields are
// ErrLength at their length byte; invalid UTF-8 is ErrUTF8 at the bad byte.
func TestClientVersionInfoEncodeErrors(t *testing.T) {
	long := []byte(strings.Repeat("x", 256))
	checkBadValues(t, []badValue[codec.ClientVersionInfo]{
		{"zero value", codec.ClientVersionInfo{}, codec.ErrLength, "sdk_name_len", 4},
		{"256-byte name", codec.ClientVersionInfo{SDKName: long, SDKVersion: []byte("1")}, codec.ErrLength, "sdk_name_len", 4},
		{"bad name", codec.ClientVersionInfo{SDKName: []byte("go\xff"), SDKVersion: []byte("1")}, codec.ErrUTF8, "sdk_name", 7},
		{"empty version", codec.ClientVersionInfo{SDKName: []byte("go")}, codec.ErrLength, "sdk_version_len", 7},
		{"256-byte version", codec.ClientVersionInfo{SDKName: []byte("go"), SDKVersion: long}, codec.ErrLength, "sdk_version_len", 7},
		{"bad version", codec.ClientVersionInfo{SDKName: []byte("go"), SDKVersion: []byte("\xc3")}, codec.ErrUTF8, "sdk_version", 8},
	})
}

// TestClientVersionInfoPrefix: the prefix decoder stops after sdk_version,
// which is how a server reads the start of either login body.
func TestClientVersionInfoPrefix(t *testing.T) {
	for _, body := range []string{loginIggyHex, patTokHex} {
		info, n, err := codec.DecodeClientVersionInfo(hx(body))
		if err != nil {
			t.Fatalf("DecodeClientVersionInfo(%s): err = %v", body, err)
		}
		if n != 17 {
			t.Fatalf("DecodeClientVersionInfo(%s): bytes used = %d, want 17", body, n)
		}
		if !sameValue(info, infoGoSDK) {
			t.Fatalf("DecodeClientVersionInfo(%s): info = %+v, want %+v", body, info, infoGoSDK)
		}
	}
}
