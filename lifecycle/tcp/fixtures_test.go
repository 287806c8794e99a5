package tcp_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Fixtures shared by the tests, the same as the lifecycle package's own: a
// 0.11.0 server accepting 0.11.x, two users (iggy is active, bob is not)
// and a token for each, and clients with ids 1, 2, 3, ...
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
)

const testServerVersion = "iggywire-test 1.0"

func newTestServer(t testing.TB) *lifecycle.Server {
	t.Helper()
	s, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Version: testServerVersion, Auth: testAuth})
	require.NoError(t, err)
	return s
}

// ids is a deterministic randomness source: each 16-byte read is the next
// client id 1, 2, 3, ...
type ids struct{ next uint64 }

func (r *ids) Read(p []byte) (int, error) {
	clear(p)
	r.next++
	binary.LittleEndian.PutUint64(p, r.next)
	return len(p), nil
}

func newTestClient(t testing.TB) *lifecycle.Client {
	t.Helper()
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Rand: &ids{}})
	require.NoError(t, err)
	return c
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

// evictionFrame is the expected eviction.
func evictionFrame(t testing.TB, client codec.Uint128, reason codec.EvictionReason) []byte {
	t.Helper()
	b, err := codec.NewEviction(client, reason).AppendTo(nil)
	require.NoError(t, err)
	return b
}
