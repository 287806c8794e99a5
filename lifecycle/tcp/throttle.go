package tcp

import (
	"hash/maphash"
	"net"
	"net/netip"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/lifecycle"
)

// maxThrottled bounds how many addresses the throttle remembers. An address
// whose bucket is full again is forgotten first; past the bound, arbitrary
// ones are, which at worst gives their owners a fresh burst.
const maxThrottled = 1 << 16

// failMemory is how long an address counts as having failed a check: a
// full bucket with no failure for that long may be forgotten.
const failMemory = 10 * time.Minute

// trustMemory is how long an address where an account's credentials
// passed stays trusted for that account: its checks are not held to the
// account's budget, so guessing against an account from elsewhere never
// locks its owner out where the owner has logged in before. Every other
// address, a fresh one included, is held to it: rotating addresses buys an
// attacker no guesses.
const trustMemory = 7 * 24 * time.Hour

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
	peak    int // the most buckets since the map was last made anew

	// accounts, when the per-account throttle is on (accRate > 0), are
	// buckets of failed checks per account, keyed by a hash of the
	// username (token logins share one), spent by every address but
	// those trusted for the account: where its credentials passed within
	// trustMemory.
	accBurst, accRate float64
	accounts          map[uint64]bucket
	trusted           map[trustKey]time.Time // when the account's credentials last passed there
	seed              maphash.Seed
}

// trustKey is an account at an address.
type trustKey struct {
	account uint64
	addr    netip.Addr
}

// checkClock follows how long a credential check takes (an average with
// weight 1/8 for the newest), so that a login refused without a check
// can take as long as one that is checked.
type checkClock struct{ nanos atomic.Int64 }

type bucket struct {
	tokens float64
	at     time.Time
	failed time.Time // an address's last failed check
}

func newThrottle(burst int, perSecond float64) *throttle {
	return &throttle{burst: float64(burst), rate: perSecond, buckets: make(map[netip.Addr]bucket)}
}

// limitAccounts turns the per-account throttle on (burst > 0).
func (t *throttle) limitAccounts(burst int, perSecond float64) {
	if burst <= 0 || perSecond <= 0 {
		return
	}
	t.accBurst, t.accRate = float64(burst), perSecond
	t.accounts = make(map[uint64]bucket)
	t.trusted = make(map[trustKey]time.Time)
	t.seed = maphash.MakeSeed()
}

// tokenAccount is the account key every token login shares: a token names
// no account before it is checked.
const tokenAccount = 0

// accountKey is the key of a's account.
func (t *throttle) accountKey(a lifecycle.Attempt) uint64 {
	if a.PAT {
		return tokenAccount
	}
	return maphash.Bytes(t.seed, a.Username) | 1
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

// refilled returns b as of now, b being new (zero) if !known.
func refilled(b bucket, known bool, burst, rate float64, now time.Time) bucket {
	if !known {
		return bucket{tokens: burst, at: now}
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.at).Seconds()*rate)
	b.at = now
	return b
}

// refill returns key's bucket as of now.
func (t *throttle) refill(key netip.Addr, now time.Time) (bucket, bool) {
	b, ok := t.buckets[key]
	return refilled(b, ok, t.burst, t.rate, now), ok
}

// refillAccount returns account's bucket as of now.
func (t *throttle) refillAccount(account uint64, now time.Time) (bucket, bool) {
	b, ok := t.accounts[account]
	return refilled(b, ok, t.accBurst, t.accRate, now), ok
}

// clean reports whether an address has not failed a check within
// failMemory.
func (b bucket) clean(now time.Time) bool {
	return b.failed.IsZero() || now.Sub(b.failed) >= failMemory
}

// spent is what take spent, for refund to give back after a success.
type spent struct {
	account bool // a token of the account was spent
}

// take spends a token of key, and one of account unless the address is
// trusted for it, reporting false (and spending nothing) when either has
// none left.
func (t *throttle) take(key netip.Addr, account uint64, now time.Time) (spent, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, known := t.refill(key, now)
	if !known && len(t.buckets) >= maxThrottled {
		t.prune(now)
	}
	if !known {
		t.peak = max(t.peak, len(t.buckets)+1)
	}
	if b.tokens < 1 {
		t.buckets[key] = b
		return spent{}, false
	}
	var s spent
	if t.accounts != nil && !t.trustedLocked(account, key, now) {
		a, knownAcc := t.refillAccount(account, now)
		if a.tokens < 1 {
			t.accounts[account] = a
			t.buckets[key] = b
			return spent{}, false
		}
		if !knownAcc && len(t.accounts) >= maxThrottled {
			t.pruneAccounts(now)
		}
		a.tokens--
		t.accounts[account] = a
		s.account = true
	}
	b.tokens--
	t.buckets[key] = b
	return s, true
}

// trustedLocked reports whether key is trusted for account. Call with mu
// held.
func (t *throttle) trustedLocked(account uint64, key netip.Addr, now time.Time) bool {
	at, ok := t.trusted[trustKey{account, key}]
	return ok && now.Sub(at) < trustMemory
}

// refund gives back the tokens of a check that succeeded, and trusts the
// address for the account from now on.
func (t *throttle) refund(key netip.Addr, account uint64, s spent, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b, known := t.refill(key, now); known {
		b.tokens = min(t.burst, b.tokens+1)
		t.buckets[key] = b
	}
	if t.accounts == nil {
		return
	}
	tk := trustKey{account, key}
	if _, known := t.trusted[tk]; !known && len(t.trusted) >= maxThrottled {
		t.pruneTrusted(now)
	}
	t.trusted[tk] = now
	if !s.account {
		return
	}
	if a, known := t.refillAccount(account, now); known {
		a.tokens = min(t.accBurst, a.tokens+1)
		t.accounts[account] = a
	}
}

// charge takes n tokens of key's bucket, below zero if need be: a penalty
// that its refill must make good before key is let through again. It
// returns the tokens left.
func (t *throttle) charge(key netip.Addr, n int, now time.Time) float64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, _ := t.refill(key, now)
	b.tokens -= float64(n)
	t.buckets[key] = b
	return b.tokens
}

// failed records a check that failed at now.
func (t *throttle) failed(key netip.Addr, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if b, known := t.buckets[key]; known {
		b.failed = now
		t.buckets[key] = b
	}
}

// pruneTrusted forgets trust older than trustMemory, then arbitrary
// trust down to three quarters of the bound. Call with mu held.
func (t *throttle) pruneTrusted(now time.Time) {
	for k, at := range t.trusted {
		if now.Sub(at) >= trustMemory || len(t.trusted) >= maxThrottled*3/4 {
			delete(t.trusted, k)
		}
	}
}

// prune forgets full buckets of clean addresses, then arbitrary ones down
// to three quarters of the bound. Call with mu held.
func (t *throttle) prune(now time.Time) {
	pruneBuckets(t.buckets, func(key netip.Addr) bool {
		b, _ := t.refill(key, now)
		return b.tokens >= t.burst && b.clean(now)
	})
}

// pruneAccounts is prune for the accounts. Call with mu held.
func (t *throttle) pruneAccounts(now time.Time) {
	pruneBuckets(t.accounts, func(key uint64) bool {
		a, _ := t.refillAccount(key, now)
		return a.tokens >= t.accBurst
	})
}

// sweepEvery is how often a Listener forgets the buckets that are full
// again (sweep), so that the memory of a storm from many addresses comes
// back once it is over, not only when the next storm reaches maxThrottled.
const sweepEvery = 5 * time.Second

// shrinkFrom is the least peak of buckets whose map is made anew once it
// has fallen to half of it: a Go map keeps its largest size after its
// entries are deleted.
const shrinkFrom = 1024

// sweep forgets the buckets full again of clean addresses, the full
// accounts and the trust past trustMemory, and makes the address map anew
// once it has fallen to half its peak. It reports whether it let go of a
// map, whose memory the caller may want handed back.
func (t *throttle) sweep(now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key := range t.buckets {
		if b, _ := t.refill(key, now); b.tokens >= t.burst && b.clean(now) {
			delete(t.buckets, key)
		}
	}
	if t.accounts != nil {
		for key := range t.accounts {
			if a, _ := t.refillAccount(key, now); a.tokens >= t.accBurst {
				delete(t.accounts, key)
			}
		}
		for k, at := range t.trusted {
			if now.Sub(at) >= trustMemory {
				delete(t.trusted, k)
			}
		}
	}
	if t.peak < shrinkFrom || len(t.buckets) > t.peak/2 {
		return false
	}
	fresh := make(map[netip.Addr]bucket, len(t.buckets))
	for k, b := range t.buckets {
		fresh[k] = b
	}
	t.buckets, t.peak = fresh, len(fresh)
	return true
}

// pruneBuckets deletes the buckets of m that forget says may go, then
// arbitrary ones until m is under three quarters of maxThrottled.
func pruneBuckets[K comparable](m map[K]bucket, forget func(K) bool) {
	for key := range m {
		if forget(key) {
			delete(m, key)
		}
	}
	for key := range m {
		if len(m) < maxThrottled*3/4 {
			return
		}
		delete(m, key)
	}
}

// observe records how long a credential check took.
func (c *checkClock) observe(d time.Duration) {
	old := c.nanos.Load()
	if old == 0 {
		c.nanos.Store(int64(d))
		return
	}
	c.nanos.Store(old + (int64(d)-old)/8)
}

// pad waits about as long as a credential check takes. A wait shorter
// than a timer sleeps accurately yields the processor until it has passed
// instead of spinning on it, so that a flood of refused logins leaves the
// processor to the connections that have work.
func (c *checkClock) pad() {
	d := min(time.Duration(c.nanos.Load()), maxPad)
	switch {
	case d <= 0:
	case d < spinPad:
		for start := time.Now(); time.Since(start) < d; {
			runtime.Gosched()
		}
	default:
		time.Sleep(d)
	}
}
