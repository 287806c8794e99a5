package tcp

import (
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

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

// guard is one connection's lifecycle.Guard: it spends a token of the
// connection's address before each credential check, gives it back after
// a check that succeeded, and makes a refused login take about as long as a
// check does, so that the answer's timing does not say it was throttled.
type guard struct {
	t     *throttle
	key   netip.Addr
	start time.Time // when the check Allow let run began
}

// Allow implements lifecycle.Guard.
func (g *guard) Allow(lifecycle.Attempt) bool {
	if !g.t.take(g.key, time.Now()) {
		g.t.pad()
		return false
	}
	g.start = time.Now()
	return true
}

// Checked implements lifecycle.Guard.
func (g *guard) Checked(_ lifecycle.Attempt, ok bool) {
	g.t.observe(time.Since(g.start))
	if ok {
		g.t.refund(g.key, time.Now())
	}
}
