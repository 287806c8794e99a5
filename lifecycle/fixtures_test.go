package lifecycle_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Fixtures shared by the tests: a 0.11.0 server accepting 0.11.x, two users
// (iggy is active, bob is not) and a token for each.
var (
	v011       = codec.MustPack(0, 11, 0)
	testWindow = codec.DefaultWindow(v011)
	testAuth   = lifecycle.StaticAuth{
		Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
			{ID: 2, Name: "bob", Password: codec.NewSecret([]byte("bobpw")), Inactive: true},
		},
		Tokens: []lifecycle.Token{
			{Value: codec.NewSecret([]byte("tok-iggy")), User: "iggy"},
			{Value: codec.NewSecret([]byte("tok-bob")), User: "bob"},
		},
	}
	clientA = codec.Uint128{Lo: 0xA1, Hi: 0xA2}
	clientB = codec.Uint128{Lo: 0xB1, Hi: 0xB2}
)

const testServerVersion = "iggywire-test 1.0"

func newTestServer(t testing.TB) *lifecycle.Server {
	t.Helper()
	s, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Version: testServerVersion, Auth: testAuth})
	require.NoError(t, err)
	return s
}

func info(v codec.Version) codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: v, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
}

// passwordBody is a LOGIN_REGISTER body.
func passwordBody(t testing.TB, v codec.Version, user, pass string) []byte {
	t.Helper()
	b, err := codec.LoginRegister{Info: info(v), Username: []byte(user), Password: codec.NewSecret([]byte(pass))}.AppendTo(nil)
	require.NoError(t, err)
	return b
}

// tokenBody is a LOGIN_REGISTER_WITH_PAT body.
func tokenBody(t testing.TB, v codec.Version, token string) []byte {
	t.Helper()
	b, err := codec.LoginRegisterPAT{Info: info(v), Token: codec.NewSecret([]byte(token))}.AppendTo(nil)
	require.NoError(t, err)
	return b
}

// request is a whole request frame.
func request(t testing.TB, h codec.RequestHeader, body []byte) []byte {
	t.Helper()
	b, err := codec.AppendRequestFrame(nil, h, body)
	require.NoError(t, err)
	return b
}

func register(t testing.TB, client codec.Uint128, body []byte) []byte {
	return request(t, codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, body)
}

func nonReplicated(t testing.TB, client codec.Uint128, req uint64, code codec.Code) []byte {
	return request(t, codec.RequestHeader{Client: client, Request: req, Operation: codec.OperationNonReplicated, Code: code}, nil)
}

func replicated(t testing.TB, client codec.Uint128, op codec.Operation, session, req uint64) []byte {
	return request(t, codec.RequestHeader{Client: client, Request: req, Operation: op, Session: session}, nil)
}

// replyFrame is the expected Reply with an empty body.
func replyFrame(t testing.TB, client codec.Uint128, req uint64, op codec.Operation, status codec.Status) []byte {
	t.Helper()
	b, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: client, Request: req, Operation: op, Status: status}, nil)
	require.NoError(t, err)
	return b
}

// loginFrame is the expected reply to a successful login.
func loginFrame(t testing.TB, client codec.Uint128, session uint64, user uint32) []byte {
	t.Helper()
	b, err := codec.AppendLoginReplyFrame(nil,
		codec.ReplyHeader{Client: client, Op: session, Commit: session, Operation: codec.OperationRegister},
		codec.LoginReply{UserID: user, Session: session, ServerProtocol: v011, ServerVersion: []byte(testServerVersion)})
	require.NoError(t, err)
	return b
}

// evictionFrame is the expected eviction.
func evictionFrame(t testing.TB, client codec.Uint128, reason codec.EvictionReason) []byte {
	t.Helper()
	e := codec.NewEviction(client, reason)
	if reason == codec.ReasonIncompatibleProtocol {
		e = codec.NewIncompatibleProtocol(client, testWindow)
	}
	b, err := e.AppendTo(nil)
	require.NoError(t, err)
	return b
}
