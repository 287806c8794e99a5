package main

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// marker is the secret the tests plant: valid UTF-8 that no output would
// show by chance.
const marker = "Mk7-SECRET-q9Zx-PLANTED!"

// secret is the one place the tests make a codec.Secret.
func secret(s string) codec.Secret { return codec.NewSecret([]byte(s)) }

var info = codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}

func loginBody(t testing.TB, password string) []byte {
	b, err := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: secret(password),
		Context: []byte("ctx")}.AppendBinary(nil)
	require.NoError(t, err)
	return b
}

// loginSecretBody is loginBody in the bind-secret layout of 0.11.1, with
// a bind secret of printable letters.
func loginSecretBody(t testing.TB, password string) []byte {
	in := info
	in.Protocol = codec.Protocol0111
	b, err := codec.LoginRegister{Info: in, Revision: codec.RevisionBindSecret, BindSecret: secret("BIND-secret-0123456789-abcdefghi"),
		Username: []byte("iggy"), Password: secret(password), Context: []byte("ctx")}.AppendBinary(nil)
	require.NoError(t, err)
	return b
}

func patBody(t testing.TB, token string) []byte {
	b, err := codec.LoginRegisterPAT{Info: info, Token: secret(token), Context: []byte("ctx")}.AppendBinary(nil)
	require.NoError(t, err)
	return b
}

// requestFrame frames body as a request of operation op.
func requestFrame(t testing.TB, op codec.Operation, body []byte) []byte {
	h := codec.RequestHeader{Client: codec.Uint128From(7), Operation: op}
	if op == codec.OperationNonReplicated {
		h.Code, h.Request = codec.CodePing, 1
	}
	b, err := codec.AppendRequestFrame(nil, h, body)
	require.NoError(t, err)
	return b
}

func replyFrame(t testing.TB) []byte {
	b, err := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Client: codec.Uint128From(7),
		Operation: codec.OperationRegister}, codec.LoginReply{UserID: 1, Session: 9,
		ServerProtocol: codec.MustPack(0, 11, 0), ServerVersion: []byte("0.6.0")})
	require.NoError(t, err)
	return b
}

func eviction14(t testing.TB) []byte {
	w := codec.Window{Min: codec.MustPack(0, 10, 0), Max: codec.MustPack(0, 11, 0)}
	e := codec.NewIncompatibleProtocolEviction(codec.Uint128From(7), w)
	b, err := e.AppendBinary(nil)
	require.NoError(t, err)
	return b
}

// withSize returns a copy of frame with its size field set to size.
func withSize(frame []byte, size uint32) []byte {
	out := bytes.Clone(frame)
	binary.LittleEndian.PutUint32(out[48:], size)
	return out
}

// dumpText returns the text output of src read as kind.
func dumpText(t testing.TB, src []byte, kind string) (Report, string) {
	r, err := Dump(src, kind)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, r.WriteText(&out))
	return r, out.String()
}

// dumpTrusting is dumpText with -trust-version: a 0.11.0 body is laid out
// in 0.11.0's shapes alone, so that its fields decode (the tests of how a
// decoded body prints use it; without it a login body shows its
// client_version_info and little else).
func dumpTrusting(t testing.TB, src []byte, kind string) (Report, string) {
	r, err := DumpTrustingVersion(src, kind)
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, r.WriteText(&out))
	return r, out.String()
}

// section returns the first section of r whose title starts with title.
func section(t testing.TB, r Report, title string) Section {
	for _, s := range r.Sections {
		if len(s.Title) >= len(title) && s.Title[:len(title)] == title {
			return s
		}
	}
	require.Failf(t, "no section", "%q in %+v", title, r.Sections)
	return Section{}
}

// value returns the value of the field name of s.
func value(t testing.TB, s Section, name string) Field {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	require.Failf(t, "no field", "%q in %s", name, s.Title)
	return Field{}
}
