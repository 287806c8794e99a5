package tcp

import (
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// Defaults of the admission limits. The per-account, per-address and
// reserve shares default to an eighth of MaxConns, so that one account or
// one address can never hold the whole budget; the first two are at least
// minShare, so that a small budget (a test server's) does not refuse a
// client's second connection.
const (
	defaultShareDivisor = 8 // MaxSessionsPerUser, MaxConnsPerAddr, ReservedConns: MaxConns/8
	minShare            = 8
	defaultAcceptBurst  = 64
	defaultAcceptRate   = 32.0
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
	// LimitAccount: a login over MaxSessionsPerUser, answered with
	// Eviction 12 (SessionError) and closed.
	LimitAccount Limit = iota + 1
	// LimitReserve: a login of an account that already holds a session,
	// once only the ReservedConns are left; answered as LimitAccount.
	LimitReserve
	// LimitAddress: a connection from an address (IPv4, IPv6 /64) already
	// holding MaxConnsPerAddr; its first request is answered with
	// Eviction 12, then it is closed, like one refused at MaxConns.
	LimitAddress
	// LimitAcceptRate: a connection from an address over its AcceptBurst
	// and AcceptRate, reset at once: no goroutine, no answer, no Opened
	// or Closed call.
	LimitAcceptRate
)

// limitEnded stands, inside admitLogin, for a login on a connection the
// Listener has already closed; no Observer hears of it.
const limitEnded Limit = 255

var limitNames = [...]string{
	LimitAccount:    "account",
	LimitReserve:    "reserve",
	LimitAddress:    "address",
	LimitAcceptRate: "accept-rate",
}

// String is a short lower-case name ("account"), or "limit-N" for a value
// this package does not define.
func (l Limit) String() string {
	if int(l) < len(limitNames) && limitNames[l] != "" {
		return limitNames[l]
	}
	return "limit-" + strconv.Itoa(int(l))
}

// limits are the admission limits in force, resolved from ServeOptions:
// 0 means none.
type limits struct {
	perUser, perAddr, reserved int
}

// resolveLimits turns the options' shares into numbers: zero is the
// default fraction of MaxConns (at least floor), a negative value none.
func resolveLimits(o *ServeOptions) limits {
	share := func(v, floor int) int {
		switch {
		case v < 0:
			return 0
		case v == 0:
			return max(o.MaxConns/defaultShareDivisor, floor)
		}
		return v
	}
	return limits{perUser: share(o.MaxSessionsPerUser, minShare), perAddr: share(o.MaxConnsPerAddr, minShare),
		reserved: share(o.ReservedConns, 0)}
}

// acceptLimit is the accept-rate limit in force: a burst of 0 is none.
func acceptLimit(o *ServeOptions) (burst int, rate float64) {
	burst, rate = o.AcceptBurst, o.AcceptRate
	if burst == 0 {
		burst = defaultAcceptBurst
	}
	if rate <= 0 {
		rate = defaultAcceptRate
	}
	return max(burst, 0), rate
}

// admitLogin is the connection's lifecycle.ConnConfig.Admit: it decides
// whether p may log in as user and, if so, counts it as logged in then
// and there, before the login reply exists, so that the pre-login cap can
// never pick a connection whose reply is being written.
func (l *Listener) admitLogin(p *peer, user uint32) codec.EvictionReason {
	limit, first := l.bindLocked(p, user)
	switch {
	case limit == limitEnded:
		return quotaReason // the connection is gone: nothing to count
	case limit != 0:
		l.obs.limited(p.info, limit)
		return quotaReason
	case first && l.accepts != nil:
		// A connection that logs in was no churn: its accept is given back.
		l.accepts.refund(p.key, 0, spent{}, time.Now()) // no account throttle on accepts
	}
	return 0
}

// bindLocked takes l.mu and counts p as logged in as user, or returns the
// limit that refuses it; first reports the connection's first login.
func (l *Listener) bindLocked(p *peer, user uint32) (refused Limit, first bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case p.ended != 0:
		// Closed by the Listener while its credentials were checked: it
		// must not become a logged-in session now.
		return limitEnded, false
	case p.in && p.user == user:
		return 0, false // a new login of the same account on the same connection
	}
	held := l.accounts[user]
	switch lim := &l.limits; {
	case lim.perUser > 0 && held >= lim.perUser:
		return LimitAccount, false
	case lim.reserved > 0 && held > 0 && l.loggedIn >= l.opts.MaxConns-lim.reserved:
		return LimitReserve, false
	}
	first = !p.everIn
	if p.in {
		l.leaveAccountLocked(p)
	} else {
		l.loggedIn++
		if p.elem != nil {
			l.preLogin.Remove(p.elem)
			p.elem = nil
		}
	}
	p.in, p.everIn, p.user = true, true, user
	l.accounts[user]++
	return 0, first
}

// leaveAccountLocked uncounts p from its account's sessions.
func (l *Listener) leaveAccountLocked(p *peer) {
	if n := l.accounts[p.user] - 1; n > 0 {
		l.accounts[p.user] = n
	} else {
		delete(l.accounts, p.user)
	}
}

// addrFullLocked reports whether key holds MaxConnsPerAddr connections.
func (l *Listener) addrFullLocked(key netip.Addr) bool {
	return l.limits.perAddr > 0 && l.addrs[key] >= l.limits.perAddr
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
