package tcp_test

import (
	"bytes"
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// The credentials of the wipe tests: long and unlike anything else in a
// frame, so that finding one in memory cannot be chance.
const (
	wipePassword = "wipe-S3cret-password-0123456789"
	wipeToken    = "wipe-T0ken-0123456789-abcdefghij"
)

// wipeWatch is an Observer that keeps, for each frame read, the bytes the
// Exchange's In aliased: the connection's own read buffer. It looks at
// them again from the next frame's hook and from the Closed hook, which run
// on the connection's goroutine after the earlier frames were done with
// (so what it sees is what the server left, and reading it races with
// nothing), and keeps copies of what it saw for the test.
type wipeWatch struct {
	mu     sync.Mutex
	frames [][]byte          // In.Bytes() of every frame, in order
	ops    []codec.Operation // each frame's operation (0 if its header does not decode)
	// later[i] is frame i as the hook of frame i+1 saw it, then as the
	// Closed hook did (whichever came first).
	later  [][]byte
	users  []string      // the username each Login hook saw
	seen   chan struct{} // a frame was seen
	closed chan tcp.CloseCause
}

func newWipeWatch() *wipeWatch {
	return &wipeWatch{seen: make(chan struct{}, 16), closed: make(chan tcp.CloseCause, 1)}
}

// look copies the frames not yet looked at again.
func (w *wipeWatch) look() {
	for i := len(w.later); i < len(w.frames); i++ {
		w.later = append(w.later, bytes.Clone(w.frames[i]))
	}
}

func (w *wipeWatch) observer() tcp.Observer {
	return tcp.Observer{
		Frame: func(e tcp.Exchange) {
			w.mu.Lock()
			w.look()
			in := e.In.Bytes()
			h, err := codec.DecodeRequestHeader(in)
			if err != nil {
				h.Operation = 0
			}
			w.frames = append(w.frames, in)
			w.ops = append(w.ops, h.Operation)
			w.mu.Unlock()
			w.seen <- struct{}{}
		},
		Login: func(_ tcp.ConnInfo, l lifecycle.Login) {
			w.mu.Lock()
			w.users = append(w.users, string(l.Username))
			w.mu.Unlock()
		},
		Closed: func(_ tcp.ConnInfo, how tcp.Closing) {
			w.mu.Lock()
			w.look()
			w.mu.Unlock()
			w.closed <- how.Cause
		},
	}
}

// waitFrames waits until the Frame hook has been called n times.
func (w *wipeWatch) waitFrames(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-w.seen:
		case <-time.After(10 * time.Second):
			t.Fatalf("the Frame hook was not called %d times", n)
		}
	}
}

func (w *wipeWatch) waitClosed(t *testing.T) tcp.CloseCause {
	t.Helper()
	select {
	case cause := <-w.closed:
		return cause
	case <-time.After(10 * time.Second):
		t.Fatal("the connection did not close")
	}
	return 0
}

// after returns frame i as the server left it once done with it, checking
// its operation.
func (w *wipeWatch) after(t *testing.T, i int, op codec.Operation) []byte {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	if i >= len(w.later) || w.ops[i] != op {
		t.Fatalf("frame %d: want operation %v looked at again, have operations %v, %d looked at", i, op, w.ops, len(w.later))
	}
	return w.later[i]
}

// startWipeListener serves user iggy (password wipePassword, token
// wipeToken) on a loopback port with w watching, and stops it when the
// test ends.
func startWipeListener(t *testing.T, w *wipeWatch, opts tcp.ServeOptions) net.Addr {
	t.Helper()
	v := codec.MustPack(0, 11, 0)
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.DefaultWindow(v), Auth: lifecycle.StaticAuth{
		Users:  []lifecycle.User{{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte(wipePassword))}},
		Tokens: []lifecycle.Token{{Value: codec.NewSecret([]byte(wipeToken)), User: "iggy"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	opts.Observer = w.observer()
	l := tcp.NewListener(ln, srv, opts)
	served := make(chan error, 1)
	go func() { served <- l.Serve(context.Background()) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := l.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return l.Addr()
}

// dialWipe connects a fresh client to a wipe listener, as listener_test's
// wire.
func dialWipe(t *testing.T, addr net.Addr) *wire {
	t.Helper()
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	return dial(t, addr, c)
}

// holdsSecret reports whether b holds secret, or any 8 bytes of it in a row.
func holdsSecret(b []byte, secret string) bool {
	for i := 0; i+8 <= len(secret); i++ {
		if bytes.Contains(b, []byte(secret[i:i+8])) {
			return true
		}
	}
	return false
}

// TestLoginFrameWiped: once a login frame is answered, no byte of its
// password or token is left in the read buffer the connection used for it
// (as seen through the Frame hook's In, which aliases that buffer), while
// the Login hook still saw the username; this holds for a login that
// succeeds (the buffer is reused for the next frame), for one refused (the
// connection closes), for a token login, and for a login frame above
// MaxFrame, whose body is drained through the same buffer.
func TestLoginFrameWiped(t *testing.T) {
	t.Run("password", func(t *testing.T) {
		w := newWipeWatch()
		wc := dialWipe(t, startWipeListener(t, w, tcp.ServeOptions{}))
		if _, err := wc.do(wc.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte(wipePassword)))); err != nil {
			t.Fatalf("login: %v", err)
		}
		if _, err := wc.do(wc.c.Ping(nil)); err != nil {
			t.Fatalf("ping: %v", err)
		}
		w.waitFrames(t, 2) // the login frame is done with
		if holdsSecret(w.after(t, 0, codec.OperationRegister), wipePassword) {
			t.Errorf("the read buffer still holds the password after the login was answered")
		}
		w.mu.Lock()
		users := w.users
		w.mu.Unlock()
		if len(users) != 1 || users[0] != "iggy" {
			t.Errorf("the Login hook saw usernames %q, want [iggy]: the frame was cleared too soon", users)
		}
	})

	t.Run("refused", func(t *testing.T) {
		w := newWipeWatch()
		wc := dialWipe(t, startWipeListener(t, w, tcp.ServeOptions{}))
		wrong := "wipe-Wr0ng-password-9876543210"
		if _, err := wc.do(wc.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte(wrong)))); err == nil {
			t.Fatal("a wrong password logged in")
		}
		if cause := w.waitClosed(t); cause != tcp.CauseEvicted {
			t.Fatalf("closed by %v, want evicted", cause)
		}
		if holdsSecret(w.after(t, 0, codec.OperationRegister), wrong) {
			t.Errorf("the read buffer still holds the wrong password after the connection closed")
		}
	})

	t.Run("token", func(t *testing.T) {
		w := newWipeWatch()
		wc := dialWipe(t, startWipeListener(t, w, tcp.ServeOptions{}))
		if _, err := wc.do(wc.c.LoginPAT(nil, codec.NewSecret([]byte(wipeToken)))); err != nil {
			t.Fatalf("token login: %v", err)
		}
		if _, err := wc.do(wc.c.Ping(nil)); err != nil {
			t.Fatalf("ping: %v", err)
		}
		w.waitFrames(t, 2)
		if holdsSecret(w.after(t, 0, codec.OperationRegister), wipeToken) {
			t.Errorf("the read buffer still holds the token after the login was answered")
		}
	})

	t.Run("over MaxFrame", func(t *testing.T) {
		w := newWipeWatch()
		wc := dialWipe(t, startWipeListener(t, w, tcp.ServeOptions{MaxFrame: 4096}))
		body := bytes.Repeat([]byte(wipePassword), 8192/len(wipePassword))
		frame, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}, body)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := wc.nc.Write(frame); err != nil {
			t.Fatal(err)
		}
		answer, err := codec.ReadFrame(wc.nc, nil, codec.MaxFrameSize)
		if err != nil {
			t.Fatal(err)
		}
		if ev, err := codec.DecodeEviction(answer); err != nil || ev.Reason != codec.ReasonInvalidRequestBodySize {
			t.Fatalf("answer: %v, %v; want eviction 6", ev, err)
		}
		if cause := w.waitClosed(t); cause != tcp.CauseEvicted {
			t.Fatalf("closed by %v, want evicted", cause)
		}
		// The header the hook saw starts the buffer the body was drained
		// through: drained and cleared, it is zeros.
		header := w.after(t, 0, codec.OperationRegister)
		if !bytes.Equal(header, make([]byte, len(header))) {
			t.Errorf("the buffer the over-cap body was drained through was not cleared")
		}
	})
}
