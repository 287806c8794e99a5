package tcp

import (
	"net"
	"net/netip"
	"strconv"
	"time"

	"github.com/iggywire/iggywire/codec"
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
	// and AcceptRate, reset at once: no goroutine, no answer.
	LimitAcceptRate
	// LimitAccount: a login over MaxSessionsPerUser, answered with
	// Eviction 12 (SessionError) and closed.
	LimitAccount
	// LimitReserve: a login of an account that already holds a session,
	// once only the ReservedConns are left; answered as LimitAccount.
	LimitReserve
)

var limitNames = [...]string{
	LimitConns:      "conns",
	LimitAddress:    "address",
	LimitAcceptRate: "accept-rate",
	LimitAccount:    "account",
	LimitReserve:    "reserve",
}

// String is a short lower-case name ("account"), or "limit-N" for a value
// this package does not define.
func (l Limit) String() string {
	if int(l) < len(limitNames) && limitNames[l] != "" {
		return limitNames[l]
	}
	return "limit-" + strconv.Itoa(int(l))
}

// admitLogin is the connection's lifecycle.ConnConfig.Admit: Handle asks
// it once the login's credentials have passed and before anything is
// bound, so the login is counted (or refused) before its reply exists and
// the pre-login cap can never pick a connection whose login reply is being
// written. The move itself is Listener.moveLocked's, as every other change
// of the connection's state.
func (l *Listener) admitLogin(p *peer, user uint32) codec.EvictionReason {
	l.mu.Lock()
	limit, ok := l.loginLimitLocked(p, user)
	first := ok && !p.everIn
	if ok {
		l.moveLocked(p, stateIn, user)
	}
	l.mu.Unlock()
	switch {
	case limit != 0:
		l.obs.limited(p.info, limit)
		return quotaReason
	case !ok:
		return quotaReason // ended by the Listener meanwhile: nothing to count or report
	case first && l.accepts != nil:
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
	case o.ReservedConns > 0 && held > 0 && l.loggedIn >= o.MaxConns-o.ReservedConns:
		return LimitReserve, false
	}
	return 0, true
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
