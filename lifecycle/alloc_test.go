package lifecycle_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// sink keeps the answers alive so the work is not optimised away.
var sink []byte

// TestHandleNoAllocs: a ping, a denial, an eviction and a frame on a closed
// connection cost no allocation when out has room. A dropped frame costs
// its error: two allocations for a header that is not a valid request (the
// *DroppedError and the codec's typed error it wraps), one for a session
// ahead of the bound one (TestHandleDropAllocs).
func TestHandleNoAllocs(t *testing.T) {
	srv := newTestServer(t)
	login := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	out := make([]byte, 0, 1024)
	cases := []struct {
		name     string
		loggedIn bool
		frame    []byte
		evicts   bool
	}{
		{"ping before login", false, nonReplicated(t, clientA, 1, codec.CodePing), false},
		{"ping after login", true, nonReplicated(t, clientA, 1, codec.CodePing), false},
		{"deny 40", false, nonReplicated(t, clientA, 1, codec.CodeGetClusterMetadata), false},
		{"deny 3 after login", true, nonReplicated(t, clientA, 1, codec.CodeGetClusterMetadata), false},
		{"eviction 1", false, replicated(t, clientA, codec.OperationLogout, 1, 1), true},
		{"eviction 15 legacy", false, nonReplicated(t, clientA, 1, codec.CodeLoginUser), true},
		// A zombie of an earlier session on a connection that logged in twice.
		{"eviction 7", true, replicated(t, clientA, codec.OperationMetadataFirst, 1, 1), true},
	}
	const runs = 100
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conns := make([]*lifecycle.Conn, runs+1)
			for i := range conns {
				conns[i] = srv.NewConn()
				if c.loggedIn {
					_, err := conns[i].Handle(login, nil)
					require.NoError(t, err)
					_, err = conns[i].Handle(login, nil) // session grows past 1
					require.NoError(t, err)
				}
			}
			i := 0
			allocs := testing.AllocsPerRun(runs, func() {
				conn := conns[0]
				if c.evicts {
					conn = conns[i]
					i++
				}
				sink, _ = conn.Handle(c.frame, out[:0])
			})
			require.Equal(t, 0.0, allocs, "allocations per Handle")
			require.True(t, len(sink) == 256, "an answer was produced")
			require.Equal(t, c.evicts, conns[0].Closed(), "closed")
		})
	}
	t.Run("closed", func(t *testing.T) {
		conn := srv.NewConn()
		_, err := conn.Handle(nonReplicated(t, clientA, 1, codec.CodeLoginUser), nil)
		require.NoError(t, err)
		ping := nonReplicated(t, clientA, 1, codec.CodePing)
		require.Equal(t, 0.0, testing.AllocsPerRun(runs, func() { sink, _ = conn.Handle(ping, out[:0]) }))
	})
}

// TestHandleDropAllocs: what a dropped frame costs, as TestHandleNoAllocs
// states it.
func TestHandleDropAllocs(t *testing.T) {
	srv := newTestServer(t)
	out := make([]byte, 0, 1024)
	const runs = 100

	conn := srv.NewConn()
	notRequest := replyFrame(t, clientA, 1, codec.OperationNonReplicated, codec.StatusOK)
	_, err := conn.Handle(notRequest, out[:0])
	require.ErrorIs(t, err, lifecycle.ErrDropped)
	assert.Equal(t, 2.0, testing.AllocsPerRun(runs, func() { sink, err = conn.Handle(notRequest, out[:0]) }), "invalid header")

	conn = srv.NewConn()
	_, err = conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil)
	require.NoError(t, err)
	ahead := replicated(t, clientA, codec.OperationLogout, conn.State().Session+1, 1)
	_, err = conn.Handle(ahead, out[:0])
	require.ErrorIs(t, err, lifecycle.ErrSessionAhead)
	assert.Equal(t, 1.0, testing.AllocsPerRun(runs, func() { sink, err = conn.Handle(ahead, out[:0]) }), "session ahead")
}

func BenchmarkConnPing(b *testing.B) {
	conn := newTestServer(b).NewConn()
	ping := nonReplicated(b, clientA, 1, codec.CodePing)
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	b.SetBytes(int64(len(ping)))
	for b.Loop() {
		sink, _ = conn.Handle(ping, out[:0])
	}
}

func BenchmarkConnDeny(b *testing.B) {
	conn := newTestServer(b).NewConn()
	frame := nonReplicated(b, clientA, 1, codec.CodeGetClusterMetadata)
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		sink, _ = conn.Handle(frame, out[:0])
	}
}

func BenchmarkConnLogin(b *testing.B) {
	conn := newTestServer(b).NewConn()
	login := register(b, clientA, passwordBody(b, v011, "iggy", "iggy"))
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		sink, _ = conn.Handle(login, out[:0]) // a re-login replaces the binding
	}
}

func BenchmarkConnEviction(b *testing.B) {
	srv := newTestServer(b)
	frame := replicated(b, clientA, codec.OperationLogout, 1, 1)
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		sink, _ = srv.NewConn().Handle(frame, out[:0])
	}
}

// BenchmarkClientPingRoundTrip: a client builds a ping, a Conn answers it,
// the client reads the answer.
func BenchmarkClientPingRoundTrip(b *testing.B) {
	conn := newTestServer(b).NewConn()
	c := newTestClient(b)
	req := make([]byte, 0, 512)
	ans := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		req, _ = c.Ping(req[:0])
		ans, _ = conn.Handle(req, ans[:0])
		if _, err := c.Receive(ans); err != nil {
			b.Fatal(err)
		}
	}
}
