package tcp_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// testTimeout bounds every network wait of these tests, so that a bug
// fails a test instead of hanging it.
const testTimeout = 10 * time.Second

// startListener serves a test server on a loopback port and stops it when
// the test ends, checking that Serve returned nil.
func startListener(t *testing.T, opts tcp.ServeOptions) *tcp.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	return serveOn(t, ln, opts)
}

// serveOn serves a test server on ln until the test ends, then shuts the
// Listener down and checks that Serve returned nil.
func serveOn(t *testing.T, ln net.Listener, opts tcp.ServeOptions) *tcp.Listener {
	t.Helper()
	l := tcp.NewListener(ln, lifecycletest.NewServer(t), opts)
	served := make(chan error, 1)
	go func() { served <- l.Serve(context.Background()) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		if err := l.Shutdown(ctx); err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		select {
		case err := <-served:
			if err != nil {
				t.Fatalf("Serve: %v", err)
			}
		case <-ctx.Done():
			t.Error("Serve did not return after Shutdown")
		}
	})
	return l
}

// wire is a client over TCP.
type wire struct {
	t  testing.TB
	nc net.Conn
	c  *lifecycle.Client
}

func dial(t testing.TB, addr net.Addr, c *lifecycle.Client) *wire {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr.String(), testTimeout)
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	if err := nc.SetDeadline(time.Now().Add(testTimeout)); err != nil {
		t.Fatalf("SetDeadline: %v", err)
	}
	t.Cleanup(func() { _ = nc.Close() })
	return &wire{t: t, nc: nc, c: c}
}

// do sends a frame the client built and returns what the client made of
// the answer.
func (w *wire) do(frame []byte, err error) (lifecycle.Response, error) {
	w.t.Helper()
	if err != nil {
		w.t.Fatalf("build: %v", err)
	}
	if _, err := w.nc.Write(frame); err != nil {
		w.t.Fatalf("write: %v", err)
	}
	answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	if err != nil {
		w.t.Fatalf("read: %v", err)
	}
	return w.c.Receive(answer)
}

// login logs in as iggy with the right password.
func (w *wire) login() (lifecycle.Response, error) {
	return w.do(w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))))
}

// closedByServer reports whether the server closed the connection.
func (w *wire) closedByServer() bool {
	_, err := w.nc.Read(make([]byte, 1))
	return errors.Is(err, io.EOF)
}

func TestListenerLifecycle(t *testing.T) {
	var traced atomic.Int64
	l := startListener(t, tcp.ServeOptions{Observer: tcp.Observer{Frame: func(tcp.Exchange) { traced.Add(1) }}})
	c := lifecycletest.NewClient(t)
	w := dial(t, l.Addr(), c)

	if _, err := w.do(c.Ping(nil)); err != nil {
		t.Fatalf("ping before login: %v", err)
	}
	r, err := w.do(c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))))
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	first, firstID := r.Login.Session, c.ID()
	if first == 0 {
		t.Fatalf("login: session = 0, want a session")
	}
	_, err = w.do(c.Request(nil, codec.CodeGetClusterMetadata, nil))
	if want := codec.StatusInvalidCommand.Err(); !errors.Is(err, want) {
		t.Fatalf("GetClusterMetadata is denied: error = %v, want %v", err, want)
	}
	if c.Closed() {
		t.Fatalf("the client carries on: Closed() = true, want false")
	}
	if _, err = w.do(c.Ping(nil)); err != nil {
		t.Fatalf("ping after login: %v", err)
	}
	if _, err = w.do(c.Logout(nil)); err != nil {
		t.Fatalf("logout: %v", err)
	}
	r, err = w.do(c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))))
	if err != nil {
		t.Fatalf("re-login: %v", err)
	}
	if c.ID() == firstID {
		t.Fatalf("a re-login has a new client id: ID() = %v, the first login's", c.ID())
	}
	if r.Login.Session <= first {
		t.Fatalf("a re-login has a higher session: session = %d, want above %d", r.Login.Session, first)
	}
	if _, err = w.do(c.Ping(nil)); err != nil {
		t.Fatalf("ping after re-login: %v", err)
	}
	if n := traced.Load(); n != 7 {
		t.Fatalf("one trace per frame: %d traces, want 7", n)
	}

	// An eviction ends the connection.
	_, err = w.do(c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("wrong"))))
	if want := codec.StatusInvalidCredentials.Err(); !errors.Is(err, want) {
		t.Fatalf("wrong password: error = %v, want %v", err, want)
	}
	if !w.closedByServer() {
		t.Fatalf("closed after the eviction: the connection is still open")
	}
}

func TestListenerConcurrentLogins(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{})
	const clients = 50
	sessions := make(chan uint64, clients)
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
			if err != nil {
				t.Error(err)
				return
			}
			nc, err := net.DialTimeout("tcp", l.Addr().String(), testTimeout)
			if err != nil {
				t.Error(err)
				return
			}
			defer nc.Close()
			_ = nc.SetDeadline(time.Now().Add(testTimeout))
			w := lifecycletest.Wire{Conn: nc, Client: c}
			for _, build := range []func() ([]byte, error){
				func() ([]byte, error) { return c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))) },
				func() ([]byte, error) { return c.Ping(nil) },
			} {
				if _, err := w.Do(build()); err != nil {
					t.Error(err)
					return
				}
			}
			sessions <- c.Session()
		}()
	}
	wg.Wait()
	close(sessions)
	seen := map[uint64]bool{}
	for s := range sessions {
		if s == 0 || seen[s] {
			t.Fatalf("sessions are non-zero and distinct: session %d (seen before: %t)", s, seen[s])
		}
		seen[s] = true
	}
	if len(seen) != clients {
		t.Fatalf("every client logged in: %d sessions, want %d", len(seen), clients)
	}
}

func TestListenerUnusableSize(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{})
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	frame := lifecycletest.NonReplicated(t, lifecycletest.ClientA, 1, codec.CodePing)
	binary.LittleEndian.PutUint32(frame[48:], 100)
	if _, err := w.nc.Write(frame); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if !w.closedByServer() {
		t.Fatalf("closed without an answer: the connection is still open or answered")
	}
}

// TestListenerDroppedAndOverCap: an invalid header is dropped and the
// connection lives on; after login, a valid request above MaxFrame is
// answered with Eviction 6 and the connection closed, without its body
// being read.
func TestListenerDroppedAndOverCap(t *testing.T) {
	var mu sync.Mutex
	var errs []error
	l := startListener(t, tcp.ServeOptions{MaxFrame: 512, Observer: tcp.Observer{Frame: func(e tcp.Exchange) {
		mu.Lock()
		errs = append(errs, e.Err)
		mu.Unlock()
	}}})
	c := lifecycletest.NewClient(t)
	w := dial(t, l.Addr(), c)
	bad := lifecycletest.NonReplicated(t, lifecycletest.ClientA, 1, codec.CodePing)
	bad[60] = 8 // not a Request: dropped
	if _, err := w.nc.Write(bad); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if _, err := w.do(c.Ping(nil)); err != nil {
		t.Fatalf("the connection lives on and answers the next frame: %v", err)
	}
	if _, err := w.login(); err != nil {
		t.Fatalf("login: %v", err)
	}

	big := lifecycletest.Request(t, codec.RequestHeader{Client: lifecycletest.ClientA, Request: 1, Operation: codec.OperationNonReplicated, Code: 1}, make([]byte, 1000))
	if _, err := w.nc.Write(big); err != nil {
		t.Fatalf("Write: %v", err)
	}
	answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	if err != nil {
		t.Fatalf("ReadFrame: %v", err)
	}
	if want := lifecycletest.EvictionFrame(t, lifecycletest.ClientA, codec.ReasonInvalidRequestBodySize); !bytes.Equal(answer, want) {
		t.Fatalf("eviction 6: answer =\n%x\nwant\n%x", answer, want)
	}
	if !w.closedByServer() {
		t.Fatalf("closed after the eviction: the connection is still open")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) != 4 {
		t.Fatalf("%d exchanges traced (errors %v), want 4", len(errs), errs)
	}
	if !errors.Is(errs[0], lifecycle.ErrDropped) {
		t.Fatalf("first exchange: error = %v, want %v", errs[0], lifecycle.ErrDropped)
	}
	if errs[1] != nil {
		t.Fatalf("second exchange: error = %v, want nil", errs[1])
	}
	if !errors.Is(errs[3], codec.ErrFrameTooLarge) {
		t.Fatalf("the big frame's exchange: error = %v, want %v", errs[3], codec.ErrFrameTooLarge)
	}
}

// TestListenerMaxConns: at the cap a new connection is closed at once,
// never left waiting; once a connection leaves, a new one is served.
func TestListenerMaxConns(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxConns: 1})
	c1 := lifecycletest.NewClient(t)
	w1 := dial(t, l.Addr(), c1)
	if _, err := w1.do(c1.Ping(nil)); err != nil {
		t.Fatalf("first connection's ping: %v", err)
	}
	w2 := dial(t, l.Addr(), lifecycletest.NewClient(t))
	if err := ping(w2.nc, w2.c); !errors.Is(err, codec.StatusUnauthenticated.Err()) {
		t.Fatalf("the second connection's ping: %v, want eviction 12 (%v)", err, codec.StatusUnauthenticated.Err())
	}
	if !w2.closedByServer() {
		t.Fatalf("the second connection is closed after its eviction: it is still open")
	}
	if _, err := w1.do(c1.Ping(nil)); err != nil {
		t.Fatalf("the first one is still served: %v", err)
	}
	if err := w1.nc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	deadline := time.Now().Add(testTimeout)
	for {
		c3 := lifecycletest.NewClient(t)
		w3 := dial(t, l.Addr(), c3)
		frame, err := c3.Ping(nil)
		if err != nil {
			t.Fatalf("Ping: %v", err)
		}
		_, _ = w3.nc.Write(frame)
		if answer, err := codec.ReadFrame(w3.nc, nil, codec.MaxFrameSize); err == nil {
			_, err = c3.Receive(answer)
			if err == nil {
				return
			}
			if !errors.Is(err, codec.StatusUnauthenticated.Err()) {
				t.Fatalf("served once the first one left, or refused with eviction 12: %v", err)
			}
		}
		// The first connection's end may not have been seen yet: refused
		// again, with eviction 12.
		if !time.Now().Before(deadline) {
			t.Fatalf("never served after the first one left, in %v", testTimeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestListenerContextCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	l := tcp.NewListener(ln, lifecycletest.NewServer(t), tcp.ServeOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- l.Serve(ctx) }()
	c := lifecycletest.NewClient(t)
	w := dial(t, l.Addr(), c)
	if _, err = w.do(c.Ping(nil)); err != nil {
		t.Fatalf("ping: %v", err)
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve after cancel: %v, want nil", err)
		}
	case <-time.After(testTimeout):
		t.Fatal("Serve did not return after cancel")
	}
	if !w.closedByServer() {
		t.Fatalf("connections are closed: this one is still open")
	}
}

// flakyListener fails Accept with the errors given, then accepts from ln.
type flakyListener struct {
	net.Listener
	mu   sync.Mutex
	errs []error
}

func (f *flakyListener) Accept() (net.Conn, error) {
	f.mu.Lock()
	if len(f.errs) > 0 {
		err := f.errs[0]
		f.errs = f.errs[1:]
		f.mu.Unlock()
		return nil, err
	}
	f.mu.Unlock()
	return f.Listener.Accept()
}

// TestListenerAcceptRetries: running out of descriptors or buffers is
// passing, so the server backs off and goes on; any other Accept error
// ends Serve with that error.
func TestListenerAcceptRetries(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	passing := []error{
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)},
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.ENFILE)},
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.ENOBUFS)},
	}
	l := tcp.NewListener(&flakyListener{Listener: ln, errs: passing}, lifecycletest.NewServer(t), tcp.ServeOptions{})
	served := make(chan error, 1)
	go func() { served <- l.Serve(context.Background()) }()
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	if _, err = w.do(w.c.Ping(nil)); err != nil {
		t.Fatalf("served after passing Accept errors: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := l.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}

	ln, err = net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	fatal := errors.New("listener broke")
	l = tcp.NewListener(&flakyListener{Listener: ln, errs: []error{fatal}}, lifecycletest.NewServer(t), tcp.ServeOptions{})
	if err := l.Serve(context.Background()); !errors.Is(err, fatal) {
		t.Fatalf("Serve = %v, want %v", err, fatal)
	}
}

// TestServe: the one-call form serves a login and returns net.ErrClosed
// once its listener is closed.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("Listen: %v", err)
	}
	served := make(chan error, 1)
	go func() { served <- tcp.Serve(ln, lifecycletest.NewServer(t)) }()
	w := dial(t, ln.Addr(), lifecycletest.NewClient(t))
	if _, err = w.login(); err != nil {
		t.Fatalf("login: %v", err)
	}
	if err := ln.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	select {
	case err := <-served:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Serve = %v, want %v", err, net.ErrClosed)
		}
	case <-time.After(testTimeout):
		t.Fatal("Serve did not return after its listener closed")
	}
	if !w.closedByServer() {
		t.Fatalf("connections end with the server: this one is still open")
	}
}
