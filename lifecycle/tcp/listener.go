package tcp

import (
	"container/list"
	"context"
	"errors"
	"hash/maphash"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/lifecycle"
)

// Listener puts a lifecycle.Server's Conns on the connections of a
// net.Listener: for each connection it reads a 256-byte header, decides
// from it what the frame may cost, reads the body its size announces,
// hands the frame to lifecycle.Conn.Handle and writes the answer, and
// closes the connection after an eviction or an unusable frame size.
// ServeOptions bound the connections, the time and the memory it spends.
type Listener struct {
	ln       net.Listener
	srv      *lifecycle.Server
	opts     ServeOptions // resolved
	obs      Observer
	budget   *memBudget
	throttle *throttle // nil when off
	accepts  *throttle // per-address accepts; nil when off
	release  *releaser // hands memory back through ReleaseMemory; nil without it
	checks   checkClock
	seed     maphash.Seed // of nameKey

	pipelineUsed atomic.Int64 // of PipelineMemory

	mu       sync.Mutex
	closing  bool
	conns    map[*peer]struct{}
	preLogin list.List // *peer not logged in, oldest first
	knownPre int       // of them, those known (peer.known)
	loggedIn int
	lastID   uint64
	accounts map[uint32]int           // sessions logged in, per user id
	addrs    map[netip.Addr]int       // connections open, per address
	userAddr map[userAddr]int         // sessions logged in, per user id and address
	sessions map[sessKey]int          // connections logged in, per logical session (admitBind)
	onTrial  map[netip.Addr]int       // connections on probation, per address
	noTrial  map[netip.Addr]time.Time // addresses whose probation is off until then
	loggedAt map[netip.Addr]time.Time // the last successful login from each address, within knownFor
	refusing map[net.Conn]struct{}    // refused connections being answered
	names    map[uint64]uint32        // the account a username (nameKey) last logged in as
	drop     dropWatch
	wg       sync.WaitGroup // one per connection goroutine
	done     chan struct{}  // closed by stop
}

// peerState is where a served connection stands in the Listener's
// accounts. It changes only in moveLocked.
type peerState uint8

const (
	statePreLogin peerState = iota // in the pre-login line
	stateIn                        // logged in: counted in loggedIn and in accounts[user]
	stateEnded                     // closed by the Listener; counted nowhere but conns and addrs
)

// peer is one served connection as the Listener tracks it.
type peer struct {
	nc     net.Conn
	info   ConnInfo
	key    netip.Addr // the remote address the limits count it by
	opened time.Time
	kill   chan struct{} // closed when the Listener ends the connection

	// Guarded by Listener.mu.
	state  peerState
	elem   *list.Element // in preLogin while statePreLogin
	user   uint32        // the account logged in as, while stateIn
	everIn bool          // logged in at least once
	trial  bool          // accepted over its address's accept budget, not logged in since
	known  bool          // from an address where a login succeeded within knownFor, at its accept
	ended  CloseCause    // why the Listener ended it, while stateEnded
	sess   sessKey       // the logical session it is bound to, while stateIn (zero until known)
	shared bool          // stateIn on a logical session another connection is counted for
}

// NewListener returns a Listener serving srv on ln. It takes ownership of
// ln: Shutdown closes it.
func NewListener(ln net.Listener, srv *lifecycle.Server, opts ServeOptions) *Listener {
	opts = opts.Resolved()
	l := &Listener{ln: ln, srv: srv, opts: opts, obs: opts.Observer,
		budget: newFrameBudget(int64(opts.LargeFrameMemory), int64(opts.PreLoginFrameMemory)),
		conns:  make(map[*peer]struct{}), done: make(chan struct{}),
		accounts: make(map[uint32]int), addrs: make(map[netip.Addr]int),
		userAddr: make(map[userAddr]int), sessions: make(map[sessKey]int), onTrial: make(map[netip.Addr]int),
		noTrial: make(map[netip.Addr]time.Time), loggedAt: make(map[netip.Addr]time.Time),
		refusing: make(map[net.Conn]struct{}), names: make(map[uint64]uint32), seed: maphash.MakeSeed()}
	if opts.ReleaseMemory != nil {
		l.release = &releaser{free: opts.ReleaseMemory}
		l.budget.idle = l.release.request
	}
	if opts.LoginBurst > 0 {
		l.throttle = newThrottle(opts.LoginBurst, opts.LoginRate)
		l.throttle.limitAccounts(opts.AccountLoginBurst, opts.AccountLoginRate)
	}
	if opts.AcceptBurst > 0 {
		l.accepts = newThrottle(opts.AcceptBurst, opts.AcceptRate)
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
	l.mu.Lock()
	if !l.closing {
		l.wg.Add(1)
		go l.sweepLoop()
	}
	l.mu.Unlock()
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
		trial := l.accepts != nil && !l.acceptAllowed(key)
		p, info, refused, ok := l.admit(nc, key, trial)
		switch {
		case !ok: // stopping
			_ = nc.Close()
			return nil
		case refused == LimitAcceptRate:
			shed(nc)
			l.obs.limited(info, refused)
			continue
		case refused != 0:
			l.refuse(nc)
			l.obs.limited(info, refused)
			continue
		}
		go l.serveConn(p)
	}
}

// sweepLoop sweeps the throttles every sweepEvery until the Listener
// stops, and asks for the memory of a map let go of to be handed back.
func (l *Listener) sweepLoop() {
	defer l.wg.Done()
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		select {
		case <-l.done:
			return
		case now := <-t.C:
			l.mu.Lock()
			for key, until := range l.noTrial {
				if !now.Before(until) {
					delete(l.noTrial, key)
				}
			}
			for key, at := range l.loggedAt {
				if now.Sub(at) >= knownFor {
					delete(l.loggedAt, key)
				}
			}
			l.mu.Unlock()
			freed := false
			for _, th := range [...]*throttle{l.accepts, l.throttle} {
				if th != nil && th.sweep(now) {
					freed = true
				}
			}
			if freed && l.release != nil {
				l.release.request()
			}
		}
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
	if l.release != nil {
		l.release.stop()
	}
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
// oldest such peer if that passes MaxPreLogin; or refuses it at MaxConns
// or MaxConnsPerAddr. info is the connection's, for the Observer. A connection
// over its address's accept budget (trial) is taken on probation while
// the address has fewer than trialSlots on it, and refused with
// LimitAcceptRate otherwise. ok is false when the listener is stopping.
// The WaitGroup is added to under the same lock that stop takes, so no
// Add can follow the final Wait.
func (l *Listener) admit(nc net.Conn, key netip.Addr, trial bool) (p *peer, info ConnInfo, refused Limit, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return nil, info, 0, false
	}
	l.lastID++
	now := time.Now()
	info = ConnInfo{ID: l.lastID, Remote: nc.RemoteAddr()}
	if trial && (l.onTrial[key] >= trialSlots || now.Before(l.noTrial[key])) {
		// Reset at accept: nothing is made for it but its info, not
		// even a peer: under a reconnect storm, these are most of what
		// the accept loop allocates, and so of the server's GC.
		return nil, info, LimitAcceptRate, true
	}
	switch {
	case len(l.conns) >= l.opts.MaxConns:
		return nil, info, LimitConns, true
	case l.addrFullLocked(key):
		return nil, info, LimitAddress, true
	}
	p = &peer{nc: nc, info: info, key: key, opened: now, kill: make(chan struct{})}
	if at, ok := l.loggedAt[key]; ok && now.Sub(at) < knownFor {
		p.known = true
	}
	if trial {
		p.trial = true
		l.onTrial[key]++
	}
	l.conns[p] = struct{}{}
	l.addrs[key]++
	l.drop.grewLocked(len(l.conns))
	if trial {
		// It paid no accept token: it must not push out one that did.
		p.elem = l.preLogin.PushFront(p)
	} else {
		p.elem = l.preLogin.PushBack(p)
	}
	if p.known {
		l.knownPre++
	}
	l.trimPreLoginLocked()
	l.wg.Add(1)
	return p, info, 0, true
}

// trimPreLoginLocked closes the oldest peers not logged in while there are
// more than MaxPreLogin.
//
// Connections from an address where a login succeeded within knownFor
// are passed over while they hold at most half the line: a storm of
// connections from fresh addresses, accepted faster than their goroutines
// run, pushes out its own before a client whose login waits unread to be
// served, and a peer with credentials cannot fill the line with known
// connections that newcomers could never push out.
func (l *Listener) trimPreLoginLocked() {
	for l.preLogin.Len() > l.opts.MaxPreLogin {
		victim := l.preLogin.Front()
		for e := victim; e != nil && 2*l.knownPre <= l.opts.MaxPreLogin; e = e.Next() {
			if !e.Value.(*peer).known {
				victim = e
				break
			}
		}
		l.endLocked(victim.Value.(*peer), CausePreLoginCap)
	}
}

// knownFor is how long an address where a login succeeded is known, for
// trimPreLoginLocked.
const knownFor = 10 * time.Minute

// moveLocked is the one place where a served connection's standing in the
// Listener's accounts changes: a login (admitLogin, as Handle asks before
// the reply exists), a logout (logout, once Handle has answered one), an
// end by the Listener (endLocked). Its accept and its close are admit's
// and untrack's. Call with l.mu held.
func (l *Listener) moveLocked(p *peer, to peerState, user uint32) {
	switch p.state {
	case statePreLogin:
		l.preLogin.Remove(p.elem)
		p.elem = nil
		if p.known {
			l.knownPre--
		}
	case stateIn:
		l.loggedIn--
		l.leaveAccountLocked(p)
	case stateEnded:
		return // ended for good: only untrack forgets it
	}
	p.state = to
	switch to {
	case statePreLogin:
		// Only a logout comes back to the line: a connection that has had
		// its login goes first when the line is trimmed, before any
		// waiting for its first. So does one on probation (admit).
		p.elem = l.preLogin.PushFront(p)
		if p.known {
			l.knownPre++
		}
		l.trimPreLoginLocked()
	case stateIn:
		l.loggedIn++
		p.user, p.everIn = user, true
		if _, ok := l.loggedAt[p.key]; ok || len(l.loggedAt) < maxThrottled {
			l.loggedAt[p.key] = time.Now()
		}
		l.accounts[user]++
		l.userAddr[userAddr{user, p.key}]++
		l.endTrialLocked(p)
	}
}

// endLocked closes p from outside its goroutine, which then sees its reads
// fail or its budget wait end, and reports cause.
func (l *Listener) endLocked(p *peer, cause CloseCause) {
	if p.state == stateEnded {
		return
	}
	l.moveLocked(p, stateEnded, 0)
	p.ended = cause
	close(p.kill)
	_ = p.nc.Close()
}

// endedBy returns why the Listener ended p, or CauseShutdown when it
// closed the connection without ending it (a Shutdown racing its accept).
func (l *Listener) endedBy(p *peer) CloseCause {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p.state == stateEnded {
		return p.ended
	}
	return CauseShutdown
}

// spoke moves p, which has sent its first bytes, to the back of the
// pre-login line, behind the connections that have sent nothing yet: when
// the line is trimmed, a storm of connections that connect and reset (or
// never speak) goes before a client whose login is waiting to be read.
// One that paid no accept token (on probation) stays where it is.
func (l *Listener) spoke(p *peer) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p.state == statePreLogin && !p.trial && !p.everIn {
		l.preLogin.MoveToBack(p.elem)
	}
}

// logout moves p back to the pre-login line after Handle answered its
// logout, before the reply is written: a client that reads it and logs in
// elsewhere finds its account's place free. A connection that logs out has
// had its login, so it must not cost one to a connection waiting for its
// first: it enters the line at its front, the first to be closed when the
// line is trimmed, and it pays an accept token of its address, as the
// connection a client would dial instead does. When the line is full or
// the address has no token left, it is ended instead, and logout returns
// the cause the connection closes with once its reply is written: so
// login/logout churn of one account never pushes another connection out,
// and costs the churner what re-dialling would.
func (l *Listener) logout(p *peer) CloseCause {
	l.mu.Lock()
	if p.state != stateIn {
		l.mu.Unlock()
		return 0
	}
	// Charged even without a token left: the login gave back the token
	// its dial took, and a logout closed for want of one must not leave
	// the re-dial free.
	noToken := l.accepts != nil && l.accepts.charge(p.key, 1, time.Now()) < 0
	if !noToken && l.preLogin.Len() < l.opts.MaxPreLogin {
		l.moveLocked(p, statePreLogin, 0)
		l.mu.Unlock()
		return 0
	}
	if noToken {
		// Its address churns faster than its accept rate: its
		// re-dials must not come in on probation either.
		l.banTrialLocked(p.key)
	}
	l.moveLocked(p, stateEnded, 0)
	p.ended = CausePreLoginCap
	l.mu.Unlock()
	if noToken {
		l.obs.limited(p.info, LimitAcceptRate)
	}
	return CausePreLoginCap
}

// untrack forgets p once its goroutine is done, then reports the close.
func (l *Listener) untrack(p *peer, how Closing) {
	l.mu.Lock()
	l.moveLocked(p, stateEnded, 0) // uncounted from the line or its account
	delete(l.conns, p)
	l.leaveAddrLocked(p)
	penalty := !p.everIn && misbehaved(how)
	if penalty {
		l.banTrialLocked(p.key)
	}
	l.endTrialLocked(p)
	l.shrankLocked(len(l.conns))
	l.mu.Unlock()
	if penalty && l.accepts != nil {
		l.accepts.charge(p.key, l.opts.AcceptBurst, time.Now())
	}
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
