package main

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// The inputs the tests decode, built with the codec's encoders so that they
// are valid by construction.

// testPassword is the secret no output may ever contain.
const testPassword = "hunter2-s3cr3t"

var testClient = codec.Uint128{Lo: 0x1122334455667788, Hi: 0x99}

func testInfo() codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
}

func loginBody(t testing.TB, password string) []byte {
	t.Helper()
	b, err := codec.LoginRegister{Info: testInfo(), Username: []byte("iggy"), Password: codec.Secret(password)}.AppendTo(nil)
	must(t, err)
	return b
}

func patBody(t testing.TB, token string) []byte {
	t.Helper()
	b, err := codec.LoginRegisterPAT{Info: testInfo(), Token: codec.Secret(token), Context: []byte("ctx")}.AppendTo(nil)
	must(t, err)
	return b
}

func registerFrame(t testing.TB, body []byte) []byte {
	t.Helper()
	f, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: testClient, Operation: codec.OperationRegister}, body)
	must(t, err)
	return f
}

// legacyLoginFrame is a NonReplicated LOGIN_USER (38) request whose body
// holds the password in a layout the codec does not decode.
func legacyLoginFrame(t testing.TB, password string) []byte {
	t.Helper()
	body := append([]byte{4, 'i', 'g', 'g', 'y', byte(len(password))}, password...)
	f, err := codec.AppendRequestFrame(nil, codec.RequestHeader{
		Client: testClient, Operation: codec.OperationNonReplicated, Request: 1, Code: codec.CodeLoginUser,
	}, body)
	must(t, err)
	return f
}

func eviction14(t testing.TB) []byte {
	t.Helper()
	b, err := codec.NewIncompatibleProtocol(testClient, codec.DefaultWindow(codec.MustPack(0, 11, 0))).AppendTo(nil)
	must(t, err)
	return b
}

func loginReplyFrame(t testing.TB) []byte {
	t.Helper()
	b, err := codec.AppendLoginReplyFrame(nil,
		codec.ReplyHeader{Client: testClient, Operation: codec.OperationRegister, Commit: 3},
		codec.LoginReply{UserID: 1, Session: 3, ServerProtocol: codec.MustPack(0, 11, 0), ServerVersion: []byte("0.6.0")})
	must(t, err)
	return b
}

// must stops the test on an error the test did not expect.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
