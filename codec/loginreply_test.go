package codec_test

import (
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// Offsets: user_id 0, session 4, server_protocol_version 12,
// server_version_len 16, server_version 17..

// TestLoginReplyDecodeErrors checks the decoder's field order: session 0 is
// reported before a later truncation.
func TestLoginReplyDecodeErrors(t *testing.T) {
	checkBadBodies(t, codec.DecodeLoginReply, codec.ParseLoginReply, []badBody{
		{"empty", "", codec.ErrTruncated, "user_id", 0},
		{"half a session", "01 00 00 00 | 2a 00 00", codec.ErrTruncated, "session", 4},
		{"session 0, truncated later", "01 00 00 00 | 00 00 00 00 00 00 00 00", codec.ErrField, "session", 4},
		{"session 0", "01 00 00 00 | 00 00 00 00 00 00 00 00 | 00 2c 00 00 | 01 61", codec.ErrField, "session", 4},
		{"no protocol", "01 00 00 00 | 2a 00 00 00 00 00 00 00", codec.ErrTruncated, "server_protocol_version", 12},
		{"no version length", "01 00 00 00 | 2a 00 00 00 00 00 00 00 | 00 2c 00 00", codec.ErrTruncated, "server_version_len", 16},
		{"empty server_version", "01 00 00 00 | 2a 00 00 00 00 00 00 00 | 00 2c 00 00 | 00", codec.ErrLength, "server_version_len", 16},
		{"server_version claims 5, has 1", "01 00 00 00 | 2a 00 00 00 00 00 00 00 | 00 2c 00 00 | 05 30", codec.ErrTruncated, "server_version", 17},
		{"bad server_version", "01 00 00 00 | 2a 00 00 00 00 00 00 00 | 00 2c 00 00 | 03 30 2e ff", codec.ErrUTF8, "server_version", 19},
	})
}

// TestLoginReplyEncodeErrors checks Validate's field order.
func TestLoginReplyEncodeErrors(t *testing.T) {
	checkBadValues(t, []badValue[codec.LoginReply]{
		{"zero value", codec.LoginReply{}, codec.ErrField, "session", 4},
		{"session 0 with a good version", codec.LoginReply{ServerVersion: []byte("1")}, codec.ErrField, "session", 4},
		{"empty server_version", codec.LoginReply{Session: 1}, codec.ErrLength, "server_version_len", 16},
		{"256-byte server_version", codec.LoginReply{Session: 1, ServerVersion: []byte(strings.Repeat("9", 256))}, codec.ErrLength, "server_version_len", 16},
		{"bad server_version", codec.LoginReply{Session: 1, ServerVersion: []byte("0.\xff")}, codec.ErrUTF8, "server_version", 19},
	})
}
