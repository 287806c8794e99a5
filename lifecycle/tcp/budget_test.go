package tcp

import (
	"sync/atomic"
	"testing"
	"time"
)

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

// waiting waits until b has n waiters in line.
func waiting(t *testing.T, b *memBudget, n int) {
	t.Helper()
	waiters := func() int {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.waiters)
	}
	for deadline := time.Now().Add(wait); waiters() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d waiters in line after %v, want %d", waiters(), wait, n)
		}
	}
}

// TestBudgetInOrder: a request waits while the one before it does, even if
// it would fit, and both are served in order once room is released.
func TestBudgetInOrder(t *testing.T) {
	b := newMemBudget(10)
	b.free = func() {}
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
}

// TestBudgetGiveUp: a wait ends at its deadline or when the connection is
// killed, taking nothing and leaving the line.
func TestBudgetGiveUp(t *testing.T) {
	b := newMemBudget(10)
	b.free = func() {}
	if !b.acquire(10, nil, nil, time.Time{}) {
		t.Fatalf("acquire(10) of an empty budget of 10 = false, want true")
	}
	if b.acquire(1, nil, nil, time.Now().Add(aMoment)) {
		t.Fatalf("deadline: acquire(1) of a full budget = true, want false")
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
}

// TestBudgetShare: a frame larger than the budget takes the whole of it.
func TestBudgetShare(t *testing.T) {
	b := newMemBudget(100)
	if s := b.share(40); s != 40 {
		t.Fatalf("share(40) = %d, want 40", s)
	}
	if s := b.share(1000); s != 100 {
		t.Fatalf("share(1000) = %d, want 100", s)
	}
}

// TestBudgetFreesWhenIdle: memory goes back to the system once nothing is
// held, and not while something is.
func TestBudgetFreesWhenIdle(t *testing.T) {
	b := newMemBudget(10)
	var frees atomic.Int64
	b.free = func() { frees.Add(1) }
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
	// Bursts of releases coalesce: at most one hand-back per freeInterval.
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
	for deadline := time.Now().Add(wait); b.freeing.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the freeing goroutine is still running %v after the last hand-back", wait)
		}
	}
}
