package tcp_test

import (
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

	"github.com/stretchr/testify/require"

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
	require.NoError(t, err)
	l := tcp.NewListener(ln, lifecycletest.NewServer(t), opts)
	served := make(chan error, 1)
	go func() { served <- l.Serve(context.Background()) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
		defer cancel()
		require.NoError(t, l.Shutdown(ctx))
		select {
		case err := <-served:
			require.NoError(t, err, "Serve")
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
	require.NoError(t, err)
	require.NoError(t, nc.SetDeadline(time.Now().Add(testTimeout)))
	t.Cleanup(func() { _ = nc.Close() })
	return &wire{t: t, nc: nc, c: c}
}

// do sends a frame the client built and returns what the client made of
// the answer.
func (w *wire) do(frame []byte, err error) (lifecycle.Response, error) {
	w.t.Helper()
	require.NoError(w.t, err, "build")
	_, err = w.nc.Write(frame)
	require.NoError(w.t, err, "write")
	answer, err := lifecycle.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	require.NoError(w.t, err, "read")
	return w.c.Receive(answer)
}

// closedByServer reports whether the server closed the connection.
func (w *wire) closedByServer() bool {
	_, err := w.nc.Read(make([]byte, 1))
	return errors.Is(err, io.EOF)
}

func TestListenerLifecycle(t *testing.T) {
	var traced atomic.Int64
	l := startListener(t, tcp.ServeOptions{Trace: func(tcp.Exchange) { traced.Add(1) }})
	c := lifecycletest.NewClient(t)
	w := dial(t, l.Addr(), c)

	_, err := w.do(c.Ping(nil))
	require.NoError(t, err, "ping before login")
	r, err := w.do(c.Login(nil, []byte("iggy"), []byte("iggy")))
	require.NoError(t, err, "login")
	first, firstID := r.Login.Session, c.ID()
	require.True(t, first != 0, "session")
	_, err = w.do(c.Request(nil, codec.CodeGetClusterMetadata, nil))
	require.ErrorIs(t, err, codec.StatusInvalidCommand, "GetClusterMetadata is denied")
	require.False(t, c.Closed(), "the client carries on")
	_, err = w.do(c.Ping(nil))
	require.NoError(t, err, "ping after login")
	_, err = w.do(c.Logout(nil))
	require.NoError(t, err, "logout")
	r, err = w.do(c.Login(nil, []byte("iggy"), []byte("iggy")))
	require.NoError(t, err, "re-login")
	require.True(t, c.ID() != firstID, "a re-login has a new client id")
	require.True(t, r.Login.Session > first, "a re-login has a higher session")
	_, err = w.do(c.Ping(nil))
	require.NoError(t, err, "ping after re-login")
	require.Equal(t, int64(7), traced.Load(), "one trace per frame")

	// An eviction ends the connection.
	_, err = w.do(c.Login(nil, []byte("iggy"), []byte("wrong")))
	require.ErrorIs(t, err, codec.StatusInvalidCredentials)
	require.True(t, w.closedByServer(), "closed after the eviction")
}

func TestListenerConcurrentLogins(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{})
	const clients = 50
	sessions := make(chan uint64, clients)
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
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
				func() ([]byte, error) { return c.Login(nil, []byte("iggy"), []byte("iggy")) },
				func() ([]byte, error) { return c.Ping(nil) },
			} {
				if _, err := w.Do(build()); err != nil {
					t.Error(err)
					return
				}
			}
			sessions <- c.Session()
		})
	}
	wg.Wait()
	close(sessions)
	seen := map[uint64]bool{}
	for s := range sessions {
		require.True(t, s != 0 && !seen[s], "sessions are non-zero and distinct")
		seen[s] = true
	}
	require.Equal(t, clients, len(seen), "every client logged in")
}

func TestListenerUnusableSize(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{})
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	frame := lifecycletest.NonReplicated(t, lifecycletest.ClientA, 1, codec.CodePing)
	binary.LittleEndian.PutUint32(frame[48:], 100)
	_, err := w.nc.Write(frame)
	require.NoError(t, err)
	require.True(t, w.closedByServer(), "closed without an answer")
}

// TestListenerDroppedAndOverCap: an invalid header is dropped and the
// connection lives on; a valid request above MaxFrame is answered with
// Eviction 6 and the connection closed, without its body being read.
func TestListenerDroppedAndOverCap(t *testing.T) {
	var mu sync.Mutex
	var errs []error
	l := startListener(t, tcp.ServeOptions{MaxFrame: 512, Trace: func(e tcp.Exchange) {
		mu.Lock()
		errs = append(errs, e.Err)
		mu.Unlock()
	}})
	c := lifecycletest.NewClient(t)
	w := dial(t, l.Addr(), c)
	bad := lifecycletest.NonReplicated(t, lifecycletest.ClientA, 1, codec.CodePing)
	bad[60] = 8 // not a Request: dropped
	_, err := w.nc.Write(bad)
	require.NoError(t, err)
	_, err = w.do(c.Ping(nil))
	require.NoError(t, err, "the connection lives on and answers the next frame")

	big := lifecycletest.Request(t, codec.RequestHeader{Client: lifecycletest.ClientA, Request: 1, Operation: codec.OperationNonReplicated, Code: 1}, make([]byte, 1000))
	_, err = w.nc.Write(big)
	require.NoError(t, err)
	answer, err := lifecycle.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	require.NoError(t, err)
	require.Equal(t, lifecycletest.EvictionFrame(t, lifecycletest.ClientA, codec.ReasonInvalidRequestBodySize), answer, "eviction 6")
	require.True(t, w.closedByServer(), "closed after the eviction")
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, 3, len(errs))
	require.ErrorIs(t, errs[0], lifecycle.ErrDropped)
	require.NoError(t, errs[1])
	require.ErrorIs(t, errs[2], lifecycle.ErrFrameTooLarge)
}

func TestListenerReadTimeout(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{ReadTimeout: 20 * time.Millisecond})
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	_, err := w.nc.Write(make([]byte, 100)) // a header that never completes
	require.NoError(t, err)
	require.True(t, w.closedByServer(), "an idle connection is closed")
}

// TestListenerLoginTimeout: a connection that only pings is closed once
// LoginTimeout has passed without a login; a logged-in one is not.
func TestListenerLoginTimeout(t *testing.T) {
	const limit = 200 * time.Millisecond
	l := startListener(t, tcp.ServeOptions{LoginTimeout: limit})
	start := time.Now() // before the accept, so the close cannot come sooner than limit after it
	pinger, member := dial(t, l.Addr(), lifecycletest.NewClient(t)), dial(t, l.Addr(), lifecycletest.NewClient(t))
	_, err := member.do(member.c.Login(nil, []byte("iggy"), []byte("iggy")))
	require.NoError(t, err)
	for time.Since(start) < 5*limit {
		_, err = member.do(member.c.Ping(nil))
		require.NoError(t, err, "a logged-in connection stays")
		frame, err := pinger.c.Ping(nil)
		require.NoError(t, err)
		if _, err = pinger.nc.Write(frame); err != nil {
			break
		}
		answer, err := lifecycle.ReadFrame(pinger.nc, nil, codec.MaxFrameSize)
		if err != nil {
			break
		}
		_, err = pinger.c.Receive(answer)
		require.NoError(t, err)
		time.Sleep(limit / 5)
	}
	require.True(t, time.Since(start) < 5*limit, "a connection that only pings was still served after %v", time.Since(start))
	require.True(t, time.Since(start) >= limit, "closed before LoginTimeout: %v", time.Since(start))
}

// TestListenerMaxConns: at the cap a new connection is closed at once,
// never left waiting; once a connection leaves, a new one is served.
func TestListenerMaxConns(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxConns: 1})
	c1 := lifecycletest.NewClient(t)
	w1 := dial(t, l.Addr(), c1)
	_, err := w1.do(c1.Ping(nil))
	require.NoError(t, err)
	w2 := dial(t, l.Addr(), lifecycletest.NewClient(t))
	require.True(t, w2.closedByServer(), "the second connection is closed at once")
	_, err = w1.do(c1.Ping(nil))
	require.NoError(t, err, "the first one is still served")
	require.NoError(t, w1.nc.Close())
	deadline := time.Now().Add(testTimeout)
	for {
		c3 := lifecycletest.NewClient(t)
		w3 := dial(t, l.Addr(), c3)
		frame, err := c3.Ping(nil)
		require.NoError(t, err)
		_, _ = w3.nc.Write(frame)
		if answer, err := lifecycle.ReadFrame(w3.nc, nil, codec.MaxFrameSize); err == nil {
			_, err = c3.Receive(answer)
			require.NoError(t, err, "served once the first one left")
			return
		}
		// The first connection's end may not have been seen yet.
		require.True(t, time.Now().Before(deadline), "never served after the first one left")
		time.Sleep(10 * time.Millisecond)
	}
}

func TestListenerContextCancel(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := tcp.NewListener(ln, lifecycletest.NewServer(t), tcp.ServeOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- l.Serve(ctx) }()
	c := lifecycletest.NewClient(t)
	w := dial(t, l.Addr(), c)
	_, err = w.do(c.Ping(nil))
	require.NoError(t, err)
	cancel()
	select {
	case err := <-served:
		require.NoError(t, err)
	case <-time.After(testTimeout):
		t.Fatal("Serve did not return after cancel")
	}
	require.True(t, w.closedByServer(), "connections are closed")
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
	require.NoError(t, err)
	passing := []error{
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)},
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.ENFILE)},
		&net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.ENOBUFS)},
	}
	l := tcp.NewListener(&flakyListener{Listener: ln, errs: passing}, lifecycletest.NewServer(t), tcp.ServeOptions{})
	served := make(chan error, 1)
	go func() { served <- l.Serve(context.Background()) }()
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	_, err = w.do(w.c.Ping(nil))
	require.NoError(t, err, "served after passing Accept errors")
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	require.NoError(t, l.Shutdown(ctx))
	require.NoError(t, <-served)

	ln, err = net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	fatal := errors.New("listener broke")
	l = tcp.NewListener(&flakyListener{Listener: ln, errs: []error{fatal}}, lifecycletest.NewServer(t), tcp.ServeOptions{})
	require.ErrorIs(t, l.Serve(context.Background()), fatal)
}

// TestServe: the one-call form serves a login and returns net.ErrClosed
// once its listener is closed.
func TestServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- tcp.Serve(ln, lifecycletest.NewServer(t)) }()
	w := dial(t, ln.Addr(), lifecycletest.NewClient(t))
	_, err = w.do(w.c.Login(nil, []byte("iggy"), []byte("iggy")))
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	select {
	case err := <-served:
		require.ErrorIs(t, err, net.ErrClosed)
	case <-time.After(testTimeout):
		t.Fatal("Serve did not return after its listener closed")
	}
	require.True(t, w.closedByServer(), "connections end with the server")
}
