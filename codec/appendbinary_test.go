//go:build go1.24

// encoding.BinaryAppender is new in Go 1.24; the module's go directive is
// lower, so this check builds only with a Go that has it.

package codec_test

import (
	"bytes"
	"encoding"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestAppendBinary: every message type is an encoding.BinaryAppender whose
// AppendBinary is its AppendBinary, bytes and errors alike (the headers
// through a pointer, as their AppendBinary takes one).
func TestAppendBinary(t *testing.T) {
	values := []interface {
		encoding.BinaryAppender
		AppendBinary([]byte) ([]byte, error)
	}{
		infoGoSDK, codec.ClientVersionInfo{},
		codec.LoginRegister{Info: infoGoSDK, Username: []byte("iggy"), Password: codec.NewSecret([]byte("pw"))},
		codec.LoginRegisterPAT{Info: infoGoSDK, Token: codec.NewSecret([]byte("tok"))},
		codec.LoginReply{Session: 1, ServerVersion: []byte("v")}, codec.LoginReply{},
		&reqPing, &codec.RequestHeader{}, &repOK, &codec.ReplyHeader{},
		ptr(codec.NewEviction(codec.Uint128From(1), codec.ReasonNoSession)), &codec.Eviction{},
	}
	for _, v := range values {
		want, wantErr := v.AppendBinary([]byte("x"))
		got, err := v.AppendBinary([]byte("x"))
		if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) {
			t.Errorf("%T: AppendBinary = %x, %v; AppendBinary = %x, %v", v, got, err, want, wantErr)
		}
	}
}
