package tcp_test

import (
	"errors"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// newClient0111 is a Client at protocol 0.11.1, the revision with
// BIND_SESSION's secret.
func newClient0111(t *testing.T) *lifecycle.Client {
	t.Helper()
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: codec.Protocol0111})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitLoggedIn waits until the Listener counts want logged-in connections.
func waitLoggedIn(t *testing.T, l *tcp.Listener, want int) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for {
		_, in := l.Conns()
		if in == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("logged-in connections: %d, want %d", in, want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBindOfCountedSessionAdmittedAtQuota: at MaxSessionsPerUser 1, a
// BIND_SESSION of the logical session a login holds on another connection
// resumes that session and is admitted, without counting a second one;
// the login's connection stays open and logged in. The session is counted
// once while either connection is logged in: another login of the account
// is refused until both are gone.
func TestBindOfCountedSessionAdmittedAtQuota(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxSessionsPerUser: 1})
	c := newClient0111(t)
	a := dial(t, l.Addr(), c)
	if _, err := a.login(); err != nil {
		t.Fatalf("login on A: %v", err)
	}
	b := dial(t, l.Addr(), c)
	if _, err := b.do(c.BindSession(nil)); err != nil {
		t.Fatalf("bind on B at the quota: %v, want admitted", err)
	}
	waitLoggedIn(t, l, 2) // A stays logged in
	if _, err := a.do(c.Ping(nil)); err != nil {
		t.Fatalf("ping on A after the bind on B: %v", err)
	}

	other := newClient0111(t)
	if _, err := dial(t, l.Addr(), other).login(); err == nil {
		t.Fatal("a second session of the account was admitted at quota 1")
	}
	// A goes: B, still on the session, carries its count.
	_ = a.nc.Close()
	waitLoggedIn(t, l, 1)
	if _, err := dial(t, l.Addr(), newClient0111(t)).login(); err == nil {
		t.Fatal("a second session was admitted while B holds the first")
	}
	_ = b.nc.Close()
	waitLoggedIn(t, l, 0)
	if _, err := dial(t, l.Addr(), newClient0111(t)).login(); err != nil {
		t.Fatalf("login once the session's connections are gone: %v", err)
	}
}

// TestBindOfUncountedSessionCountedAtQuota: a BIND_SESSION of a logical
// session no connection is logged in on (its connection closed) is a
// session of the account again: at MaxSessionsPerUser 1 with another
// session held it is refused (40), and admitted once that one is gone.
func TestBindOfUncountedSessionCountedAtQuota(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxSessionsPerUser: 1})
	c := newClient0111(t)
	a := dial(t, l.Addr(), c)
	if _, err := a.login(); err != nil {
		t.Fatalf("login on A: %v", err)
	}
	_ = a.nc.Close()
	waitLoggedIn(t, l, 0)

	other := dial(t, l.Addr(), newClient0111(t))
	if _, err := other.login(); err != nil {
		t.Fatalf("login of another session: %v", err)
	}
	b := dial(t, l.Addr(), c)
	_, err := b.do(c.BindSession(nil))
	var refused *lifecycle.BindRefusedError
	if !errors.As(err, &refused) || refused.Status != codec.StatusUnauthenticated {
		t.Fatalf("bind of an uncounted session at the quota: %v, want refused 40", err)
	}
	waitLoggedIn(t, l, 1)
}

// TestBindOfCountedSessionKeepsReserve: a bind of a counted session is
// spared the account quota, not the reserve, which counts connections:
// once MaxConns-ReservedConns connections are logged in, it is refused (40)
// as another login of an account holding a session is.
func TestBindOfCountedSessionKeepsReserve(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxConns: 3, ReservedConns: 1, MaxSessionsPerUser: -1, MaxSessionsPerUserAddr: -1, MaxConnsPerAddr: -1})
	c := newClient0111(t)
	if _, err := dial(t, l.Addr(), c).login(); err != nil {
		t.Fatalf("login on A: %v", err)
	}
	if _, err := dial(t, l.Addr(), newClient0111(t)).login(); err != nil {
		t.Fatalf("second login of the account: %v", err)
	}
	waitLoggedIn(t, l, 2)
	_, err := dial(t, l.Addr(), c).do(c.BindSession(nil))
	var refused *lifecycle.BindRefusedError
	if !errors.As(err, &refused) || refused.Status != codec.StatusUnauthenticated {
		t.Fatalf("bind into the reserve: %v, want refused 40", err)
	}
	waitLoggedIn(t, l, 2)
}
