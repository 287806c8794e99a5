package tcp

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Defaults of the failed-login throttle.
const (
	defaultLoginBurst = 20
	defaultLoginRate  = 5.0
)

// maxThrottled bounds how many addresses the throttle remembers. An address
// whose bucket is full again is forgotten first; past the bound, arbitrary
// ones are, which at worst gives their owners a fresh burst.
const maxThrottled = 1 << 16

// maxPad bounds the wait that stands in for a credential check on a
// throttled login, and spinPad is below what a timer sleeps accurately.
const (
	maxPad  = time.Second
	spinPad = 50 * time.Microsecond
)

// throttle is a token bucket of credential checks per remote address:
// each check takes a token before it runs and a successful one gives it
// back, so only failures spend the budget, and concurrent guesses from one
// address cannot all pass before the first failure is counted. Buckets
// start full (burst tokens) and refill at rate tokens per second.
type throttle struct {
	burst float64
	rate  float64

	mu      sync.Mutex
	buckets map[netip.Addr]bucket

	// checkNanos follows how long a credential check takes (an average
	// with weight 1/8 for the newest), so that a throttled login, which
	// checks nothing, can take as long as one that does.
	checkNanos atomic.Int64
}

type bucket struct {
	tokens float64
	at     time.Time
}

func newThrottle(burst int, perSecond float64) *throttle {
	return &throttle{burst: float64(burst), rate: perSecond, buckets: make(map[netip.Addr]bucket)}
}

// throttleKey is the address a remote is throttled by: its IP, with IPv6
// addresses cut to their /64, since one host commonly owns a whole /64.
func throttleKey(remote net.Addr) netip.Addr {
	var ap netip.AddrPort
	if tcp, ok := remote.(*net.TCPAddr); ok {
		ap = tcp.AddrPort()
	} else if remote != nil {
		ap, _ = netip.ParseAddrPort(remote.String())
	}
	ip := ap.Addr().Unmap()
	if ip.Is6() {
		if p, err := ip.Prefix(64); err == nil {
			ip = p.Addr()
		}
	}
	return ip
}

// refill returns key's bucket as of now.
func (t *throttle) refill(key netip.Addr, now time.Time) (bucket, bool) {
	b, ok := t.buckets[key]
	if !ok {
		return bucket{tokens: t.burst, at: now}, false
	}
	b.tokens = min(t.burst, b.tokens+now.Sub(b.at).Seconds()*t.rate)
	b.at = now
	return b, true
}

// take spends a token of key, reporting false (and spending nothing) when
// there is none left.
func (t *throttle) take(key netip.Addr, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, known := t.refill(key, now)
	if !known && len(t.buckets) >= maxThrottled {
		t.prune(now)
	}
	ok := b.tokens >= 1
	if ok {
		b.tokens--
	}
	t.buckets[key] = b
	return ok
}

// refund gives back the token of a check that succeeded.
func (t *throttle) refund(key netip.Addr, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b, known := t.refill(key, now); known {
		b.tokens = min(t.burst, b.tokens+1)
		t.buckets[key] = b
	}
}

// prune forgets full buckets, then arbitrary ones down to three quarters of
// the bound. Call with mu held.
func (t *throttle) prune(now time.Time) {
	for key := range t.buckets {
		if b, _ := t.refill(key, now); b.tokens >= t.burst {
			delete(t.buckets, key)
		}
	}
	for key := range t.buckets {
		if len(t.buckets) < maxThrottled*3/4 {
			return
		}
		delete(t.buckets, key)
	}
}

// observe records how long a credential check took.
func (t *throttle) observe(d time.Duration) {
	old := t.checkNanos.Load()
	if old == 0 {
		t.checkNanos.Store(int64(d))
		return
	}
	t.checkNanos.Store(old + (int64(d)-old)/8)
}

// pad waits about as long as a credential check takes.
func (t *throttle) pad() {
	d := min(time.Duration(t.checkNanos.Load()), maxPad)
	switch {
	case d <= 0:
	case d < spinPad:
		for start := time.Now(); time.Since(start) < d; {
		}
	default:
		time.Sleep(d)
	}
}

// throttledAuth is the Authenticator of one connection when the Listener
// throttles failed logins: over its address's budget it answers as a wrong
// password or token would be answered, after about the usual time, without
// asking the real Authenticator.
type throttledAuth struct {
	inner lifecycle.Authenticator
	t     *throttle
	key   netip.Addr
	// refused is set when a check was skipped; the connection's goroutine
	// reads and clears it after each frame.
	refused bool
}

// Password implements Authenticator.
func (a *throttledAuth) Password(username []byte, password codec.Secret) (uint32, error) {
	return a.check(lifecycle.ErrInvalidCredentials, func() (uint32, error) { return a.inner.Password(username, password) })
}

// Token implements Authenticator.
func (a *throttledAuth) Token(token codec.Secret) (uint32, error) {
	return a.check(lifecycle.ErrInvalidToken, func() (uint32, error) { return a.inner.Token(token) })
}

func (a *throttledAuth) check(refusal error, real func() (uint32, error)) (uint32, error) {
	if !a.t.take(a.key, time.Now()) {
		a.refused = true
		a.t.pad()
		return 0, refusal
	}
	start := time.Now()
	userID, err := real()
	a.t.observe(time.Since(start))
	if err == nil {
		a.t.refund(a.key, time.Now())
	}
	return userID, err
}
