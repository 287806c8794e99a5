package tcp

import (
	"github.com/iggywire/iggywire/lifecycle"
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestThrottleBucket: a burst, then the refill rate, with successes given
// back and the bucket never above its burst.
func TestThrottleBucket(t *testing.T) {
	th := newThrottle(3, 2)
	key := netip.MustParseAddr("192.0.2.1")
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		if !take(th, key, t0) {
			t.Fatalf("burst token %d: take = false, want true", i)
		}
	}
	if take(th, key, t0) {
		t.Fatalf("the burst is spent: take = true, want false")
	}
	if take(th, key, t0.Add(400*time.Millisecond)) {
		t.Fatalf("0.8 tokens refilled: take = true, want false")
	}
	if !take(th, key, t0.Add(500*time.Millisecond)) {
		t.Fatalf("one token per 1/rate: take = false, want true")
	}
	if take(th, key, t0.Add(500*time.Millisecond)) {
		t.Fatalf("take after the refilled token = true, want false")
	}
	th.refund(key, 0, spent{}, t0.Add(500*time.Millisecond))
	if !take(th, key, t0.Add(500*time.Millisecond)) {
		t.Fatalf("a success gives its token back: take = false, want true")
	}
	later := t0.Add(time.Hour)
	for i := range 3 {
		if !take(th, key, later) {
			t.Fatalf("token %d an hour later: take = false, want true", i)
		}
	}
	if take(th, key, later) {
		t.Fatalf("refilled to the burst, not beyond: take = true, want false")
	}
	if !take(th, netip.MustParseAddr("192.0.2.2"), t0) {
		t.Fatalf("other addresses have their own: take = false, want true")
	}
}

func TestThrottleKey(t *testing.T) {
	for _, c := range []struct {
		addr net.Addr
		want string
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 2), Port: 9}, "127.0.0.2"},
		{&net.TCPAddr{IP: net.ParseIP("::ffff:10.1.2.3"), Port: 9}, "10.1.2.3"},
		{&net.TCPAddr{IP: net.ParseIP("2001:db8:1:2:3:4:5:6"), Port: 9}, "2001:db8:1:2::"},
		{&net.UDPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 9}, "192.0.2.7"},
		{nil, "invalid IP"},
	} {
		if got := throttleKey(c.addr).String(); got != c.want {
			t.Fatalf("throttleKey(%v) = %s, want %s", c.addr, got, c.want)
		}
	}
}

// TestThrottlePrune: the addresses remembered stay bounded.
func TestThrottlePrune(t *testing.T) {
	th := newThrottle(1, 1)
	t0 := time.Unix(1000, 0)
	for i := range maxThrottled + 10 {
		key := netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})
		if !take(th, key, t0) {
			t.Fatalf("take(%v) = false, want true", key)
		}
		if n := len(th.buckets); n > maxThrottled {
			t.Fatalf("%d addresses remembered, want at most %d", n, maxThrottled)
		}
	}
}

// TestGuard: the guard lets checks through while the address has budget,
// successes cost nothing, and once failures have spent it every check is
// refused, the right credentials' too, until the bucket refills.
func TestGuard(t *testing.T) {
	g := testGuard(ServeOptions{LoginBurst: 2, LoginRate: 0.001, AccountLoginBurst: -1})
	a := lifecycle.Attempt{Username: []byte("iggy")}
	for i := range 5 {
		if !g.Allow(a) {
			t.Fatalf("check %d after successes: Allow = false, want true", i)
		}
		g.Checked(a, true)
		g.settle(true)
	}
	for i := range 2 {
		if !g.Allow(a) {
			t.Fatalf("a failure spends one token: failure %d: Allow = false, want true", i)
		}
		g.Checked(a, false)
	}
	if g.Allow(a) {
		t.Fatalf("over budget no check runs: Allow = true, want false")
	}
	if g.Allow(lifecycle.Attempt{PAT: true}) {
		t.Fatalf("tokens share the address's budget: Allow(token) = true, want false")
	}
}

// testGuard is the guard of a connection from 192.0.2.1 to a Listener
// with opts that serves nothing.
func testGuard(opts ServeOptions) *guard {
	l := NewListener(nil, nil, opts)
	return &guard{l: l, p: &peer{key: netip.MustParseAddr("192.0.2.1"), kill: make(chan struct{})}}
}

// take is throttle.take with no account.
func take(th *throttle, key netip.Addr, now time.Time) bool {
	_, ok := th.take(key, 0, now)
	return ok
}

// TestThrottleAccounts: every address is held to the account's budget, a
// fresh one included (rotating addresses buys no guesses), but for an
// address where the account's credentials passed, which stays trusted for
// that account only, for trustMemory: an owner who logged in there before
// is not locked out by guessing from elsewhere.
func TestThrottleAccounts(t *testing.T) {
	th := newThrottle(100, 100)
	th.limitAccounts(2, 1)
	acc := th.accountKey(lifecycle.Attempt{Username: []byte("iggy")})
	other := th.accountKey(lifecycle.Attempt{Username: []byte("bob")})
	if other == acc {
		t.Fatalf("two accounts share a key")
	}
	if tok := th.accountKey(lifecycle.Attempt{PAT: true}); tok != tokenAccount {
		t.Fatalf("token logins' key = %d, want the shared %d", tok, tokenAccount)
	}
	t0 := time.Unix(1000, 0)
	addr := func(i byte) netip.Addr { return netip.AddrFrom4([4]byte{192, 0, 2, i}) }
	fail := func(key netip.Addr, account uint64, now time.Time) bool {
		t.Helper()
		_, ok := th.take(key, account, now)
		if ok {
			th.failed(key, now)
		}
		return ok
	}
	owner := addr(200)
	if s, ok := th.take(owner, acc, t0); !ok || !s.account {
		t.Fatalf("the owner's first check from a fresh address: allowed %t, charged %t; want both", ok, s.account)
	}
	th.refund(owner, acc, spent{account: true}, t0)
	if !fail(addr(0), acc, t0) || !fail(addr(1), acc, t0) {
		t.Fatalf("the account's burst of 2 is spent by two fresh addresses")
	}
	if fail(addr(2), acc, t0) {
		t.Fatalf("a fresh address got a free check past the account's spent budget")
	}
	s, ok := th.take(owner, acc, t0)
	if !ok || s.account {
		t.Fatalf("the owner's address during the attack: allowed %t, charged %t; want allowed, not charged", ok, s.account)
	}
	th.refund(owner, acc, s, t0)
	if _, ok := th.take(owner, other, t0); !ok {
		t.Fatalf("another account from the owner's address, its own budget full: refused")
	}
	th.failed(owner, t0)
	for range 2 {
		_ = fail(addr(3), other, t0)
	}
	if fail(owner, other, t0) {
		t.Fatalf("trust is per account: the owner's address is held to another account's spent budget")
	}
	if !fail(addr(3), acc, t0.Add(time.Second)) {
		t.Fatalf("the account refills at 1/s")
	}
	if s, ok := th.take(owner, acc, t0.Add(trustMemory)); !ok || !s.account {
		t.Fatalf("trustMemory after its last success an address is trusted no more: allowed %t, charged %t", ok, s.account)
	}
}

// TestThrottleSweep: after a storm from many addresses, a sweep once their
// buckets are full again forgets them and makes the map anew (its memory
// can go back); an address that failed a check is kept for failMemory.
func TestThrottleSweep(t *testing.T) {
	th := newThrottle(2, 1)
	t0 := time.Unix(1000, 0)
	for i := range 2 * shrinkFrom {
		take(th, netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), t0)
	}
	failed := netip.MustParseAddr("192.0.2.1")
	take(th, failed, t0)
	th.failed(failed, t0)
	if th.sweep(t0) {
		t.Fatalf("a sweep while every bucket is spent let go of the map")
	}
	if !th.sweep(t0.Add(2 * time.Second)) {
		t.Fatalf("a sweep once the storm's buckets are full again kept the map")
	}
	if n := len(th.buckets); n != 1 {
		t.Fatalf("%d buckets after the sweep, want 1 (the address that failed)", n)
	}
	th.sweep(t0.Add(failMemory))
	if n := len(th.buckets); n != 0 {
		t.Fatalf("%d buckets failMemory after the failure, want 0", n)
	}
}
