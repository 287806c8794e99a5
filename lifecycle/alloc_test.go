package lifecycle_test

import (
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// sink keeps the answers alive so the work is not optimised away.
var sink []byte

// sinkServer keeps BenchmarkNewServer's servers alive.
var sinkServer *lifecycle.Server

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
		{"eviction 7", true, replicated(t, clientA, codec.OperationCreateStream, 1, 1), true},
	}
	const runs = 100
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conns := make([]*lifecycle.Conn, runs+1)
			for i := range conns {
				conns[i] = srv.NewConn()
				if c.loggedIn {
					if _, _, err := conns[i].Handle(login, nil); err != nil {
						t.Fatalf("login: %v", err)
					}
					if _, _, err := conns[i].Handle(login, nil); err != nil { // session grows past 1
						t.Fatalf("second login: %v", err)
					}
				}
			}
			i := 0
			allocs := testing.AllocsPerRun(runs, func() {
				conn := conns[0]
				if c.evicts {
					conn = conns[i]
					i++
				}
				sink, _, _ = conn.Handle(c.frame, out[:0])
			})
			if allocs != 0 {
				t.Fatalf("allocations per Handle = %v, want 0", allocs)
			}
			if len(sink) != 256 {
				t.Fatalf("an answer was produced: answer is %d bytes, want 256", len(sink))
			}
			if got := conns[0].Closed(); got != c.evicts {
				t.Fatalf("closed = %t, want %t", got, c.evicts)
			}
		})
	}
	t.Run("closed", func(t *testing.T) {
		conn := srv.NewConn()
		if _, _, err := conn.Handle(nonReplicated(t, clientA, 1, codec.CodeLoginUser), nil); err != nil {
			t.Fatalf("legacy login: %v", err)
		}
		ping := nonReplicated(t, clientA, 1, codec.CodePing)
		if allocs := testing.AllocsPerRun(runs, func() { sink, _, _ = conn.Handle(ping, out[:0]) }); allocs != 0 {
			t.Fatalf("allocations per Handle on a closed connection = %v, want 0", allocs)
		}
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
	_, _, err := conn.Handle(notRequest, out[:0])
	if !errors.Is(err, lifecycle.ErrDropped) {
		t.Fatalf("Handle(reply frame) error = %v, want %v", err, lifecycle.ErrDropped)
	}
	if allocs := testing.AllocsPerRun(runs, func() { sink, _, err = conn.Handle(notRequest, out[:0]) }); allocs != 2 {
		t.Errorf("invalid header: allocations per Handle = %v, want 2", allocs)
	}

	conn = srv.NewConn()
	_, _, err = conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil)
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	ahead := replicated(t, clientA, codec.OperationLogout, conn.State().Session+1, 1)
	_, _, err = conn.Handle(ahead, out[:0])
	if !errors.Is(err, lifecycle.ErrSessionAhead) {
		t.Fatalf("Handle(session ahead) error = %v, want %v", err, lifecycle.ErrSessionAhead)
	}
	if allocs := testing.AllocsPerRun(runs, func() { sink, _, err = conn.Handle(ahead, out[:0]) }); allocs != 1 {
		t.Errorf("session ahead: allocations per Handle = %v, want 1", allocs)
	}
}
