package lifecycle_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
)

// The fixtures these tests share with lifecycle/tcp's are in
// internal/lifecycletest; the short names keep the frame tables readable.
// The rest are this package's own.
var (
	v011       = lifecycletest.V011
	testWindow = lifecycletest.Window
	testAuth   = lifecycletest.Auth
	clientA    = lifecycletest.ClientA
	clientB    = codec.Uint128{Lo: 0xB1, Hi: 0xB2}

	newTestServer = lifecycletest.NewServer
	newTestClient = lifecycletest.NewClient
	info          = lifecycletest.Info
	passwordBody  = lifecycletest.PasswordBody
	request       = lifecycletest.Request
	register      = lifecycletest.Register
	nonReplicated = lifecycletest.NonReplicated
	evictionFrame = lifecycletest.EvictionFrame
)

const testServerVersion = lifecycletest.ServerVersion

// tokenBody is a LOGIN_REGISTER_WITH_PAT body.
func tokenBody(t testing.TB, v codec.Version, token string) []byte {
	t.Helper()
	b, err := codec.LoginRegisterPAT{Info: info(v), Token: codec.NewSecret([]byte(token))}.AppendBinary(nil)
	if err != nil {
		t.Fatalf("LoginRegisterPAT.AppendBinary: %v", err)
	}
	return b
}

func replicated(t testing.TB, client codec.Uint128, op codec.Operation, session, req uint64) []byte {
	return request(t, codec.RequestHeader{Client: client, Request: req, Operation: op, Session: session}, nil)
}

// replyFrame is the expected Reply with an empty body.
func replyFrame(t testing.TB, client codec.Uint128, req uint64, op codec.Operation, status codec.Status) []byte {
	t.Helper()
	b, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: client, Request: req, Operation: op, Status: status}, nil)
	if err != nil {
		t.Fatalf("AppendReplyFrame: %v", err)
	}
	return b
}

// loginFrame is the expected reply to a successful login.
func loginFrame(t testing.TB, client codec.Uint128, session uint64, user uint32) []byte {
	t.Helper()
	b, err := codec.AppendLoginReplyFrame(nil,
		codec.ReplyHeader{Client: client, Op: session, Commit: session, Operation: codec.OperationRegister},
		codec.LoginReply{UserID: user, Session: session, ServerProtocol: v011, ServerVersion: []byte(testServerVersion)})
	if err != nil {
		t.Fatalf("AppendLoginReplyFrame: %v", err)
	}
	return b
}
