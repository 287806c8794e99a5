//go:build go1.24

// The benchmarks use testing.B.Loop, new in Go 1.24; the module's go
// directive is lower, so they build only with a Go that has it.

package lifecycle_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

func BenchmarkConnPing(b *testing.B) {
	conn := newTestServer(b).NewConn()
	ping := nonReplicated(b, clientA, 1, codec.CodePing)
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	b.SetBytes(int64(len(ping)))
	for b.Loop() {
		sink, _, _ = conn.Handle(ping, out[:0])
	}
}

func BenchmarkConnDeny(b *testing.B) {
	conn := newTestServer(b).NewConn()
	frame := nonReplicated(b, clientA, 1, codec.CodeGetClusterMetadata)
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		sink, _, _ = conn.Handle(frame, out[:0])
	}
}

func BenchmarkConnLogin(b *testing.B) {
	conn := newTestServer(b).NewConn()
	login := register(b, clientA, passwordBody(b, v011, "iggy", "iggy"))
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		sink, _, _ = conn.Handle(login, out[:0]) // a re-login replaces the binding
	}
}

func BenchmarkConnEviction(b *testing.B) {
	srv := newTestServer(b)
	frame := replicated(b, clientA, codec.OperationLogout, 1, 1)
	out := make([]byte, 0, 512)
	b.ReportAllocs()
	for b.Loop() {
		sink, _, _ = srv.NewConn().Handle(frame, out[:0])
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
		ans, _, _ = conn.Handle(req, ans[:0])
		if _, err := c.Receive(ans); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewServer makes a Server at the default bound of logical
// sessions and at the largest allowed: the sessions' memory grows with
// the sessions held, so both cost the same (make bench holds
// NewServer/MaxSessionsLimit to a few KiB; a table sized by its bound
// would allocate hundreds).
func BenchmarkNewServer(b *testing.B) {
	for _, c := range []struct {
		name string
		max  int
	}{{"Default", 0}, {"MaxSessionsLimit", lifecycle.MaxSessionsLimit}} {
		b.Run(c.name, func(b *testing.B) {
			cfg := lifecycle.Config{Window: window0111, Auth: testAuth, MaxSessions: c.max}
			b.ReportAllocs()
			for b.Loop() {
				srv, err := lifecycle.NewServer(cfg)
				if err != nil {
					b.Fatal(err)
				}
				sinkServer = srv
			}
		})
	}
}
