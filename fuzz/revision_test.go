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

// loginSecretAPI is LoginRegister read and written in the bind-secret
// revision: the same invariants as the 0.11.0 body, through the decoders
// that take the revision.
var loginSecretAPI = bodyAPI[codec.LoginRegister]{
	name: "LoginRegister 0.11.1",
	decode: func(src []byte) (codec.LoginRegister, int, error) {
		return codec.DecodeLoginRegisterRev(src, codec.RevisionBindSecret)
	},
	parse: func(src []byte) (codec.LoginRegister, error) {
		return codec.ParseLoginRegisterRev(src, codec.RevisionBindSecret)
	},
	encodedLen: codec.LoginRegister.EncodedLen,
	appendTo:   codec.LoginRegister.AppendBinary,
	validate:   codec.LoginRegister.Validate,
	clone:      codec.LoginRegister.Clone,
	fields: func(l codec.LoginRegister) [][]byte {
		return [][]byte{l.Info.SDKName, l.Info.SDKVersion, l.BindSecret.Bytes(), l.Username, l.Password.Bytes(), l.Context}
	},
}

var loginPATSecretAPI = bodyAPI[codec.LoginRegisterPAT]{
	name: "LoginRegisterPAT 0.11.1",
	decode: func(src []byte) (codec.LoginRegisterPAT, int, error) {
		return codec.DecodeLoginRegisterPATRev(src, codec.RevisionBindSecret)
	},
	parse: func(src []byte) (codec.LoginRegisterPAT, error) {
		return codec.ParseLoginRegisterPATRev(src, codec.RevisionBindSecret)
	},
	encodedLen: codec.LoginRegisterPAT.EncodedLen,
	appendTo:   codec.LoginRegisterPAT.AppendBinary,
	validate:   codec.LoginRegisterPAT.Validate,
	clone:      codec.LoginRegisterPAT.Clone,
	fields: func(l codec.LoginRegisterPAT) [][]byte {
		return [][]byte{l.Info.SDKName, l.Info.SDKVersion, l.BindSecret.Bytes(), l.Token.Bytes(), l.Context}
	},
}

// FuzzLoginRegisterSecret holds the 0.11.1 password body to every invariant
// of a body, and printing a decoded one to show neither its bind secret nor
// its password.
func FuzzLoginRegisterSecret(f *testing.F) {
	fuzzBody(f, loginSecretAPI, func(l *codec.LoginRegister) *codec.Secret { return &l.BindSecret })
}

// FuzzLoginRegisterPATSecret is FuzzLoginRegisterSecret for the token body.
func FuzzLoginRegisterPATSecret(f *testing.F) {
	fuzzBody(f, loginPATSecretAPI, func(l *codec.LoginRegisterPAT) *codec.Secret { return &l.BindSecret })
}
