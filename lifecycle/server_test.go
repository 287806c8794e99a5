package lifecycle_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

func newServerWith(t testing.TB, edit func(*lifecycle.Config)) *lifecycle.Server {
	t.Helper()
	cfg := lifecycle.Config{Window: testWindow, Version: testServerVersion, Auth: testAuth}
	edit(&cfg)
	s, err := lifecycle.NewServer(cfg)
	require.NoError(t, err)
	return s
}

// TestServerConnIDEvictions: with ConnIDEvictions, evictions 1 (NoSession)
// carry the server's own id for the connection, as the reference does
// (WIRE.md section 7, point 10); every other eviction, and every eviction
// without the option, echoes the request's client id (point 1).
func TestServerConnIDEvictions(t *testing.T) {
	loginA := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	metaB := replicated(t, clientB, codec.OperationMetadataFirst, 1, 1)
	cases := []struct {
		name     string
		connIDs  bool
		before   [][]byte // frames answered first
		in       []byte
		reason   codec.EvictionReason
		fromConn bool // the eviction carries Conn.ID, else the request's client id
	}{
		{"1 before login", true, nil, replicated(t, clientB, codec.OperationLogout, 1, 1), codec.ReasonNoSession, true},
		{"1 from another client", true, [][]byte{loginA}, metaB, codec.ReasonNoSession, true},
		{"7 keeps the client id", true, [][]byte{loginA, loginA}, replicated(t, clientA, codec.OperationMetadataFirst, 1, 1), codec.ReasonSessionTooLow, false},
		{"9 keeps the client id", true, nil, register(t, clientB, passwordBody(t, v011, "iggy", "wrong!")), codec.ReasonInvalidCredentials, false},
		{"15 keeps the client id", true, nil, nonReplicated(t, clientB, 1, codec.CodeLoginUser), codec.ReasonMalformedLogin, false},
		{"1 without the option", false, [][]byte{loginA}, metaB, codec.ReasonNoSession, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.ConnIDEvictions = tc.connIDs })
			srv.NewConn() // so that the connection under test is not the first
			conn := srv.NewConn()
			require.Equal(t, codec.Uint128{Lo: 2}, conn.ID())
			for _, f := range tc.before {
				_, err := conn.Handle(f, nil)
				require.NoError(t, err)
			}
			got, err := conn.Handle(tc.in, nil)
			require.NoError(t, err)
			h, err := codec.DecodeRequestHeader(tc.in)
			require.NoError(t, err)
			want := h.Client
			if tc.fromConn {
				want = conn.ID()
			}
			require.NotEqual(t, conn.ID(), h.Client)
			assert.Equal(t, evictionFrame(t, want, tc.reason), got)
			assert.True(t, conn.Closed())
		})
	}
}

// TestServerConnIDs: connection ids are non-zero and distinct.
func TestServerConnIDs(t *testing.T) {
	srv := newTestServer(t)
	seen := map[codec.Uint128]bool{}
	for range 100 {
		id := srv.NewConn().ID()
		require.False(t, id.IsZero())
		require.False(t, seen[id], "id %v handed out twice", id)
		seen[id] = true
	}
}

// TestServerConnIDEvictionsClient: a Client reads an eviction carrying the
// server's connection id for what it means, 40, not as a mismatch.
func TestServerConnIDEvictionsClient(t *testing.T) {
	conn := newServerWith(t, func(c *lifecycle.Config) { c.ConnIDEvictions = true }).NewConn()
	c := newTestClient(t)
	f, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
	require.NoError(t, err)
	answer, err := conn.Handle(f, nil)
	require.NoError(t, err)
	_, err = c.Receive(answer)
	require.NoError(t, err)
	// A zombie frame from another client on the same connection.
	answer, err = conn.Handle(replicated(t, clientB, codec.OperationMetadataFirst, 1, 1), nil)
	require.NoError(t, err)
	require.Equal(t, evictionFrame(t, conn.ID(), codec.ReasonNoSession), answer)
	_, err = c.Receive(answer)
	require.ErrorIs(t, err, codec.StatusUnauthenticated)
	assert.True(t, c.Closed())
}

// TestServerTransient: the first Count Register requests, on any
// connection, are answered with a result section carrying Code, before
// the body is looked at; the connection stays open and not logged in.
// Then logins are decided as always.
func TestServerTransient(t *testing.T) {
	for _, code := range []codec.Status{codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted} {
		t.Run(code.String(), func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Transient = lifecycle.Transient{Code: code, Count: 3} })
			login := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
			conn := srv.NewConn()
			for i, in := range [][]byte{login, register(t, clientB, []byte("not a login body")), login} {
				if i == 2 {
					conn = srv.NewConn() // the count is the server's, not the connection's
				}
				got, err := conn.Handle(in, nil)
				require.NoError(t, err, "login %d", i)
				h, err := codec.DecodeRequestHeader(in)
				require.NoError(t, err)
				require.Equal(t, refLoginResult(h.Client, uint32(code)), got, "login %d", i)
				require.Equal(t, lifecycle.ConnState{}, conn.State(), "login %d", i)
				_, resultCode, err := codec.SplitResult(got[codec.HeaderSize:])
				require.NoError(t, err)
				require.Equal(t, uint32(code), resultCode)
			}
			got, err := conn.Handle(login, nil)
			require.NoError(t, err)
			require.Equal(t, loginFrame(t, clientA, 1, 1), got, "the fourth login is decided")
		})
	}
}

// TestServerTransientClient: a Client retries through a server's transient
// answers as each code says: after 57 with the same request, after 58 with
// a new client id.
func TestServerTransientClient(t *testing.T) {
	for _, tc := range []struct {
		code   codec.Status
		sameID bool
	}{{codec.StatusTransientNotCommitted, true}, {codec.StatusTransientNotAccepted, false}} {
		t.Run(tc.code.String(), func(t *testing.T) {
			conn := newServerWith(t, func(c *lifecycle.Config) { c.Transient = lifecycle.Transient{Code: tc.code, Count: 1} }).NewConn()
			c := newTestClient(t)
			first, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
			require.NoError(t, err)
			answer, err := conn.Handle(first, nil)
			require.NoError(t, err)
			_, err = c.Receive(answer)
			var te *lifecycle.TransientError
			require.ErrorAs(t, err, &te)
			require.Equal(t, tc.sameID, te.Replay())

			retry, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
			require.NoError(t, err)
			assert.Equal(t, tc.sameID, string(first) == string(retry))
			answer, err = conn.Handle(retry, nil)
			require.NoError(t, err)
			r, err := c.Receive(answer)
			require.NoError(t, err)
			assert.Equal(t, uint64(1), r.Login.Session)
		})
	}
}

// TestServerTransientConcurrent: Count is honoured exactly when
// connections log in at once.
func TestServerTransientConcurrent(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) {
		c.Transient = lifecycle.Transient{Code: codec.StatusTransientNotAccepted, Count: 50}
	})
	login := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	var transient, ok atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				got, err := srv.NewConn().Handle(login, nil)
				if err != nil {
					t.Error(err)
					return
				}
				if _, code, _ := codec.SplitResult(got[codec.HeaderSize:]); code != 0 {
					transient.Add(1)
				} else {
					ok.Add(1)
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int64(50), transient.Load())
	assert.Equal(t, int64(110), ok.Load())
}

// TestServerTransientConfig: a transient count needs code 57 or 58.
func TestServerTransientConfig(t *testing.T) {
	for _, tr := range []lifecycle.Transient{{Code: 3, Count: 1}, {Code: 0, Count: 1}, {Code: 59, Count: 2}} {
		_, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth, Transient: tr})
		assert.Error(t, err, "%+v", tr)
	}
	for _, tr := range []lifecycle.Transient{{}, {Code: 57}, {Code: 57, Count: 1}, {Code: 58, Count: 1 << 40}} {
		_, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth, Transient: tr})
		assert.NoError(t, err, "%+v", tr)
	}
}
