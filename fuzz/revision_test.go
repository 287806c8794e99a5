package fuzz

import (
	"encoding/binary"
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
	relabel: relabelLogin,
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
	relabel: relabelPAT,
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

// TestBodyInTheOtherRevision: a login body decoded in the revision its
// version does not select, both ways (a 0.11.1 body read in the 0.11.0
// layout, a development build's 0.11.0 body read with its secret), holds
// to every invariant but one: the encoders refuse it (rule
// body.revision.version) until its version is its revision's.
func TestBodyInTheOtherRevision(t *testing.T) {
	unitTest(t)
	info := codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	// A secret that reads, in the 0.11.0 layout, as username "abcd", an
	// empty password and no context (a token "abcd" and no context), the
	// rest trailing bytes: the 0.11.1 bodies decode there too.
	bind := codec.NewSecret(append([]byte("\x04abcd"), make([]byte, codec.BindSecretLen-5)...))
	login, err := codec.LoginRegister{Info: info, Revision: codec.RevisionBindSecret, BindSecret: bind,
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("pw"))}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	pat, err := codec.LoginRegisterPAT{Info: info, Revision: codec.RevisionBindSecret, BindSecret: bind,
		Token: codec.NewSecret([]byte("tok"))}.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	checkBody(t, loginRegisterAPI, login)
	checkBody(t, loginRegisterPATAPI, pat)
	dev := func(b []byte) []byte {
		b = append([]byte(nil), b...)
		binary.LittleEndian.PutUint32(b, uint32(codec.Protocol0110))
		return b
	}
	checkBody(t, loginSecretAPI, dev(login))
	checkBody(t, loginPATSecretAPI, dev(pat))
	for _, c := range []struct {
		name string
		err  error
	}{
		{"base", func() error { _, _, err := codec.DecodeLoginRegister(login); return err }()},
		{"secret", func() error {
			_, _, err := codec.DecodeLoginRegisterRev(dev(login), codec.RevisionBindSecret)
			return err
		}()},
		{"pat base", func() error { _, _, err := codec.DecodeLoginRegisterPAT(pat); return err }()},
		{"pat secret", func() error {
			_, _, err := codec.DecodeLoginRegisterPATRev(dev(pat), codec.RevisionBindSecret)
			return err
		}()},
	} {
		if c.err != nil {
			t.Fatalf("%s: the body does not decode (%v): the check above ran nothing", c.name, c.err)
		}
	}
}
