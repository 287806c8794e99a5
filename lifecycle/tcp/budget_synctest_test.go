//go:build go1.25

package tcp

import (
	"math"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// The budget's waits and hand-backs and the throttle's pad are about time:
// these tests run in a synctest bubble, on a fake clock, so that they take
// no wall-clock time and a loaded machine cannot make them fail.

// wait is how long a test waits for something that must happen; the
// things that must not happen are given a short while only.
const (
	wait    = 10 * time.Second
	aMoment = 30 * time.Millisecond
)

func acquireAsync(b *memBudget, n int64, kill <-chan struct{}) chan bool {
	got := make(chan bool, 1)
	go func() { got <- b.acquire(n, nil, kill, time.Time{}) }()
	return got
}

// waiting waits until every goroutine of the bubble is blocked, and
// requires b to have n waiters in line then.
func waiting(t *testing.T, b *memBudget, n int) {
	t.Helper()
	synctest.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.waiters) != n {
		t.Fatalf("%d waiters in line, want %d", len(b.waiters), n)
	}
}

// TestBudgetInOrder: a request waits while the one before it does, even if
// it would fit, and both are served in order once room is released.
func TestBudgetInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemBudget(10)
		if !b.acquire(6, nil, nil, time.Time{}) {
			t.Fatalf("acquire(6) of an empty budget of 10 = false, want true")
		}
		first := acquireAsync(b, 6, nil)
		waiting(t, b, 1)
		second := acquireAsync(b, 2, nil)
		waiting(t, b, 2)
		select {
		case <-second:
			t.Fatal("a later, smaller request went ahead of the line")
		case <-time.After(aMoment):
		}
		b.release(6)
		if !<-first {
			t.Fatalf("the first waiter (6) was not served")
		}
		if !<-second {
			t.Fatalf("the second waiter (2) was not served")
		}
		if b.used != 8 {
			t.Fatalf("used = %d, want 8", b.used)
		}
		if p := b.peakUse(); p != 8 {
			t.Fatalf("peakUse() = %d, want 8", p)
		}
	})
}

// TestBudgetGiveUp: a wait ends at its deadline or when the connection is
// killed, taking nothing and leaving the line.
func TestBudgetGiveUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemBudget(10)
		if !b.acquire(10, nil, nil, time.Time{}) {
			t.Fatalf("acquire(10) of an empty budget of 10 = false, want true")
		}
		start := time.Now()
		if b.acquire(1, nil, nil, time.Now().Add(aMoment)) {
			t.Fatalf("deadline: acquire(1) of a full budget = true, want false")
		}
		if d := time.Since(start); d != aMoment {
			t.Fatalf("deadline: acquire(1) gave up after %v, want %v", d, aMoment)
		}
		kill := make(chan struct{})
		got := acquireAsync(b, 1, kill)
		waiting(t, b, 1)
		close(kill)
		if <-got {
			t.Fatalf("killed: acquire(1) = true, want false")
		}
		stop := make(chan struct{})
		close(stop)
		if b.acquire(1, stop, nil, time.Time{}) {
			t.Fatalf("listener stopped: acquire(1) = true, want false")
		}
		waiting(t, b, 0)
		if b.used != 10 {
			t.Fatalf("used = %d, want 10", b.used)
		}
		b.release(10)
		if !b.acquire(10, nil, nil, time.Time{}) {
			t.Fatalf("the whole budget is free again: acquire(10) = false, want true")
		}
	})
}

// TestBudgetFreesWhenIdle: the budget asks for memory to go back to the
// system once nothing is held, and not while something is; the releaser
// calls ReleaseMemory at most once per releaseInterval.
func TestBudgetFreesWhenIdle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newMemBudget(10)
		var frees atomic.Int64
		r := &releaser{free: func() { frees.Add(1) }}
		b.idle = r.request
		if !b.acquire(4, nil, nil, time.Time{}) {
			t.Fatalf("acquire(4) of an empty budget of 10 = false, want true")
		}
		if !b.acquire(4, nil, nil, time.Time{}) {
			t.Fatalf("acquire(4) with 4 of 10 used = false, want true")
		}
		b.release(4)
		time.Sleep(aMoment)
		if n := frees.Load(); n != 0 {
			t.Fatalf("not while a large frame is held: memory handed back %d times, want 0", n)
		}
		b.release(4)
		for deadline := time.Now().Add(wait); frees.Load() != 1; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("memory handed back %d times %v after the last release, want 1", frees.Load(), wait)
			}
		}
		// Bursts of releases coalesce: at most one hand-back per releaseInterval.
		for range 5 {
			if !b.acquire(4, nil, nil, time.Time{}) {
				t.Fatalf("acquire(4) of an idle budget = false, want true")
			}
			b.release(4)
		}
		for deadline := time.Now().Add(wait); frees.Load() != 2; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("memory handed back %d times %v after the burst, want 2", frees.Load(), wait)
			}
		}
		time.Sleep(aMoment)
		if n := frees.Load(); n != 2 {
			t.Fatalf("memory handed back %d times after the burst, want 2", n)
		}
		for deadline := time.Now().Add(wait); r.busy(); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("the freeing goroutine is still running %v after the last hand-back", wait)
			}
		}
	})
}

// TestThrottlePad: a throttled refusal takes about as long as the checks
// did (a lower bound only: a loaded machine may take longer).
func TestThrottlePad(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var th checkClock
		th.observe(20 * time.Millisecond)
		start := time.Now()
		th.pad()
		if d := time.Since(start); d < 20*time.Millisecond {
			t.Fatalf("pad took %v, want at least 20ms", d)
		}
		th.observe(10 * time.Microsecond) // an average: 20ms + (10µs-20ms)/8
		got, want, delta := th.nanos.Load(), 17500*time.Microsecond, 10*time.Microsecond
		if math.Abs(float64(want)-float64(got)) > float64(delta) {
			t.Fatalf("checkNanos = %v, want %v ± %v", time.Duration(got), want, delta)
		}
	})
}

// busy reports whether the releaser's goroutine is running.
func (r *releaser) busy() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.running
}
