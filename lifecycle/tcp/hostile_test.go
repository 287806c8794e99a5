package tcp_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// The hostile-peer suite: each attack on the login server, run small (tens
// of loopback connections, budgets to match, well under a second each)
// against a Listener, with a probe client that must log in meanwhile, and
// the goroutines back to where they were once it is over. No test here
// asserts a wall-clock duration or a process-wide heap figure, which a
// loaded machine breaks: the probe's deadline is checked on the fake
// clock of a synctest bubble only, and the soak (internal/cmd/soak)
// measures latency and memory at full size.

// probeDeadline is how long the probe may take to log in during an attack
// in a synctest bubble, whose clock only the server's waits advance:
// without the budgets the probe waits for LoginTimeout or forever.
const probeDeadline = 3 * time.Second

// recorder is an Observer that counts what it is told.
type recorder struct {
	mu      sync.Mutex
	opened  int
	closed  map[tcp.CloseCause]int
	reasons map[codec.EvictionReason]int
	logins  map[string]int
	dropped int
	answerE []error
	limited map[tcp.Limit]int
}

func newRecorder() *recorder {
	return &recorder{closed: map[tcp.CloseCause]int{}, reasons: map[codec.EvictionReason]int{}, logins: map[string]int{},
		limited: map[tcp.Limit]int{}}
}

func (r *recorder) Opened(tcp.ConnInfo) { r.mu.Lock(); r.opened++; r.mu.Unlock() }
func (r *recorder) Closed(_ tcp.ConnInfo, how tcp.Closing) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed[how.Cause]++
	if how.Cause == tcp.CauseEvicted {
		r.reasons[how.Reason]++
	}
}
func (r *recorder) Login(_ tcp.ConnInfo, res lifecycle.Login) {
	r.mu.Lock()
	r.logins[res.Label()]++
	r.mu.Unlock()
}
func (r *recorder) Dropped(tcp.ConnInfo, error) { r.mu.Lock(); r.dropped++; r.mu.Unlock() }
func (r *recorder) AnswerFailed(_ tcp.ConnInfo, err error) {
	r.mu.Lock()
	r.answerE = append(r.answerE, err)
	r.mu.Unlock()
}

// observer returns the hooks that tell r.
func (r *recorder) observer() tcp.Observer {
	return tcp.Observer{Opened: r.Opened, Closed: r.Closed, Login: r.Login,
		Dropped: r.Dropped, AnswerFailed: r.AnswerFailed, Limited: r.Limited}
}

func (r *recorder) Limited(_ tcp.ConnInfo, l tcp.Limit) { r.mu.Lock(); r.limited[l]++; r.mu.Unlock() }

func (r *recorder) limitedBy(l tcp.Limit) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limited[l]
}

func (r *recorder) closedBy(c tcp.CloseCause) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.closed[c]
}

func (r *recorder) loginsBy(outcome string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.logins[outcome]
}

// arena is a Listener under attack with the baseline it must return to.
type arena struct {
	t          *testing.T
	l          *tcp.Listener
	rec        *recorder
	goroutines int
	fakeClock  bool // in a synctest bubble: durations are the server's waits alone
	served     chan error
	stopped    bool
	dial       func(local net.IP) (net.Conn, error) // a connection to l
	count      func() int                           // the goroutines counted against the baseline
}

// startArena records the baseline, then serves srv (a test server if nil)
// with opts and a recorder on a loopback port.
func startArena(t *testing.T, srv *lifecycle.Server, opts tcp.ServeOptions) *arena {
	t.Helper()
	return serveArena(t, srv, opts, runtime.NumGoroutine, func() (net.Listener, func(net.IP) (net.Conn, error)) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatalf("Listen: %v", err)
		}
		return ln, func(local net.IP) (net.Conn, error) {
			d := net.Dialer{Timeout: testTimeout}
			if local != nil {
				d.LocalAddr = &net.TCPAddr{IP: local}
			}
			return d.Dial("tcp", ln.Addr().String())
		}
	})
}

// serveArena records the baseline, then serves srv (a test server if nil)
// with opts and a recorder on the listener listen returns, whose peers
// dial with the function it returns (from local, if set); count counts the
// goroutines that must come back to the baseline.
func serveArena(t *testing.T, srv *lifecycle.Server, opts tcp.ServeOptions, count func() int, listen func() (net.Listener, func(local net.IP) (net.Conn, error))) *arena {
	t.Helper()
	if srv == nil {
		srv = lifecycletest.NewServer(t)
	}
	a := &arena{t: t, rec: newRecorder(), goroutines: count(), served: make(chan error, 1), count: count}
	opts.Observer = a.rec.observer()
	ln, dial := listen()
	a.dial = dial
	a.l = tcp.NewListener(ln, srv, opts)
	go func() { a.served <- a.l.Serve(context.Background()) }()
	t.Cleanup(a.stop)
	return a
}

func (a *arena) stop() {
	if a.stopped {
		return
	}
	a.stopped = true
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	if err := a.l.Shutdown(ctx); err != nil {
		a.t.Fatalf("Shutdown: %v", err)
	}
	if err := <-a.served; err != nil {
		a.t.Fatalf("Serve: %v", err)
	}
}

// checkBaseline stops the server, and requires the goroutines to come back
// to where they were before it started.
func (a *arena) checkBaseline() {
	a.t.Helper()
	a.stop()
	// Polled here, on the test's goroutine: a poller on a goroutine of its
	// own would be counted.
	for deadline := time.Now().Add(testTimeout); a.count() > a.goroutines; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			a.t.Fatalf("goroutines stay above the baseline of %d:\n%s", a.goroutines, buf[:runtime.Stack(buf, true)])
		}
	}
}

// probe logs in as iggy from a fresh connection (from local, if set) and
// requires the login to succeed, within probeDeadline in a bubble.
func (a *arena) probe(local net.IP) {
	a.t.Helper()
	start := time.Now()
	w := a.wire(local)
	r, err := w.login()
	if err != nil {
		a.t.Fatalf("the probe's login: %v", err)
	}
	if r.Login.Session == 0 {
		a.t.Fatalf("the probe's login: Login.Session = 0, want a session")
	}
	if d := time.Since(start); a.fakeClock && d >= probeDeadline {
		a.t.Fatalf("the probe logged in too late: after %v, want under %v", d, probeDeadline)
	}
	if err := w.nc.Close(); err != nil {
		a.t.Fatalf("closing the probe's connection: %v", err)
	}
}

// wire dials the arena (from the loopback address local, any if nil).
func (a *arena) wire(local net.IP) *wire {
	a.t.Helper()
	nc, err := a.dial(local)
	if err != nil {
		a.t.Fatalf("Dial: %v", err)
	}
	if err := nc.SetDeadline(time.Now().Add(testTimeout)); err != nil {
		a.t.Fatalf("SetDeadline: %v", err)
	}
	a.t.Cleanup(func() { _ = nc.Close() })
	return &wire{t: a.t, nc: nc, c: lifecycletest.NewClient(a.t)}
}

// crowd runs n peers, each doing act on its own connection until the test
// part ends (stop) or the server closes it; wait returns when all are done.
type crowd struct {
	stop chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	ncs  []net.Conn
}

func newCrowd(t *testing.T) *crowd {
	cr := &crowd{stop: make(chan struct{})}
	t.Cleanup(cr.end)
	return cr
}

// add runs act for one more peer.
func (cr *crowd) add(nc net.Conn, c *lifecycle.Client, act func(nc net.Conn, c *lifecycle.Client, stop <-chan struct{})) {
	cr.mu.Lock()
	cr.ncs = append(cr.ncs, nc)
	cr.mu.Unlock()
	cr.wg.Add(1)
	go func() { defer cr.wg.Done(); act(nc, c, cr.stop) }()
}

// end stops the peers and closes their connections.
func (cr *crowd) end() {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	select {
	case <-cr.stop:
		return
	default:
	}
	close(cr.stop)
	for _, nc := range cr.ncs {
		_ = nc.Close()
	}
	cr.wg.Wait()
}

// every calls f every d until stop is closed or f fails.
func every(d time.Duration, stop <-chan struct{}, f func() error) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		if f() != nil {
			return
		}
		select {
		case <-stop:
			return
		case <-t.C:
		}
	}
}

// exchange writes a frame and reads the answer, without failing the test:
// peers are expected to be cut off.
func exchange(nc net.Conn, c *lifecycle.Client, frame []byte, err error) error {
	if err != nil {
		return err
	}
	_ = nc.SetDeadline(time.Now().Add(testTimeout))
	if _, err := nc.Write(frame); err != nil {
		return err
	}
	answer, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	if err != nil {
		return err
	}
	_, err = c.Receive(answer)
	return err
}

// ping sends a ping and reads its answer.
func ping(nc net.Conn, c *lifecycle.Client) error {
	frame, err := c.Ping(nil)
	return exchange(nc, c, frame, err)
}

// awaitCount polls got every 10ms until ok holds of it, failing the test
// with format (given got, then want) if testTimeout passes first.
func awaitCount(t testing.TB, got func() int, want int, ok func(got, want int) bool, format string) {
	t.Helper()
	for deadline := time.Now().Add(testTimeout); !ok(got(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf(format, got(), want)
		}
	}
}

// awaitEqual waits until got() == want; see awaitCount.
func awaitEqual(t testing.TB, got func() int, want int, format string) {
	t.Helper()
	awaitCount(t, got, want, func(got, want int) bool { return got == want }, format)
}

// awaitAtLeast waits until got() >= want; see awaitCount.
func awaitAtLeast(t testing.TB, got func() int, want int, format string) {
	t.Helper()
	awaitCount(t, got, want, func(got, want int) bool { return got >= want }, format)
}

// closedAtLeast is a wait for at least n closings by cause; format is
// given how many there were, then n.
type closedAtLeast struct {
	cause  tcp.CloseCause
	n      int
	format string
}

// during runs f on a goroutine of its own until the end it returns is
// called, or the test ends: then f's stop is closed and f waited for.
func during(t testing.TB, f func(stop <-chan struct{})) (end func()) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		f(stop)
	}()
	var once sync.Once
	end = func() { once.Do(func() { close(stop); <-done }) }
	t.Cleanup(end)
	return end
}

// attack runs n peers doing b against a, one connection each (the soak's
// crowd of the same behaviour, small); once all have connected the probe
// must log in, then each wait must be met, then the peers are ended and
// the goroutines must come back to the baseline.
func (a *arena) attack(n int, b attack.Behaviour, waits ...closedAtLeast) {
	a.t.Helper()
	end := during(a.t, func(stop <-chan struct{}) { attack.Peers(a.dial, nil, n, -1, stop, b) })
	opened := func() int { a.rec.mu.Lock(); defer a.rec.mu.Unlock(); return a.rec.opened }
	awaitAtLeast(a.t, opened, n, "%d peers connected, want %d")
	a.probe(nil)
	for _, w := range waits {
		awaitAtLeast(a.t, func() int { return a.rec.closedBy(w.cause) }, w.n, w.format)
	}
	end()
	a.checkBaseline()
}

// TestHostileIdlePeers is the short form of the soak's "idle": peers that
// connect and say nothing fill the not-logged-in budget; each newcomer
// closes the oldest, so the probe gets in, and the idle ones are closed.
func TestHostileIdlePeers(t *testing.T) {
	a := startArena(t, nil, tcp.ServeOptions{MaxPreLogin: 8})
	a.attack(40, attack.Idle,
		closedAtLeast{tcp.CausePreLoginCap, 32, "idle peers past the budget are closed: %d closed by the pre-login cap, want at least %d"})
}

// TestHostileLoggedInPeers: logged-in peers that ping now and then do not
// count against the not-logged-in budget, so the probe gets in; at the
// total cap a newcomer is closed at once instead of waiting.
func TestHostileLoggedInPeers(t *testing.T) {
	const peers = 16
	// One account from one address holds every session here: its quotas
	// are opened up.
	a := startArena(t, nil, tcp.ServeOptions{MaxConns: peers + 1, MaxPreLogin: 4, MaxSessionsPerUser: peers + 1, MaxSessionsPerUserAddr: -1, MaxConnsPerAddr: -1, ReservedConns: -1})
	cr := newCrowd(t)
	for range peers {
		// One at a time: peers not yet logged in would push each other out.
		w := a.wire(nil)
		if _, err := w.login(); err != nil {
			t.Fatalf("a peer's login: %v", err)
		}
		cr.add(w.nc, w.c, func(nc net.Conn, c *lifecycle.Client, stop <-chan struct{}) {
			every(100*time.Millisecond, stop, func() error { return ping(nc, c) })
		})
	}
	awaitEqual(t, func() int { return a.rec.loginsBy("OK") }, peers, "%d logins told the observer, want %d")
	pre, loggedIn := a.l.Conns()
	if pre != 0 {
		t.Fatalf("Conns() not logged in = %d, want 0", pre)
	}
	if loggedIn != peers {
		t.Fatalf("Conns() logged in = %d, want %d", loggedIn, peers)
	}

	// The probe takes the last slot and stays; the next one is refused.
	w := a.wire(nil)
	if _, err := w.login(); err != nil {
		t.Fatalf("the probe logs in beside the logged-in peers: %v", err)
	}
	late := a.wire(nil)
	start := time.Now()
	if err := ping(late.nc, late.c); !errors.Is(err, codec.StatusUnauthenticated.Err()) {
		t.Fatalf("over MaxConns a ping is answered with eviction 12 (%v): %v", codec.StatusUnauthenticated.Err(), err)
	}
	if !late.closedByServer() {
		t.Fatalf("over MaxConns a connection is closed: it was not")
	}
	if d := time.Since(start); a.fakeClock && d >= probeDeadline {
		t.Fatalf("and at once, not left in the backlog: closed after %v, want under %v", d, probeDeadline)
	}
	refused := func() int { return a.rec.limitedBy(tcp.LimitConns) }
	awaitEqual(t, refused, 1, "%d refusals at MaxConns told the observer, want %d")
	cr.end()
	if err := w.nc.Close(); err != nil {
		t.Fatalf("closing the probe's connection: %v", err)
	}
	a.checkBaseline()
}

// bigLogin is a valid login frame of about size bytes (a long context).
func bigLogin(t testing.TB, c *lifecycle.Client, size int) []byte {
	t.Helper()
	body, err := codec.LoginRegister{Info: lifecycletest.Info(lifecycletest.V011), Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy")),
		Context: bytes.Repeat([]byte("c"), size-codec.HeaderSize-300)}.AppendBinary(nil)
	if err != nil {
		t.Fatalf("LoginRegister.AppendBinary: %v", err)
	}
	return lifecycletest.Register(t, c.ID(), body)
}

// TestHostileLargeFrames is the short form of the soak's "largeframes":
// many connections each send one large (valid) frame at once. They are
// all answered, never more than LargeFrameMemory of them is held at once,
// no connection keeps its large buffer after the answer, and the probe
// logs in meanwhile.
func TestHostileLargeFrames(t *testing.T) {
	const conns, size, budget = 16, 200 << 10, 512 << 10
	a := startArena(t, nil, tcp.ServeOptions{MaxFrame: 256 << 10, LargeFrameMemory: budget, MaxPreLogin: 64})
	var held []net.Conn
	var answered int
	var err error
	end := during(t, func(<-chan struct{}) {
		held, answered, _, err = attack.LargeFrames(a.dial, nil, conns, size, "iggy", "iggy")
	})
	a.probe(nil)
	end()
	if err != nil || answered != conns {
		t.Fatalf("every large frame is answered (none dropped while waiting for the budget): %d answered, want %d (%v)", answered, conns, err)
	}
	if peak := tcp.LargeFramePeak(a.l); peak > budget {
		t.Errorf("large frames held at once peaked at %d bytes, want at most %d", peak, budget)
	}
	// At least one whole frame was held under the budget. Whether two ever
	// overlap depends on scheduling.
	if peak := tcp.LargeFramePeak(a.l); peak < size {
		t.Errorf("the frames did go through the budget: peak %d bytes, want at least %d", peak, size)
	}
	for _, nc := range held {
		_ = nc.Close()
	}
	a.checkBaseline()
}

// TestHostileOverCap: a valid request above MaxFrame is answered with
// Eviction 6 at once, without the server waiting for (or reading) its body.
func TestHostileOverCap(t *testing.T) {
	a := startArena(t, nil, tcp.ServeOptions{MaxFrame: 64 << 10})
	w := a.wire(nil)
	frame := bigLogin(t, w.c, 100<<10)
	if _, err := w.nc.Write(frame[:codec.HeaderSize+10]); err != nil { // the rest never comes
		t.Fatalf("Write: %v", err)
	}
	answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	if err != nil {
		t.Fatalf("ReadFrame: %v", err)
	}
	if want := lifecycletest.EvictionFrame(t, w.c.ID(), codec.ReasonInvalidRequestBodySize); !bytes.Equal(answer, want) {
		t.Fatalf("answer =\n%x\nwant eviction 6\n%x", answer, want)
	}
	if !w.closedByServer() {
		t.Fatalf("the connection was not closed after the eviction")
	}
	if err := w.nc.Close(); err != nil { // ends the server's drain of the body
		t.Fatalf("Close: %v", err)
	}
	evictions6 := func() int { a.rec.mu.Lock(); defer a.rec.mu.Unlock(); return a.rec.reasons[6] }
	awaitEqual(t, evictions6, 1, "%d closings by eviction 6 told the observer, want %d")
	if n := a.rec.loginsBy("InvalidRequestBodySize"); n != 1 {
		t.Errorf("logins refused as InvalidRequestBodySize = %d, want 1", n)
	}
	a.checkBaseline()
}

// countingAuth counts the credential checks that reach the Authenticator.
type countingAuth struct {
	lifecycle.Authenticator
	checks atomic.Int64
}

func (c *countingAuth) Password(u []byte, p codec.Secret) (uint32, error) {
	c.checks.Add(1)
	return c.Authenticator.Password(u, p)
}

// TestHostileGuessing is the short form of the soak's "guess1": wrong
// passwords from one address stop reaching the Authenticator after the
// burst; the throttled answers are the wrong-password eviction, byte for
// byte; the right password from that address is refused too (guessing
// stops paying), while another address logs in at once. The refill rate
// is tiny here so that no token comes back during the test; refilling is
// TestThrottleBucket's.
func TestHostileGuessing(t *testing.T) {
	const burst, guesses = 3, 30
	auth := &countingAuth{Authenticator: lifecycletest.Auth}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: auth})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	a := startArena(t, srv, tcp.ServeOptions{LoginBurst: burst, LoginRate: 0.001})
	attacker := net.IPv4(127, 0, 0, 1)
	if n, refused := attack.Guess(a.dial, []net.IP{attacker}, 1, guesses, "iggy", nil); n != guesses || refused != guesses {
		t.Fatalf("%d guesses, %d of them refused as a wrong password, want %d", n, refused, guesses)
	}
	w := a.wire(attacker)
	frame, err := w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("guess")))
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	if _, err := w.nc.Write(frame); err != nil {
		t.Fatalf("Write: %v", err)
	}
	answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	if err != nil {
		t.Fatalf("ReadFrame: %v", err)
	}
	if want := lifecycletest.EvictionFrame(t, w.c.ID(), codec.ReasonInvalidCredentials); !bytes.Equal(answer, want) {
		t.Fatalf("a throttled answer is the wrong-password answer: answer =\n%x\nwant\n%x", answer, want)
	}
	if n := auth.checks.Load(); n != burst {
		t.Fatalf("credential checks from one address = %d, want %d", n, burst)
	}
	awaitEqual(t, func() int { return a.rec.loginsBy("Throttled") }, guesses+1-burst, "%d throttled logins told the observer, want %d")

	w = a.wire(attacker)
	_, err = w.login()
	if want := codec.StatusInvalidCredentials.Err(); !errors.Is(err, want) {
		t.Fatalf("over budget, even the right password is refused: error = %v, want %v", err, want)
	}
	if n := auth.checks.Load(); n != burst {
		t.Fatalf("without a check: credential checks = %d, want %d", n, burst)
	}

	a.probe(net.IPv4(127, 0, 0, 2)) // another address is not slowed
	a.checkBaseline()
}

// TestHostileThrottleOff: a negative LoginBurst checks every login.
func TestHostileThrottleOff(t *testing.T) {
	auth := &countingAuth{Authenticator: lifecycletest.Auth}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: auth})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	a := startArena(t, srv, tcp.ServeOptions{LoginBurst: -1})
	for i := range 30 {
		w := a.wire(nil)
		_, err := w.do(w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("guess"))))
		if want := codec.StatusInvalidCredentials.Err(); !errors.Is(err, want) {
			t.Fatalf("guess %d: error = %v, want %v", i, err, want)
		}
	}
	if n := auth.checks.Load(); n != 30 {
		t.Fatalf("credential checks = %d, want 30", n)
	}
	a.checkBaseline()
}

// TestListenerAnswersUnencodable: a Handler answer the codec cannot frame
// (a body over the 64 MiB cap) is answered with status 1 and reported.
func TestListenerAnswersUnencodable(t *testing.T) {
	huge := make([]byte, codec.MaxFrameSize)
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: lifecycletest.Auth,
		Handler: func(lifecycle.Request) (codec.Status, []byte) { return codec.StatusOK, huge }})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	a := startArena(t, srv, tcp.ServeOptions{})
	w := a.wire(nil)
	if _, err = w.login(); err != nil {
		t.Fatalf("login: %v", err)
	}
	_, err = w.do(w.c.Request(nil, codec.CodeGetClusterMetadata, nil))
	if want := codec.Status(1).Err(); !errors.Is(err, want) {
		t.Fatalf("GetClusterMetadata: error = %v, want %v", err, want)
	}
	if _, err = w.do(w.c.Ping(nil)); err != nil {
		t.Fatalf("the connection carries on: ping: %v", err)
	}
	a.rec.mu.Lock()
	if len(a.rec.answerE) != 1 {
		t.Fatalf("AnswerFailed told %d errors %v, want 1", len(a.rec.answerE), a.rec.answerE)
	}
	var cerr *codec.Error
	if !errors.As(a.rec.answerE[0], &cerr) {
		t.Fatalf("the codec's error: %v is not a *codec.Error", a.rec.answerE[0])
	}
	a.rec.mu.Unlock()
}
