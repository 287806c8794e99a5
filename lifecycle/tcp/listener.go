package tcp

import (
	"container/list"
	"context"
	"errors"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// ServeOptions bound what a Listener spends on its connections. Zero fields
// take the defaults named below.
type ServeOptions struct {
	// MaxConns caps the connections open at once. A connection accepted
	// at the cap is refused (Observer.Refused), never left waiting in the
	// listen backlog: its first request, if it comes within a second, is
	// answered with Eviction 12 (SessionError), then it is closed.
	// Default 8192.
	MaxConns int
	// MaxPreLogin caps the connections open and not logged in. When a new
	// connection arrives at the cap, the oldest connection not logged in
	// is closed (CausePreLoginCap), so a newcomer always gets its chance
	// to log in. Default 256.
	MaxPreLogin int
	// LoginTimeout bounds how long a connection may stay without a login,
	// from its accept or its last logout, whether it pings or not.
	// Default 10s.
	LoginTimeout time.Duration
	// IdleTimeout closes a logged-in connection when no frame begins
	// within it. Default 0: off, as in the reference server.
	IdleTimeout time.Duration
	// ReadTimeout bounds the read of one frame, from its first byte to
	// its last. Default 30s.
	ReadTimeout time.Duration
	// WriteTimeout bounds the write of each answer. Default 10s.
	WriteTimeout time.Duration
	// MaxFrame is the largest frame served. A larger one (up to the wire's
	// 64 MiB) is answered with Eviction 6 (InvalidRequestBodySize) and the
	// connection closed, as WIRE.md section 7 point 8 allows a server that
	// caps frames. Default 1 MiB; at most 64 MiB.
	MaxFrame int
	// LargeFrameMemory bounds the bytes of frames above 64 KiB held at
	// once, server-wide. Such a frame waits until its size is free (it is
	// not dropped), is read into a buffer of its own, and that buffer is
	// let go of once the frame is answered; when the last one is, the
	// freed memory is handed back to the operating system. Default 8 MiB.
	LargeFrameMemory int
	// LoginBurst and LoginRate throttle failed logins per remote address
	// (IPv4 address, or IPv6 /64): a token bucket of LoginBurst credential
	// checks that refills at LoginRate per second and that only failures
	// spend. Over budget, a login is refused with the eviction a wrong
	// password or token gets, after about the time a check takes, without
	// checking the credentials. Defaults 20 and 5; a negative LoginBurst
	// turns the throttle off.
	LoginBurst int     // credential checks an address may fail at once
	LoginRate  float64 // failed checks an address is given back per second

	// MaxSessionsPerUser caps the connections logged in as one account
	// (user id) at once. A login over it is answered with Eviction 12
	// (SessionError) and the connection closed (Observer.Limited,
	// LimitAccount); a new login of the same account on a connection
	// already logged in as it is not counted twice. Default 0: an eighth
	// of MaxConns (1024 of 8192) and at least 8, so that one account
	// cannot hold the whole budget; negative: no cap.
	MaxSessionsPerUser int
	// MaxConnsPerAddr caps the connections open at once from one remote
	// address (IPv4 address, or IPv6 /64, as the login throttle keys
	// them). A connection over it is refused as at MaxConns: its first
	// request, if it comes within a second, is answered with Eviction 12,
	// then it is closed (Observer.Limited, LimitAddress). Default 0: an
	// eighth of MaxConns and at least 8; negative: no cap.
	MaxConnsPerAddr int
	// ReservedConns is the part of MaxConns kept for the first session of
	// an account: once MaxConns-ReservedConns connections are logged in,
	// a login is admitted only for an account that holds no session yet,
	// so that accounts that filled the budget cannot lock others out. A
	// login refused so is answered as over MaxSessionsPerUser
	// (LimitReserve). Default 0: an eighth of MaxConns (none below 8);
	// negative: none.
	ReservedConns int
	// AcceptBurst and AcceptRate limit how fast one address (IPv4, or
	// IPv6 /64) may open connections: a token bucket of AcceptBurst
	// accepts that refills at AcceptRate per second, and that a
	// connection's first successful login gives back, so that only
	// connections that never log in spend it. Over budget, a connection
	// is reset as soon as it is accepted, before it costs a goroutine or
	// an Opened and Closed call (Observer.Limited, LimitAcceptRate).
	// Zero takes the defaults, 64 and 32 a second (DefaultServeOptions
	// leaves them zero, as it does the shares above); a negative
	// AcceptBurst turns the limit off.
	AcceptBurst int     // connections an address may open at once without logging in
	AcceptRate  float64 // such connections an address is given back per second
	// SocketReadBuffer and SocketWriteBuffer set each connection's kernel
	// receive and send buffers (SetReadBuffer, SetWriteBuffer), which
	// otherwise grow to megabytes on a peer that sends and never reads.
	// Each connection answers a frame before it reads the next, so the
	// answers waiting for a peer are never more than the send buffer
	// holds: once it is full the connection stops reading.
	// PipelineMemory lets a client pipeline more than that before it
	// reads. The kernel doubles the value for its bookkeeping. Defaults
	// 32 KiB each; a negative value leaves the kernel's own sizing.
	SocketReadBuffer  int
	SocketWriteBuffer int
	// PipelineMemory is the send buffer, server-wide, that connections
	// whose answers pile up may borrow: a connection whose answer has
	// waited 50 ms for room raises its send buffer to 1 MiB while the
	// budget has room, and gives it back when it closes, so that a
	// client writing thousands of requests before it reads its answers
	// (20,000 pings in one write, 5 MB) is served, while peers that never
	// read pin no more than the budget. Default 8 MiB (eight such
	// connections at once); a negative value turns it off.
	PipelineMemory int
	// WriteStall closes a connection whose answer makes no progress for
	// this long (CauseNotReading): a peer that keeps sending and does not
	// read its answers. WriteTimeout still bounds the whole write.
	// Default 3s.
	WriteStall time.Duration
	// FrameRate is how many frames a second the Listener reads in all
	// from its busy connections, in equal shares: each connection (and
	// so each session, which lives on one) has a token bucket refilled
	// at FrameRate over the busy connections of the last 100 ms, holding
	// at most a tenth of a second of it. A connection is busy once it
	// reads 16 frames in 100 ms or has to wait; one that sends less (a
	// login, heartbeats) is neither counted nor held back. A connection
	// over its share is not read until a token is due, so TCP slows its
	// peer while a newcomer's login finds the machine free: a lone
	// client pipelining gets the whole rate, fifty flooding ones a
	// fiftieth each. Default 25,000 frames/s, which keeps a login's
	// latency in milliseconds on two cores; raise it with the cores a
	// server has. A negative FrameRate turns pacing off.
	FrameRate float64
	// AccountLoginBurst and AccountLoginRate throttle failed checks per
	// account (per username; token logins share one bucket), from every
	// address at once, on top of the per-address throttle. An address
	// with no failed check in the last ten minutes is not held to it, so
	// that guessing against an account from elsewhere never locks out
	// its owner. Defaults 20 and 5; a negative AccountLoginBurst turns it
	// off. It needs the per-address throttle on.
	AccountLoginBurst int
	AccountLoginRate  float64
	// PreLoginFrameMemory is the part of LargeFrameMemory that frames of
	// connections not logged in may hold at once, so that a few stalled
	// unauthenticated frames cannot starve a logged-in client's. Default
	// a quarter of LargeFrameMemory (2 MiB); at most LargeFrameMemory.
	PreLoginFrameMemory int
	// ReplayTimeout is how long a connection not logged in stays open
	// after a login answered with result code 57 (TransientNotCommitted),
	// which the client replays on the same connection, when that is
	// later than LoginTimeout. Default 30s, the SDKs' replay window.
	ReplayTimeout time.Duration

	// Observer's hooks, those set, learn of connections opened, refused
	// and closed, logins, logouts, dropped frames, accept errors and every
	// frame exchanged.
	Observer Observer
}

// Defaults of ServeOptions.
const (
	defaultMaxConns         = 8192
	defaultMaxPreLogin      = 256
	defaultLoginTimeout     = 10 * time.Second
	defaultReadTimeout      = 30 * time.Second
	defaultWriteTimeout     = 10 * time.Second
	defaultMaxFrame         = 1 << 20
	defaultLargeFrameMemory = 8 << 20
)

// DefaultServeOptions returns the options a zero ServeOptions stands for,
// so that a command can show them (the Observer has no hooks). The
// admission limits (MaxSessionsPerUser to AcceptRate) stay zero there:
// their defaults are fractions of MaxConns or fixed numbers the fields'
// comments give, resolved when the Listener is made.
func DefaultServeOptions() ServeOptions { return ServeOptions{}.withDefaults() }

// withDefaults fills the zero fields of o.
func (o ServeOptions) withDefaults() ServeOptions {
	pick := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	pickDur := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	pick(&o.MaxConns, defaultMaxConns)
	pick(&o.MaxPreLogin, defaultMaxPreLogin)
	pick(&o.LargeFrameMemory, defaultLargeFrameMemory)
	pickDur(&o.LoginTimeout, defaultLoginTimeout)
	pickDur(&o.ReadTimeout, defaultReadTimeout)
	pickDur(&o.WriteTimeout, defaultWriteTimeout)
	o.IdleTimeout = max(o.IdleTimeout, 0)
	if o.MaxFrame < codec.HeaderSize {
		o.MaxFrame = defaultMaxFrame
	}
	o.MaxFrame = min(o.MaxFrame, codec.MaxFrameSize)
	if o.LoginBurst == 0 {
		o.LoginBurst = defaultLoginBurst
	}
	if o.LoginRate <= 0 {
		o.LoginRate = defaultLoginRate
	}
	o.connServiceDefaults()
	return o
}

// Listener puts a lifecycle.Server's Conns on the connections of a net.Listener: for
// each connection it reads a 256-byte header, the body its size announces,
// hands the frame to lifecycle.Conn.Handle and writes the answer, and closes the
// connection after an eviction or an unusable frame size. ServeOptions
// bound the connections, the time and the memory it spends.
type Listener struct {
	ln       net.Listener
	srv      *lifecycle.Server
	opts     ServeOptions
	obs      Observer
	budget   *memBudget
	throttle *throttle // nil when off
	accepts  *throttle // per-address accepts; nil when off
	limits   limits
	active   activity // connections reading frames, for FrameRate

	pipelineUsed atomic.Int64 // of PipelineMemory

	mu       sync.Mutex
	closing  bool
	conns    map[*peer]struct{}
	preLogin list.List // *peer not logged in, oldest first
	loggedIn int
	lastID   uint64
	accounts map[uint32]int        // sessions logged in, per user id
	addrs    map[netip.Addr]int    // connections open, per address
	refusing map[net.Conn]struct{} // refused connections being answered
	drop     dropWatch
	wg       sync.WaitGroup // one per connection goroutine
	done     chan struct{}  // closed by stop
}

// peer is one served connection as the Listener tracks it.
type peer struct {
	nc     net.Conn
	info   ConnInfo
	key    netip.Addr // the remote address the limits count it by
	opened time.Time
	kill   chan struct{} // closed when the Listener ends the connection

	// Guarded by Listener.mu.
	elem   *list.Element // in preLogin while not logged in and not ended
	in     bool          // counted in loggedIn and in accounts[user]
	everIn bool          // logged in at least once
	user   uint32        // the account logged in as, while in
	ended  CloseCause    // why the Listener ended it, 0 if it did not
}

// NewListener returns a Listener serving srv on ln. It takes ownership of
// ln: Shutdown closes it.
func NewListener(ln net.Listener, srv *lifecycle.Server, opts ServeOptions) *Listener {
	opts = opts.withDefaults()
	l := &Listener{ln: ln, srv: srv, opts: opts, obs: opts.Observer,
		budget: newFrameBudget(int64(opts.LargeFrameMemory), int64(opts.PreLoginFrameMemory)),
		conns:  make(map[*peer]struct{}), done: make(chan struct{}),
		limits: resolveLimits(&opts), accounts: make(map[uint32]int), addrs: make(map[netip.Addr]int),
		refusing: make(map[net.Conn]struct{}), drop: newDropWatch()}
	if opts.LoginBurst > 0 {
		l.throttle = newThrottle(opts.LoginBurst, opts.LoginRate)
		l.throttle.limitAccounts(opts.AccountLoginBurst, opts.AccountLoginRate)
	}
	if burst, rate := acceptLimit(&opts); burst > 0 {
		l.accepts = newThrottle(burst, rate)
	}
	return l
}

// Serve is NewListener(ln, srv, ServeOptions{}).Serve with a background
// context: it serves until Accept fails for good, which closing ln causes,
// and then returns that error (net.ErrClosed after a Close), like
// http.Serve. Use a Listener for Shutdown and options.
func Serve(ln net.Listener, srv *lifecycle.Server) error {
	return NewListener(ln, srv, ServeOptions{}).Serve(context.Background())
}

// Addr returns the address listened on.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Conns returns how many connections are open and not logged in, and how
// many are logged in.
func (l *Listener) Conns() (preLogin, loggedIn int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.preLogin.Len(), l.loggedIn
}

// Serve accepts connections until ctx is done or Shutdown is called, then
// waits for every connection goroutine to end. It returns nil after such a
// shutdown, or the error that made Accept fail for good.
func (l *Listener) Serve(ctx context.Context) error {
	go func() {
		select {
		case <-ctx.Done():
			l.stop()
		case <-l.done:
		}
	}()
	defer l.wg.Wait()
	var backoff time.Duration
	for {
		nc, err := l.ln.Accept()
		if err != nil {
			if l.isClosing() {
				return nil
			}
			if !retryable(err) {
				l.stop()
				return err
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			l.obs.acceptFailed(err, backoff)
			l.sleep(backoff)
			continue
		}
		backoff = 0
		key := throttleKey(nc.RemoteAddr())
		if l.accepts != nil && !l.acceptAllowed(key) {
			shed(nc)
			l.obs.limited(ConnInfo{ID: l.nextID(), Remote: nc.RemoteAddr()}, LimitAcceptRate)
			continue
		}
		p, refused := l.admit(nc, key)
		switch {
		case p == nil: // stopping
			_ = nc.Close()
			return nil
		case refused == CauseTotalCap:
			l.refuse(nc)
			l.obs.refused(p.info)
			continue
		case refused != 0:
			l.refuse(nc)
			l.obs.limited(p.info, LimitAddress)
			continue
		}
		go l.serveConn(p)
	}
}

// retryable reports whether an Accept error is passing: a timeout, or the
// process or system running out of descriptors, buffers or memory, or a
// connection aborted before it was accepted. Serve backs off and tries
// again instead of ending the server for them, as net/http does.
func retryable(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, errno := range [...]syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

// Shutdown stops accepting, closes every connection (an answer being
// written may be cut) and waits until their goroutines end or ctx is done.
func (l *Listener) Shutdown(ctx context.Context) error {
	l.stop()
	waited := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(waited)
	}()
	select {
	case <-waited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stop closes the listener and every connection, once.
func (l *Listener) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return
	}
	l.closing = true
	close(l.done)
	_ = l.ln.Close()
	for p := range l.conns {
		l.endLocked(p, CauseShutdown)
	}
	for nc := range l.refusing {
		_ = nc.Close()
	}
	l.drop.stopLocked()
}

func (l *Listener) isClosing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing
}

func (l *Listener) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-l.done:
	}
}

// admit registers nc, from key, as a peer not yet logged in, closing the
// oldest such peer if that passes MaxPreLogin. It returns nil if the
// listener is stopping, and (with the peer's info) CauseTotalCap at
// MaxConns or causeAddrCap at MaxConnsPerAddr. The WaitGroup is added to
// under the same lock that stop takes, so no Add can follow the final
// Wait.
func (l *Listener) admit(nc net.Conn, key netip.Addr) (p *peer, refused CloseCause) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return nil, 0
	}
	l.lastID++
	p = &peer{nc: nc, info: ConnInfo{ID: l.lastID, Remote: nc.RemoteAddr()}, key: key, opened: time.Now(), kill: make(chan struct{})}
	switch {
	case len(l.conns) >= l.opts.MaxConns:
		return p, CauseTotalCap
	case l.addrFullLocked(key):
		return p, causeAddrCap
	}
	l.conns[p] = struct{}{}
	l.addrs[key]++
	l.drop.grewLocked(len(l.conns))
	p.elem = l.preLogin.PushBack(p)
	l.trimPreLoginLocked()
	l.wg.Add(1)
	return p, 0
}

// causeAddrCap stands, between admit and Serve, for a refusal at
// MaxConnsPerAddr; no connection is closed with it.
const causeAddrCap CloseCause = 254

// nextID hands out a connection id for a connection never served.
func (l *Listener) nextID() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lastID++
	return l.lastID
}

// trimPreLoginLocked closes the oldest peers not logged in while there are
// more than MaxPreLogin.
func (l *Listener) trimPreLoginLocked() {
	for l.preLogin.Len() > l.opts.MaxPreLogin {
		l.endLocked(l.preLogin.Front().Value.(*peer), CausePreLoginCap)
	}
}

// endLocked closes p from outside its goroutine, which then sees its reads
// fail or its budget wait end, and reports cause.
func (l *Listener) endLocked(p *peer, cause CloseCause) {
	if p.ended != 0 {
		return
	}
	p.ended = cause
	if p.elem != nil {
		l.preLogin.Remove(p.elem)
		p.elem = nil
	}
	close(p.kill)
	_ = p.nc.Close()
}

// endedBy returns why the Listener ended p, or 0.
func (l *Listener) endedBy(p *peer) CloseCause {
	l.mu.Lock()
	defer l.mu.Unlock()
	return p.ended
}

// setLoggedIn moves p back to the end of the not-logged-in line after a
// logout (where it may push out the oldest). A login has nothing left to
// do here: admitLogin counted it before its reply existed.
func (l *Listener) setLoggedIn(p *peer, in bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if in || p.ended != 0 || !p.in {
		return
	}
	p.in = false
	l.loggedIn--
	l.leaveAccountLocked(p)
	p.elem = l.preLogin.PushBack(p)
	l.trimPreLoginLocked()
}

// untrack forgets p once its goroutine is done, then reports the close.
func (l *Listener) untrack(p *peer, how Closing) {
	l.mu.Lock()
	delete(l.conns, p)
	if p.elem != nil {
		l.preLogin.Remove(p.elem)
		p.elem = nil
	}
	if p.in {
		l.loggedIn--
		l.leaveAccountLocked(p)
		p.in = false
	}
	l.leaveAddrLocked(p)
	l.shrankLocked(len(l.conns))
	l.mu.Unlock()
	_ = p.nc.Close()
	how.Duration = time.Since(p.opened)
	l.obs.closed(p.info, how)
	l.wg.Done()
}

func (l *Listener) trace(e Exchange) { l.obs.frame(e) }

// acceptAllowed spends one of key's accept tokens (the accept throttle
// keeps no accounts, so account 0 is never charged).
func (l *Listener) acceptAllowed(key netip.Addr) bool {
	_, ok := l.accepts.take(key, 0, time.Now())
	return ok
}
