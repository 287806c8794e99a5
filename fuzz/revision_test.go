package fuzz

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// The bodies of protocol 0.11.1 (WIRE.md section 10): BIND_SESSION, and
// both login bodies in the bind-secret revision.

var bindSessionAPI = bodyAPI[codec.BindSession]{
	name:       "BindSession",
	decode:     codec.DecodeBindSession,
	parse:      codec.ParseBindSession,
	encodedLen: codec.BindSession.EncodedLen,
	appendTo:   codec.BindSession.AppendBinary,
	validate:   codec.BindSession.Validate,
	clone:      codec.BindSession.Clone,
	fields: func(b codec.BindSession) [][]byte {
		return [][]byte{b.Info.SDKName, b.Info.SDKVersion, b.BindSecret.Bytes()}
	},
}

func FuzzBindSession(f *testing.F) {
	fuzzBody(f, bindSessionAPI, func(b *codec.BindSession) *codec.Secret { return &b.BindSecret })
}
