package tcp

import (
	"sync"
	"time"
)

// memBudget is a server-wide budget of bytes for large frames: a weighted
// semaphore served in arrival order, so that a large frame waits for room
// instead of being dropped, and no small request can starve a large one.
// When the last large buffer is released it calls idle (the Listener's
// ReleaseMemory, if set): the memory freed is the most a server holds for
// frames.
type memBudget struct {
	capacity int64

	mu      sync.Mutex
	used    int64
	peak    int64 // the most ever in use at once, for tests
	waiters []*budgetWaiter

	// preLogin, on the server-wide budget, is the part of it frames of
	// connections not logged in may hold: such a frame takes its share of
	// both, the smaller first. Nil on a budget of its own.
	preLogin *memBudget

	idle func() // called when used falls to zero; nil: none
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed when granted
}

func newMemBudget(capacity int64) *memBudget { return &memBudget{capacity: capacity} }

// newFrameBudget is the Listener's budget: total bytes of large frames,
// of which preLogin at most for connections not logged in. Only the whole
// has an idle hook: the part is idle whenever the whole is.
func newFrameBudget(total, preLogin int64) *memBudget {
	b := newMemBudget(total)
	b.preLogin = newMemBudget(preLogin)
	return b
}

// acquireFor takes n bytes of b and, when pre is not zero, pre bytes of
// the pre-login part first, as acquire does; it reports whether it got
// both (and holds neither when not).
func (b *memBudget) acquireFor(n, pre int64, stop, kill <-chan struct{}, deadline time.Time) bool {
	if pre == 0 {
		return b.acquire(n, stop, kill, deadline)
	}
	if !b.preLogin.acquire(pre, stop, kill, deadline) {
		return false
	}
	if !b.acquire(n, stop, kill, deadline) {
		b.preLogin.release(pre)
		return false
	}
	return true
}

// releaseFor gives back what acquireFor took.
func (b *memBudget) releaseFor(n, pre int64) {
	if pre != 0 {
		b.preLogin.release(pre)
	}
	b.release(n)
}

// share is what a frame of size bytes takes: its size, but never more than
// the whole budget, so a frame larger than the budget still gets in alone.
func (b *memBudget) share(size int) int64 { return min(int64(size), b.capacity) }

// acquire takes n bytes, waiting in line until they are free, until stop
// or kill is closed, or until deadline (zero: none). It reports whether it
// got them.
func (b *memBudget) acquire(n int64, stop, kill <-chan struct{}, deadline time.Time) bool {
	b.mu.Lock()
	if len(b.waiters) == 0 && b.used+n <= b.capacity {
		b.take(n)
		b.mu.Unlock()
		return true
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()

	var expired <-chan time.Time
	if !deadline.IsZero() {
		t := time.NewTimer(time.Until(deadline))
		defer t.Stop()
		expired = t.C
	}
	select {
	case <-w.ready:
		return true
	case <-stop:
	case <-kill:
	case <-expired:
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted while giving up: give it back
		b.used -= n
	default:
		b.remove(w)
	}
	b.grant()
	return false
}

// release gives back n bytes taken by acquire. The caller has already let
// go of the buffer they paid for.
func (b *memBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.grant()
	idle := b.used == 0
	b.mu.Unlock()
	if idle && b.idle != nil {
		b.idle()
	}
}

func (b *memBudget) take(n int64) {
	b.used += n
	b.peak = max(b.peak, b.used)
}

// grant hands room to waiters in arrival order; the first one that does
// not fit stops the line. Call with mu held.
func (b *memBudget) grant() {
	for len(b.waiters) > 0 && b.used+b.waiters[0].n <= b.capacity {
		w := b.waiters[0]
		b.waiters[0] = nil
		b.waiters = b.waiters[1:]
		b.take(w.n)
		close(w.ready)
	}
}

func (b *memBudget) remove(w *budgetWaiter) {
	for i, x := range b.waiters {
		if x == w {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			return
		}
	}
}

// peakUse returns the most bytes ever in use at once.
func (b *memBudget) peakUse() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}
