//go:build go1.25

// The module's go 1.22 keeps the timer channels of Go before 1.23, which
// synctest does not support; the test binary takes the newer ones.
//
//go:debug asynctimerchan=0

package tcp_test

import (
	"bytes"
	"errors"
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// The tests of this file are about time (the login, idle, read and write
// timeouts): they run in a synctest bubble, on a fake clock, over net.Pipe
// connections, whose blocking is durable, so that they take no wall-clock
// time and a loaded machine cannot make them fail. What needs the kernel
// (the backlog, resets, buffers, large frames over TCP) stays on loopback
// sockets in the other files.

// pipeListener is a net.Listener of net.Pipe connections, made within a
// bubble: Accept returns the server end of each pipe that dial makes.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once

	mu   sync.Mutex
	port int // the last remote port given out
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// pipeListenAddr is the address a pipeListener listens on.
var pipeListenAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case nc := <-l.conns:
		return nc, nil
	case <-l.done:
		return nil, &net.OpError{Op: "accept", Net: "pipe", Addr: pipeListenAddr, Err: net.ErrClosed}
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeListenAddr }

// dial returns the client end of a new pipe whose server end is accepted
// as coming from local (127.0.0.1 if nil), on a port of its own.
func (l *pipeListener) dial(local net.IP) (net.Conn, error) {
	if local == nil {
		local = net.IPv4(127, 0, 0, 1)
	}
	l.mu.Lock()
	l.port++
	remote := &net.TCPAddr{IP: local, Port: 1024 + l.port}
	l.mu.Unlock()
	server, client := net.Pipe()
	select {
	case l.conns <- &pipeConn{Conn: server, remote: remote}:
		return client, nil
	case <-l.done:
		_, _ = server.Close(), client.Close()
		return nil, &net.OpError{Op: "dial", Net: "pipe", Addr: pipeListenAddr, Err: net.ErrClosed}
	}
}

// pipeConn is the server end of a pipe, with a TCP remote address so that
// the throttle tells peers apart, and failing as a socket does once closed
// on this side: with net.ErrClosed, where a pipe says io.ErrClosedPipe
// whichever side closed.
type pipeConn struct {
	net.Conn
	remote net.Addr
	closed atomic.Bool
}

func (c *pipeConn) RemoteAddr() net.Addr { return c.remote }

func (c *pipeConn) Close() error {
	c.closed.Store(true)
	return c.Conn.Close()
}

func (c *pipeConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	return n, c.fix("read", err)
}

func (c *pipeConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	return n, c.fix("write", err)
}

func (c *pipeConn) fix(op string, err error) error {
	if errors.Is(err, io.ErrClosedPipe) && c.closed.Load() {
		return &net.OpError{Op: op, Net: "pipe", Source: pipeListenAddr, Addr: c.remote, Err: net.ErrClosed}
	}
	return err
}

// startPipeArena is startArena over a pipeListener; call it in a bubble.
func startPipeArena(t *testing.T, srv *lifecycle.Server, opts tcp.ServeOptions) *arena {
	t.Helper()
	a := serveArena(t, srv, opts, bubbleGoroutines, func() (net.Listener, func(net.IP) (net.Conn, error)) {
		pl := newPipeListener()
		return pl, pl.dial
	})
	a.fakeClock = true
	return a
}

// bubbleGoroutines counts the goroutines of the caller's bubble. The fake
// clock runs out a deadline at once while goroutines outside the bubble
// (a finalizer, say) end in real time, so the baseline of a bubbled arena
// counts only its own goroutines, as runtime.Stack labels them
// ("goroutine 7 [running, synctest bubble 3]:").
func bubbleGoroutines() int {
	stack := func(all bool) []byte {
		for buf := make([]byte, 64<<10); ; buf = make([]byte, 2*len(buf)) {
			if n := runtime.Stack(buf, all); n < len(buf) {
				return buf[:n]
			}
		}
	}
	self, _, _ := bytes.Cut(stack(false), []byte("\n"))
	i := bytes.Index(self, []byte("synctest bubble "))
	j := bytes.IndexByte(self[max(i, 0):], ']')
	if i < 0 || j < 0 {
		panic("bubbleGoroutines: not in a bubble: " + string(self))
	}
	return bytes.Count(stack(true), self[i:i+j+1])
}

// closings is an Observer's Closed hook that hands each closing over.
type closings chan tcp.Closing

func (c closings) observer() tcp.Observer {
	return tcp.Observer{Closed: func(_ tcp.ConnInfo, how tcp.Closing) { c <- how }}
}

// next returns the next closing, failing the test if none comes.
func (c closings) next(t *testing.T) tcp.Closing {
	t.Helper()
	select {
	case how := <-c:
		return how
	case <-time.After(testTimeout):
		t.Fatal("no connection closed")
	}
	return tcp.Closing{}
}

// startPipeListener is startListener over a pipeListener; call it in a
// bubble. It returns the Listener and the arena's way of dialing it.
func startPipeListener(t *testing.T, opts tcp.ServeOptions) (*tcp.Listener, *arena) {
	t.Helper()
	pl := newPipeListener()
	l := serveOn(t, pl, opts)
	return l, &arena{t: t, l: l, dial: pl.dial}
}

// startWatched is startPipeListener with an Observer that hands over each
// closing, up to n of them buffered; call it in a bubble.
func startWatched(t *testing.T, opts tcp.ServeOptions, n int) (closings, *arena) {
	t.Helper()
	closed := make(closings, n)
	opts.Observer = closed.observer()
	_, a := startPipeListener(t, opts)
	return closed, a
}

func TestListenerReadTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 20 * time.Millisecond
		closed, a := startWatched(t, tcp.ServeOptions{ReadTimeout: limit}, 1)
		w := a.wire(nil)
		if _, err := w.nc.Write(make([]byte, 100)); err != nil { // a header that never completes
			t.Fatalf("Write: %v", err)
		}
		if !w.closedByServer() {
			t.Fatalf("an idle connection is closed: it is still open")
		}
		how := closed.next(t)
		if how.Cause != tcp.CauseReadTimeout {
			t.Fatalf("closed by %v, want %v", how.Cause, tcp.CauseReadTimeout)
		}
		if how.Duration != limit {
			t.Fatalf("closed %v after the frame began, want ReadTimeout %v", how.Duration, limit)
		}
	})
}

// TestListenerLoginTimeout: a connection that only pings is closed once
// LoginTimeout has passed without a login; a logged-in one is not.
func TestListenerLoginTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 200 * time.Millisecond
		closed, a := startWatched(t, tcp.ServeOptions{LoginTimeout: limit}, 2)
		start := time.Now() // before the accept, so the close cannot come sooner than limit after it
		pinger, member := a.wire(nil), a.wire(nil)
		_, err := member.do(member.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))))
		if err != nil {
			t.Fatalf("member's login: %v", err)
		}
		for time.Since(start) < 5*limit {
			_, err = member.do(member.c.Ping(nil))
			if err != nil {
				t.Fatalf("a logged-in connection stays: ping: %v", err)
			}
			frame, err := pinger.c.Ping(nil)
			if err != nil {
				t.Fatalf("pinger's Ping: %v", err)
			}
			if _, err = pinger.nc.Write(frame); err != nil {
				break
			}
			answer, err := codec.ReadFrame(pinger.nc, nil, codec.MaxFrameSize)
			if err != nil {
				break
			}
			if _, err = pinger.c.Receive(answer); err != nil {
				t.Fatalf("pinger's Receive: %v", err)
			}
			time.Sleep(limit / 5)
		}
		if d := time.Since(start); d >= 5*limit {
			t.Fatalf("a connection that only pings was still served after %v", d)
		}
		if d := time.Since(start); d < limit {
			t.Fatalf("closed before LoginTimeout: %v", d)
		}
		how := closed.next(t)
		if how.Cause != tcp.CauseLoginTimeout || how.LoggedIn {
			t.Fatalf("the pinger closed by %v (logged in %t), want %v, not logged in", how.Cause, how.LoggedIn, tcp.CauseLoginTimeout)
		}
		if how.Duration != limit {
			t.Fatalf("the pinger closed %v after its accept, want LoginTimeout %v", how.Duration, limit)
		}
		if _, err = member.do(member.c.Ping(nil)); err != nil {
			t.Fatalf("the logged-in connection is still served: ping: %v", err)
		}
	})
}

// TestListenerLoginTimeoutAfterLogout: a logout starts LoginTimeout again,
// from the logout.
func TestListenerLoginTimeoutAfterLogout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 200 * time.Millisecond
		closed, a := startWatched(t, tcp.ServeOptions{LoginTimeout: limit}, 1)
		w := a.wire(nil)
		if _, err := w.login(); err != nil {
			t.Fatalf("login: %v", err)
		}
		time.Sleep(3 * limit) // logged in: LoginTimeout does not apply
		if _, err := w.do(w.c.Logout(nil)); err != nil {
			t.Fatalf("logout %v after the login: %v", 3*limit, err)
		}
		if !w.closedByServer() {
			t.Fatalf("closed at LoginTimeout after the logout: it is still open")
		}
		how := closed.next(t)
		if how.Cause != tcp.CauseLoginTimeout || how.Logins != 1 {
			t.Fatalf("closed by %v after %d logins, want %v after 1", how.Cause, how.Logins, tcp.CauseLoginTimeout)
		}
		if how.Duration != 4*limit {
			t.Fatalf("closed %v after the accept, want %v (LoginTimeout after the logout)", how.Duration, 4*limit)
		}
	})
}

// TestListenerIdleTimeout: a logged-in connection that pings within
// IdleTimeout stays; one that stays silent for IdleTimeout is closed.
func TestListenerIdleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 100 * time.Millisecond
		closed, a := startWatched(t, tcp.ServeOptions{IdleTimeout: limit}, 1)
		w := a.wire(nil)
		if _, err := w.login(); err != nil {
			t.Fatalf("login: %v", err)
		}
		for i := range 10 {
			time.Sleep(limit / 2)
			if _, err := w.do(w.c.Ping(nil)); err != nil {
				t.Fatalf("ping %d, within IdleTimeout of the last frame: %v", i, err)
			}
		}
		start := time.Now()
		if !w.closedByServer() {
			t.Fatalf("a silent connection is closed: it is still open")
		}
		if d := time.Since(start); d != limit {
			t.Fatalf("closed %v after the last frame, want IdleTimeout %v", d, limit)
		}
		how := closed.next(t)
		if how.Cause != tcp.CauseIdleTimeout || !how.LoggedIn {
			t.Fatalf("closed by %v (logged in %t), want %v, logged in", how.Cause, how.LoggedIn, tcp.CauseIdleTimeout)
		}
	})
}

// TestListenerWriteTimeout: a peer that does not read its answer is closed
// once WriteTimeout has passed.
func TestListenerWriteTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 50 * time.Millisecond
		closed, a := startWatched(t, tcp.ServeOptions{WriteTimeout: limit}, 1)
		w := a.wire(nil)
		frame, err := w.c.Ping(nil)
		if err != nil {
			t.Fatalf("Ping: %v", err)
		}
		start := time.Now()
		if _, err := w.nc.Write(frame); err != nil { // and the answer is never read
			t.Fatalf("Write: %v", err)
		}
		how := closed.next(t)
		if how.Cause != tcp.CauseWriteTimeout || how.Frames != 1 {
			t.Fatalf("closed by %v after %d frames, want %v after 1", how.Cause, how.Frames, tcp.CauseWriteTimeout)
		}
		if d := time.Since(start); d != limit {
			t.Fatalf("closed %v after the request, want WriteTimeout %v", d, limit)
		}
		if _, err := w.nc.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("after the write timeout a read gets %v, want %v", err, io.EOF)
		}
	})
}

// TestHostileSlowPeers is the short form of the soak's "drip": peers that
// send a byte now and then are closed by ReadTimeout once their frame has
// begun, and by the budget meanwhile.
func TestHostileSlowPeers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startPipeArena(t, nil, tcp.ServeOptions{MaxPreLogin: 8, ReadTimeout: 200 * time.Millisecond})
		a.attack(30, attack.Drip(50*time.Millisecond),
			closedAtLeast{tcp.CauseReadTimeout, 1, "a frame that never completes is cut at ReadTimeout: %d closed by it, want at least %d"},
			closedAtLeast{tcp.CausePreLoginCap, 22, "peers past the budget are closed: %d closed by the pre-login cap, want at least %d"})
	})
}

// TestHostilePingers is the short form of the soak's "pingers": peers
// that only ping before login are closed at LoginTimeout, pings or not,
// and by the budget; the probe gets in.
func TestHostilePingers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startPipeArena(t, nil, tcp.ServeOptions{MaxPreLogin: 8, LoginTimeout: 300 * time.Millisecond})
		a.attack(20, attack.PingEvery(20*time.Millisecond, "", ""),
			closedAtLeast{tcp.CauseLoginTimeout, 1, "pinging does not extend LoginTimeout: %d closed by it, want at least %d"},
			closedAtLeast{tcp.CausePreLoginCap, 12, "peers past the budget are closed: %d closed by the pre-login cap, want at least %d"})
	})
}

// TestHostileGuessingRefill: once wrong passwords have spent an address's
// burst, even the right one is refused without a check, until the bucket
// has refilled at LoginRate; another address is not slowed meanwhile.
func TestHostileGuessingRefill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const burst, rate = 3, 2.0
		auth := &countingAuth{Authenticator: lifecycletest.Auth}
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: auth})
		if err != nil {
			t.Fatalf("NewServer: %v", err)
		}
		a := startPipeArena(t, srv, tcp.ServeOptions{LoginBurst: burst, LoginRate: rate})
		attacker := net.IPv4(127, 0, 0, 1)
		login := func(pass string) error {
			t.Helper()
			w := a.wire(attacker)
			_, err := w.do(w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte(pass))))
			if err := w.nc.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			return err
		}
		refused := codec.StatusInvalidCredentials.Err()
		for i := range burst {
			if err := login("guess"); !errors.Is(err, refused) {
				t.Fatalf("guess %d: error = %v, want %v", i, err, refused)
			}
		}
		if err := login("iggy"); !errors.Is(err, refused) {
			t.Fatalf("over budget, even the right password is refused: error = %v, want %v", err, refused)
		}
		if n := auth.checks.Load(); n != burst {
			t.Fatalf("credential checks = %d, want %d", n, burst)
		}
		a.probe(net.IPv4(127, 0, 0, 2)) // another address is not slowed

		time.Sleep(time.Duration(0.9 / rate * float64(time.Second)))
		if err := login("iggy"); !errors.Is(err, refused) {
			t.Fatalf("0.9 tokens refilled: error = %v, want %v", err, refused)
		}
		time.Sleep(time.Duration(0.1 / rate * float64(time.Second)))
		if err := login("iggy"); err != nil {
			t.Fatalf("one token refilled after 1/LoginRate: the right password logs in: %v", err)
		}
		if n := auth.checks.Load(); n != burst+2 { // and the probe's
			t.Fatalf("credential checks = %d, want %d", n, burst+2)
		}
		a.checkBaseline()
	})
}

// TestPreLoginBodyBound: before login, a frame that is neither a login nor
// a BIND_SESSION is read up to a header's worth of body: a ping with 256
// body bytes is answered, one with 257 gets Eviction 6 from its header
// alone and the connection is closed without its body being read (beyond
// the one read that brought its header), and its address pays a whole
// accept burst and its probation for it; a login
// body of any size up to MaxFrame is read.
func TestPreLoginBodyBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startPipeArena(t, nil, tcp.ServeOptions{})
		w := a.wire(nil)
		ping := func(body int) []byte {
			return lifecycletest.Request(t, codec.RequestHeader{Client: lifecycletest.ClientA, Request: 1,
				Operation: codec.OperationNonReplicated, Code: codec.CodePing}, make([]byte, body))
		}
		if _, err := w.nc.Write(ping(codec.HeaderSize)); err != nil {
			t.Fatalf("Write: %v", err)
		}
		if answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize); err != nil {
			t.Fatalf("a ping with 256 body bytes: %v", err)
		} else if h, err := codec.DecodeReplyHeader(answer); err != nil || h.Status != codec.StatusOK {
			t.Fatalf("a ping with 256 body bytes: answer %x (%v), want a Reply with status 0", answer, err)
		}
		wrote := make(chan int)
		go func() {
			n, _ := w.nc.Write(ping(70 << 10))
			wrote <- n
		}()
		answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
		if err != nil {
			t.Fatalf("ReadFrame: %v", err)
		}
		if want := lifecycletest.EvictionFrame(t, lifecycletest.ClientA, codec.ReasonInvalidRequestBodySize); !bytes.Equal(answer, want) {
			t.Fatalf("a pre-login ping with a 70 KiB body: answer =\n%x\nwant Eviction 6\n%x", answer, want)
		}
		if !w.closedByServer() {
			t.Fatalf("the connection stays open after the eviction")
		}
		if n := <-wrote; n > 4<<10 {
			t.Fatalf("the server read %d bytes of the 70 KiB frame, want at most one read into its 4 KiB buffer", n)
		}
		// The eviction cost the address its accept budget and its
		// probation: its next connection is reset at accept.
		again, err := a.dial(nil)
		if err != nil {
			t.Fatalf("Dial: %v", err)
		}
		if _, err := again.Read(make([]byte, 1)); err == nil {
			t.Fatalf("the next connection of an address evicted before login is served")
		}
		if n := a.rec.limitedBy(tcp.LimitAcceptRate); n != 1 {
			t.Fatalf("Limited(accept-rate) called %d times, want 1", n)
		}
		w = a.wire(net.IPv4(127, 0, 0, 2))
		// The client's id is minted by Login; the frame carries it.
		if _, err := w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))); err != nil {
			t.Fatalf("Login: %v", err)
		}
		if _, err := w.do(bigLogin(t, w.c, 200<<10), nil); err != nil {
			t.Fatalf("a 200 KiB login body is read before login: %v", err)
		}
		a.checkBaseline()
	})
}

// TestPreLoginReadRate: a connection not logged in that pings flat out is
// read at 64 KiB a second once it has spent a burst of MaxFrame bytes: 1,000
// pings of 512 bytes with MaxFrame 64 KiB take about 6.8 s to be answered;
// logged in, they take no time.
func TestPreLoginReadRate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const pings, size, burst = 1000, 2 * codec.HeaderSize, 64 << 10
		a := startPipeArena(t, nil, tcp.ServeOptions{MaxFrame: burst, LoginTimeout: time.Minute})
		flood := func(w *wire) time.Duration {
			t.Helper()
			frame := lifecycletest.Request(t, codec.RequestHeader{Client: lifecycletest.ClientA, Request: 1,
				Operation: codec.OperationNonReplicated, Code: codec.CodePing}, make([]byte, size-codec.HeaderSize))
			start := time.Now()
			go func() {
				for range pings {
					if _, err := w.nc.Write(frame); err != nil {
						return
					}
				}
			}()
			for i := range pings {
				if _, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize); err != nil {
					t.Fatalf("answer %d: %v", i, err)
				}
			}
			return time.Since(start)
		}
		want := time.Duration(float64(pings*size-burst) / (64 << 10) * float64(time.Second))
		if d := flood(a.wire(nil)); d < want-100*time.Millisecond || d > want+100*time.Millisecond {
			t.Fatalf("%d pings of %d bytes before login answered in %v, want about %v", pings, size, d, want)
		}
		w := a.wire(nil)
		if _, err := w.login(); err != nil {
			t.Fatalf("login: %v", err)
		}
		if d := flood(w); d != 0 {
			t.Fatalf("logged in, %d pings answered in %v, want 0", pings, d)
		}
		a.checkBaseline()
	})
}

// TestHostilePreLoginPingFlood is the short form of the pre-login PING
// flood with 70 KiB bodies (issue 36, cost 4; the soak's "ping-flood"):
// each flooder's first ping is evicted from its header, so the flood costs
// a header read per connection, and a client logs in every time.
func TestHostilePreLoginPingFlood(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startPipeArena(t, nil, tcp.ServeOptions{AcceptBurst: -1})
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			attack.PingFlood(a.dial, []net.IP{net.IPv4(127, 0, 8, 1)}, 8, 70<<10, stop)
		}()
		legit := attack.Legit{From: net.IPv4(127, 0, 8, 2), User: "iggy", Password: "iggy", Every: 100 * time.Millisecond, Tries: 10}
		r := legit.Run(a.dial, nil)
		close(stop)
		<-done
		if r.Failed != 0 {
			t.Fatalf("logins during the flood: %d of %d failed (first: %v)", r.Failed, r.OK+r.Failed, r.FirstErr)
		}
		a.checkBaseline()
		if n := a.rec.reasons[codec.ReasonInvalidRequestBodySize]; n == 0 {
			t.Fatalf("no flooder was evicted with 6")
		}
	})
}

// TestHostileResetStorm is the short form of the connect-and-reset storm
// from distinct addresses (issue 36, cost 5; the soak's "reset-storm"):
// 2,048 addresses each open a connection and reset it; once their
// accept-rate buckets are full again, the next sweep forgets them, makes
// the map anew and hands its memory back (ReleaseMemory), with no further
// connection to set it off.
func TestHostileResetStorm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var released atomic.Int64
		a := startPipeArena(t, nil, tcp.ServeOptions{ReleaseMemory: func() { released.Add(1) }})
		from := func(i int) net.IP { return net.IPv4(127, 64, byte(i>>8), byte(i)) }
		if n := attack.ResetStorm(a.dial, from, 2048, 16, 0, nil); n != 2048 {
			t.Fatalf("%d connections opened, want 2048", n)
		}
		synctest.Wait()
		before := released.Load()
		time.Sleep(2 * tcp.SweepEvery)
		synctest.Wait()
		if released.Load() == before {
			t.Fatalf("no memory handed back %v after the storm", 2*tcp.SweepEvery)
		}
		a.checkBaseline()
	})
}
