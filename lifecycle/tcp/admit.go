package tcp

import (
	"hash/maphash"
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// quotaReason is the eviction a login over a quota, or a connection
// refused at a cap, is answered with: 12 (SessionError), the one reason of
// WIRE.md section 6 that speaks neither of the request's bytes (2-6, 15),
// nor of its credentials (9-11), its session fence (1, 7, 8), its client
// id (13) or its protocol (14). SDKs map it to 40 (Unauthenticated,
// section 8): the login failed for a reason that retrying at once will not
// cure, which is the truth of a quota.
const quotaReason = codec.ReasonSessionError

// Limit names the admission limit that refused a connection or a login
// (Observer.Limited).
type Limit uint8

// Admission limits of ServeOptions.
const (
	// LimitConns: a connection accepted while MaxConns were open; its
	// first request, if it comes within a second, is answered with
	// Eviction 12 (SessionError), then it is closed.
	LimitConns Limit = iota + 1
	// LimitAddress: a connection from an address (IPv4, IPv6 /64) already
	// holding MaxConnsPerAddr; refused as at LimitConns.
	LimitAddress
	// LimitAcceptRate: a connection from an address over its AcceptBurst
	// and AcceptRate whose probation slots (8) are taken, reset at once:
	// no goroutine, no answer; or a logout from an address out of accept
	// tokens, after which the connection is closed (CausePreLoginCap).
	LimitAcceptRate
	// LimitAccount: a password login naming an account that holds
	// MaxSessionsPerUser, refused before its credentials are checked, so
	// that the refusal says nothing of the password: it is answered as a
	// wrong password is (Eviction 9, Login.Throttled) and closed. A login
	// the quota refuses after its check passed (a token, a name not seen
	// log in yet, two logins at once) is answered, reported and throttled
	// as a failed check, and not reported as Limited.
	LimitAccount
	// LimitReserve: a login of an account that already holds a session,
	// once only the ReservedConns are left; refused as at LimitAccount.
	LimitReserve
	// LimitUserAddress: a login of an account that holds
	// MaxSessionsPerUserAddr sessions from the connection's address;
	// refused as at LimitAccount.
	LimitUserAddress
)

var limitNames = [...]string{
	LimitConns:       "conns",
	LimitAddress:     "address",
	LimitAcceptRate:  "accept-rate",
	LimitAccount:     "account",
	LimitReserve:     "reserve",
	LimitUserAddress: "user-address",
}

// String is a short lower-case name ("account"), or "UNKNOWN_LIMIT_N", the form
// every enum of the module prints an unknown value in, for a value
// this package does not define.
func (l Limit) String() string {
	if int(l) < len(limitNames) && limitNames[l] != "" {
		return limitNames[l]
	}
	return "UNKNOWN_LIMIT_" + strconv.Itoa(int(l))
}

// guard is one connection's lifecycle.Guard, and the gate of its logins.
// It decides a password login's admission before the credential check,
// from what the username alone says (a known account at a quota), so that
// the refusal cannot depend on whether the password was right: the check
// does not run and the login is refused as a wrong password is. Then it
// spends a token of the connection's address (and of the account, as
// throttle.take says) before each check, and settles them once the login
// that passed was admitted or refused (admitLogin): a refusal after a
// passed check is charged as a failure. A refused login takes about as
// long as a check does, so that the answer's timing does not say why.
type guard struct {
	l *Listener
	p *peer

	// Of the check Allow let run.
	account uint64    // its throttle account key
	name    uint64    // its username's key (nameKey); 0 for a token
	pat     bool      // a token check
	spent   spent     // what the throttle took for it
	start   time.Time // when it began
	passed  bool      // it passed, and admitLogin has not settled it yet
}

// Allow implements lifecycle.Guard.
func (g *guard) Allow(a lifecycle.Attempt) bool {
	l := g.l
	g.passed, g.pat, g.name, g.account, g.spent = false, a.PAT, 0, 0, spent{}
	if !a.PAT {
		g.name = l.nameKey(a.Username)
		if limit := l.limitBeforeCheck(g.p, g.name); limit != 0 {
			l.obs.limited(g.p.info, limit)
			l.checks.pad()
			return false
		}
	}
	if t := l.throttle; t != nil {
		if t.accounts != nil {
			g.account = t.accountKey(a)
		}
		s, ok := t.take(g.p.key, g.account, time.Now())
		if !ok {
			l.checks.pad()
			return false
		}
		g.spent = s
	}
	g.start = time.Now()
	return true
}

// Checked implements lifecycle.Guard. A failure is charged at once; a
// success waits for admitLogin, which knows whether it logs in.
func (g *guard) Checked(_ lifecycle.Attempt, ok bool) {
	now := time.Now()
	g.l.checks.observe(now.Sub(g.start))
	if ok {
		g.passed = true
		return
	}
	if t := g.l.throttle; t != nil {
		t.failed(g.p.key, now)
	}
}

// settle gives back what a passed check spent when its login was
// admitted, or charges it as a failed check when it was refused, and
// reports whether there was a passed check to settle.
func (g *guard) settle(admitted bool) bool {
	if !g.passed {
		return false
	}
	g.passed = false
	if t := g.l.throttle; t != nil {
		now := time.Now()
		if admitted {
			t.refund(g.p.key, g.account, g.spent, now)
		} else {
			t.failed(g.p.key, now)
		}
	}
	return true
}

// nameKey is the key of a username among the names that logged in: never
// 0, which stands for none.
func (l *Listener) nameKey(username []byte) uint64 {
	return maphash.Bytes(l.seed, username) | 1
}

// limitBeforeCheck is the admission limit that refuses p a login under
// the username of key before its credentials are checked: the account
// that name last logged in as is at a quota. A name never seen log in is
// let through; the limits are then decided by admitLogin.
func (l *Listener) limitBeforeCheck(p *peer, key uint64) Limit {
	l.mu.Lock()
	defer l.mu.Unlock()
	user, known := l.names[key]
	if !known {
		return 0
	}
	limit, _ := l.loginLimitLocked(p, user)
	return limit
}

// learnNameLocked records that the username of key logged in as user, for
// limitBeforeCheck. The names kept are those whose credentials passed, as
// many as the accounts; past maxThrottled (an Authenticator that takes
// any name) they are forgotten and learned again.
func (l *Listener) learnNameLocked(key uint64, user uint32) {
	if _, known := l.names[key]; !known && len(l.names) >= maxThrottled {
		clear(l.names)
	}
	l.names[key] = user
}

// admitLogin is the connection's lifecycle.ConnConfig.Admit: Handle asks
// it once the login's credentials (or a BIND_SESSION's secret) have passed
// and before anything is bound, so the login is counted (or refused)
// before its reply exists and the pre-login cap can never pick a
// connection whose login reply is being written. The move itself is
// Listener.moveLocked's, as every other change of the connection's state.
//
// A refusal here follows a passed check, so it must not be told from a
// failed one, by the peer, the Observer's Limited and Login, or the
// throttle: it is answered with the eviction a wrong password (9) or token
// (10) gets (a BIND_SESSION's refusal is status 40 whatever the reason),
// it is not reported as Limited, and the check is charged as a failure.
// Most refusals never get here: Allow refuses a known name at a quota
// before its check.
func (l *Listener) admitLogin(g *guard, user uint32) codec.EvictionReason {
	return l.admitSession(g, user, sessKey{})
}

// admitBind is the connection's lifecycle.ConnConfig.AdmitBind. A bind of
// a logical session that another connection of the Listener is logged in
// on (a login's, or a bind's it admitted) resumes a session already
// counted: it is admitted without the per-account quotas
// (MaxSessionsPerUser, MaxSessionsPerUserAddr; the reserve still applies)
// and is not counted again (the connections on it stay open; the session
// is counted once while any of them is logged in). A bind of a session no
// connection is counted for is admitted as a login is.
func (l *Listener) admitBind(g *guard, b lifecycle.BindAdmission) codec.EvictionReason {
	return l.admitSession(g, b.UserID, sessKey{b.UserID, b.Client, b.Session})
}

// admitSession decides a login of user, or a bind of the logical session sess
// (zero for a login), and moves p in when it is admitted.
func (l *Listener) admitSession(g *guard, user uint32, sess sessKey) codec.EvictionReason {
	p := g.p
	l.mu.Lock()
	var ok bool
	if sess != (sessKey{}) && l.sessions[sess] > 0 && p.state != stateEnded {
		// Its session is counted already: only the reserve, which counts
		// connections, still applies, so that an account cannot bind its
		// way into the connections kept for other accounts' first sessions.
		o := &l.opts
		ok = p.state == stateIn || o.ReservedConns <= 0 || l.loggedIn < o.MaxConns-o.ReservedConns
	} else {
		_, ok = l.loginLimitLocked(p, user)
	}
	// A connection on probation took no accept token: it has none to get back.
	refund := ok && !p.everIn && !p.trial
	if ok {
		l.moveLocked(p, stateIn, user)
		if sess != (sessKey{}) {
			l.joinSessionLocked(p, sess)
		}
		if g.passed && g.name != 0 {
			l.learnNameLocked(g.name, user)
		}
	}
	l.mu.Unlock()
	checked, pat := g.settle(ok), g.pat
	switch {
	case !ok && checked && pat:
		return codec.ReasonInvalidToken
	case !ok && checked:
		return codec.ReasonInvalidCredentials
	case !ok:
		return quotaReason // a BIND_SESSION (answered 40), or ended by the Listener meanwhile
	case refund && l.accepts != nil:
		// A connection that logs in was no churn: its accept is given back.
		l.accepts.refund(p.key, 0, spent{}, time.Now()) // no account throttle on accepts
	}
	return 0
}

// loginLimitLocked decides whether p may log in as user: ok, or the limit
// that refuses it, or neither when the Listener has already ended p (its
// credentials were being checked as it was closed: it must not become a
// session now).
func (l *Listener) loginLimitLocked(p *peer, user uint32) (refused Limit, ok bool) {
	switch {
	case p.state == stateEnded:
		return 0, false
	case p.state == stateIn && p.user == user:
		return 0, true // a new login of the same account on the same connection
	}
	held := l.accounts[user]
	switch o := &l.opts; {
	case o.MaxSessionsPerUser > 0 && held >= o.MaxSessionsPerUser:
		return LimitAccount, false
	case o.MaxSessionsPerUserAddr > 0 && l.userAddr[userAddr{user, p.key}] >= o.MaxSessionsPerUserAddr:
		return LimitUserAddress, false
	case o.ReservedConns > 0 && held > 0 && l.loggedIn >= o.MaxConns-o.ReservedConns:
		return LimitReserve, false
	}
	return 0, true
}

// userAddr is an account at an address, for MaxSessionsPerUserAddr.
type userAddr struct {
	user uint32
	addr netip.Addr
}

// sessKey names a logical session (WIRE.md section 10.4) of a user.
type sessKey struct {
	user    uint32
	client  codec.Uint128
	session uint64
}

// boundTo records that p, which a login just logged in, is on the logical
// session sess, so that a bind of it on another connection is not counted
// as a new session (admitBind).
func (l *Listener) boundTo(p *peer, sess sessKey) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if p.state == stateIn && p.user == sess.user && p.sess == (sessKey{}) {
		l.joinSessionLocked(p, sess)
	}
}

// joinSessionLocked puts p, logged in and counted by moveLocked, on the
// logical session sess. Of the connections logged in on one session,
// exactly one is counted in accounts and userAddr; the others are shared
// and counted nowhere but loggedIn and sessions.
func (l *Listener) joinSessionLocked(p *peer, sess sessKey) {
	if l.sessions[sess] > 0 {
		l.leaveCountLocked(p.user, p.key)
		p.shared = true
	}
	l.sessions[sess]++
	p.sess = sess
}

// leaveAccountLocked uncounts p, which leaves stateIn, from its account's
// sessions and from its logical session. When p was the one counted for a
// session other connections are still logged in on, the count passes to
// one of them.
func (l *Listener) leaveAccountLocked(p *peer) {
	sess, shared := p.sess, p.shared
	p.sess, p.shared = sessKey{}, false
	if sess != (sessKey{}) {
		decrement(l.sessions, sess)
	}
	if shared {
		return
	}
	if sess != (sessKey{}) && l.sessions[sess] > 0 {
		for q := range l.conns {
			if q.state == stateIn && q.shared && q.sess == sess {
				q.shared = false
				decrement(l.userAddr, userAddr{p.user, p.key})
				l.userAddr[userAddr{q.user, q.key}]++
				return
			}
		}
	}
	l.leaveCountLocked(p.user, p.key)
}

// leaveCountLocked uncounts one session of user at addr.
func (l *Listener) leaveCountLocked(user uint32, addr netip.Addr) {
	decrement(l.accounts, user)
	decrement(l.userAddr, userAddr{user, addr})
}

// decrement takes one from m[k], deleting it at zero.
func decrement[K comparable](m map[K]int, k K) {
	if n := m[k] - 1; n > 0 {
		m[k] = n
	} else {
		delete(m, k)
	}
}

// trialSlots is how many connections an address over its accept budget
// may have on probation at once, and trialTimeout how long such a
// connection has to log in (LoginTimeout when shorter). A neighbour on a
// shared address (a NAT, one IPv6 /64) that spends the address's budget
// with connections it resets at once holds none of them, so a legitimate
// client there still gets its chance to log in; one that holds them open
// must dial trialSlots connections every trialTimeout, each a goroutine
// for at most that long.
const (
	trialSlots   = 32
	trialTimeout = 2 * time.Second
)

// A connection that breaks the protocol before it ever logged in
// (evicted for its request, an unusable frame size, the pre-VSR framing)
// costs its address a whole AcceptBurst of accept tokens and its
// probation for trialBan, as sshd's PerSourcePenalties do: probation is
// for a client that logs in, and a connection evicted at once costs the
// server a goroutine and its buffers for nothing, which a flood from a
// few addresses would otherwise repeat at the accept rate.
const trialBan = 10 * time.Second

// misbehaved reports whether a connection that ended so broke the
// protocol: a login refused (9 to 12, 14) did not.
func misbehaved(how Closing) bool {
	switch how.Reason {
	case codec.ReasonInvalidCredentials, codec.ReasonInvalidToken, codec.ReasonUserInactive,
		codec.ReasonSessionError, codec.ReasonIncompatibleProtocol:
		return false
	}
	return how.Cause == CauseEvicted || how.Cause == CauseFrameSize || how.Cause == CauseLegacyFraming
}

// banTrialLocked ends key's probation for trialBan.
func (l *Listener) banTrialLocked(key netip.Addr) {
	if _, known := l.noTrial[key]; !known && len(l.noTrial) >= maxThrottled {
		return // bounded: past it, probation stays on
	}
	l.noTrial[key] = time.Now().Add(trialBan)
}

// endTrialLocked takes p off probation: it logged in, or it is gone.
func (l *Listener) endTrialLocked(p *peer) {
	if p.trial {
		p.trial = false
		decrement(l.onTrial, p.key)
	}
}

// addrFullLocked reports whether key holds MaxConnsPerAddr connections.
func (l *Listener) addrFullLocked(key netip.Addr) bool {
	return l.opts.MaxConnsPerAddr > 0 && l.addrs[key] >= l.opts.MaxConnsPerAddr
}

// leaveAddrLocked uncounts p from its address's connections.
func (l *Listener) leaveAddrLocked(p *peer) {
	if n := l.addrs[p.key] - 1; n > 0 {
		l.addrs[p.key] = n
	} else {
		delete(l.addrs, p.key)
	}
}

// shed resets nc at once: no answer, and no TIME_WAIT left on the server
// for a connection that churns.
func shed(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = nc.Close()
}
