package lifecycle_test

import (
	"bytes"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

func newServerWith(t testing.TB, edit func(*lifecycle.Config)) *lifecycle.Server {
	t.Helper()
	cfg := lifecycle.Config{Window: testWindow, Version: testServerVersion, Auth: testAuth}
	edit(&cfg)
	s, err := lifecycle.NewServer(cfg)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return s
}

// TestServerConnIDEvictions: with ConnIDEvictions, evictions 1 (NoSession)
// carry the server's own id for the connection, as the reference does
// (WIRE.md section 7, point 10); every other eviction, and every eviction
// without the option, echoes the request's client id (point 1).
func TestServerConnIDEvictions(t *testing.T) {
	loginA := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	metaB := replicated(t, clientB, codec.OperationCreateStream, 1, 1)
	cases := []struct {
		name     string
		connIDs  bool
		before   [][]byte // frames answered first
		in       []byte
		reason   codec.EvictionReason
		fromConn bool // the eviction carries Conn.ID, else the request's client id
	}{
		{name: "1 before login", connIDs: true, in: replicated(t, clientB, codec.OperationLogout, 1, 1), reason: codec.ReasonNoSession, fromConn: true},
		{name: "1 from another client", connIDs: true, before: [][]byte{loginA}, in: metaB, reason: codec.ReasonNoSession, fromConn: true},
		{name: "7 keeps the client id", connIDs: true, before: [][]byte{loginA, loginA}, in: replicated(t, clientA, codec.OperationCreateStream, 1, 1), reason: codec.ReasonSessionTooLow, fromConn: false},
		{name: "9 keeps the client id", connIDs: true, in: register(t, clientB, passwordBody(t, v011, "iggy", "wrong!")), reason: codec.ReasonInvalidCredentials, fromConn: false},
		{name: "15 keeps the client id", connIDs: true, in: nonReplicated(t, clientB, 1, codec.CodeLoginUser), reason: codec.ReasonMalformedLogin, fromConn: false},
		{name: "1 without the option", connIDs: false, before: [][]byte{loginA}, in: metaB, reason: codec.ReasonNoSession, fromConn: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.ConnIDEvictions = tc.connIDs })
			srv.NewConn() // so that the connection under test is not the first
			conn := srv.NewConn()
			if id, want := conn.ID(), (codec.Uint128{Lo: 2}); id != want {
				t.Fatalf("ID() = %v, want %v", id, want)
			}
			for _, f := range tc.before {
				if _, _, err := conn.Handle(f, nil); err != nil {
					t.Fatalf("frame before: %v", err)
				}
			}
			got, _, err := conn.Handle(tc.in, nil)
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			h, err := codec.DecodeRequestHeader(tc.in)
			if err != nil {
				t.Fatalf("DecodeRequestHeader: %v", err)
			}
			want := h.Client
			if tc.fromConn {
				want = conn.ID()
			}
			if conn.ID() == h.Client {
				t.Fatalf("the connection id %v is the request's client id", conn.ID())
			}
			if wantFrame := evictionFrame(t, want, tc.reason); !bytes.Equal(got, wantFrame) {
				t.Errorf("answer =\n%x\nwant the eviction\n%x", got, wantFrame)
			}
			if !conn.Closed() {
				t.Errorf("Closed() = false, want true")
			}
		})
	}
}

// TestServerConnIDs: connection ids are non-zero and distinct.
func TestServerConnIDs(t *testing.T) {
	srv := newTestServer(t)
	seen := map[codec.Uint128]bool{}
	for range 100 {
		id := srv.NewConn().ID()
		if id.IsZero() {
			t.Fatalf("ID() = %v, want a non-zero id", id)
		}
		if seen[id] {
			t.Fatalf("id %v handed out twice", id)
		}
		seen[id] = true
	}
}

// TestServerConnIDEvictionsClient: a Client reads an eviction carrying the
// server's connection id for what it means, 40, not as a mismatch.
func TestServerConnIDEvictionsClient(t *testing.T) {
	conn := newServerWith(t, func(c *lifecycle.Config) { c.ConnIDEvictions = true }).NewConn()
	c := newTestClient(t)
	f, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	answer, _, err := conn.Handle(f, nil)
	if err != nil {
		t.Fatalf("Handle(login): %v", err)
	}
	if _, err = c.Receive(answer); err != nil {
		t.Fatalf("Receive(login answer): %v", err)
	}
	// A zombie frame from another client on the same connection.
	answer, _, err = conn.Handle(replicated(t, clientB, codec.OperationCreateStream, 1, 1), nil)
	if err != nil {
		t.Fatalf("Handle(zombie frame): %v", err)
	}
	if want := evictionFrame(t, conn.ID(), codec.ReasonNoSession); !bytes.Equal(answer, want) {
		t.Fatalf("answer =\n%x\nwant the eviction\n%x", answer, want)
	}
	_, err = c.Receive(answer)
	if want := codec.StatusUnauthenticated.Err(); !errors.Is(err, want) {
		t.Fatalf("Receive(eviction) error = %v, want %v", err, want)
	}
	if !c.Closed() {
		t.Errorf("Closed() = false, want true")
	}
}

// TestServerTransient: the first Count Register requests, on any
// connection, are answered with a result section carrying Code, before
// the body is looked at; the connection stays open and not logged in.
// Then logins are decided as always.
func TestServerTransient(t *testing.T) {
	for _, code := range []codec.Status{codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted} {
		t.Run(code.String(), func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Transient = lifecycle.Transient{Status: code, Count: 3} })
			login := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
			conn := srv.NewConn()
			for i, in := range [][]byte{login, register(t, clientB, []byte("not a login body")), login} {
				if i == 2 {
					conn = srv.NewConn() // the count is the server's, not the connection's
				}
				got, _, err := conn.Handle(in, nil)
				if err != nil {
					t.Fatalf("login %d: Handle: %v", i, err)
				}
				h, err := codec.DecodeRequestHeader(in)
				if err != nil {
					t.Fatalf("DecodeRequestHeader: %v", err)
				}
				if want := refLoginResult(h.Client, uint32(code)); !bytes.Equal(got, want) {
					t.Fatalf("login %d: answer =\n%x\nwant\n%x", i, got, want)
				}
				if st := conn.State(); st != (lifecycle.ConnState{}) {
					t.Fatalf("login %d: state = %+v, want %+v", i, st, lifecycle.ConnState{})
				}
				_, resultCode, err := codec.SplitResult(got[codec.HeaderSize:])
				if err != nil {
					t.Fatalf("SplitResult: %v", err)
				}
				if resultCode != code {
					t.Fatalf("result code = %v, want %v", resultCode, code)
				}
			}
			got, _, err := conn.Handle(login, nil)
			if err != nil {
				t.Fatalf("fourth login: Handle: %v", err)
			}
			if want := loginFrame(t, clientA, 1, 1); !bytes.Equal(got, want) {
				t.Fatalf("the fourth login is decided: answer =\n%x\nwant\n%x", got, want)
			}
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
	}{{code: codec.StatusTransientNotCommitted, sameID: true}, {code: codec.StatusTransientNotAccepted, sameID: false}} {
		t.Run(tc.code.String(), func(t *testing.T) {
			conn := newServerWith(t, func(c *lifecycle.Config) { c.Transient = lifecycle.Transient{Status: tc.code, Count: 1} }).NewConn()
			c := newTestClient(t)
			first, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
			if err != nil {
				t.Fatalf("Login: %v", err)
			}
			answer, _, err := conn.Handle(first, nil)
			if err != nil {
				t.Fatalf("Handle(login): %v", err)
			}
			_, err = c.Receive(answer)
			var te *lifecycle.TransientError
			if !errors.As(err, &te) {
				t.Fatalf("Receive error = %v, want a *lifecycle.TransientError", err)
			}
			if got := te.Replay(); got != tc.sameID {
				t.Fatalf("Replay() = %t, want %t", got, tc.sameID)
			}

			retry, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
			if err != nil {
				t.Fatalf("retried Login: %v", err)
			}
			if same := string(first) == string(retry); same != tc.sameID {
				t.Errorf("the retry is the same request: same bytes = %t, want %t", same, tc.sameID)
			}
			answer, _, err = conn.Handle(retry, nil)
			if err != nil {
				t.Fatalf("Handle(retry): %v", err)
			}
			r, err := c.Receive(answer)
			if err != nil {
				t.Fatalf("Receive(retry answer): %v", err)
			}
			if r.Login.Session != 1 {
				t.Errorf("Login.Session = %d, want 1", r.Login.Session)
			}
		})
	}
}

// TestServerTransientConcurrent: Count is honoured exactly when
// connections log in at once.
func TestServerTransientConcurrent(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) {
		c.Transient = lifecycle.Transient{Status: codec.StatusTransientNotAccepted, Count: 50}
	})
	login := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	var transient, ok atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				got, _, err := srv.NewConn().Handle(login, nil)
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
		}()
	}
	wg.Wait()
	if n := transient.Load(); n != 50 {
		t.Errorf("transient answers = %d, want 50", n)
	}
	if n := ok.Load(); n != 110 {
		t.Errorf("logins = %d, want 110", n)
	}
}

// TestServerTransientConfig: a transient count needs code 57 or 58.
func TestServerTransientConfig(t *testing.T) {
	for _, tr := range []lifecycle.Transient{{Status: 3, Count: 1}, {Status: 0, Count: 1}, {Status: 59, Count: 2}} {
		if _, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth, Transient: tr}); err == nil {
			t.Errorf("%+v: NewServer returned no error", tr)
		}
	}
	for _, tr := range []lifecycle.Transient{{}, {Status: 57}, {Status: 57, Count: 1}, {Status: 58, Count: 1 << 40}} {
		if _, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth, Transient: tr}); err != nil {
			t.Errorf("%+v: NewServer: %v", tr, err)
		}
	}
}
