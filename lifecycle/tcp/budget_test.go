package tcp

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
	require.Eventually(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.waiters) == n
	}, wait, time.Millisecond)
}

// TestBudgetInOrder: a request waits while the one before it does, even if
// it would fit, and both are served in order once room is released.
func TestBudgetInOrder(t *testing.T) {
	b := newMemBudget(10)
	b.free = func() {}
	require.True(t, b.acquire(6, nil, nil, time.Time{}))
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
	require.True(t, <-first)
	require.True(t, <-second)
	require.EqualValues(t, 8, b.used)
	require.EqualValues(t, 8, b.peakUse())
}

// TestBudgetGiveUp: a wait ends at its deadline or when the connection is
// killed, taking nothing and leaving the line.
func TestBudgetGiveUp(t *testing.T) {
	b := newMemBudget(10)
	b.free = func() {}
	require.True(t, b.acquire(10, nil, nil, time.Time{}))
	require.False(t, b.acquire(1, nil, nil, time.Now().Add(aMoment)), "deadline")
	kill := make(chan struct{})
	got := acquireAsync(b, 1, kill)
	waiting(t, b, 1)
	close(kill)
	require.False(t, <-got, "killed")
	stop := make(chan struct{})
	close(stop)
	require.False(t, b.acquire(1, stop, nil, time.Time{}), "listener stopped")
	waiting(t, b, 0)
	require.EqualValues(t, 10, b.used)
	b.release(10)
	require.True(t, b.acquire(10, nil, nil, time.Time{}), "the whole budget is free again")
}

// TestBudgetShare: a frame larger than the budget takes the whole of it.
func TestBudgetShare(t *testing.T) {
	b := newMemBudget(100)
	require.EqualValues(t, 40, b.share(40))
	require.EqualValues(t, 100, b.share(1000))
}

// TestBudgetFreesWhenIdle: memory goes back to the system once nothing is
// held, and not while something is.
func TestBudgetFreesWhenIdle(t *testing.T) {
	b := newMemBudget(10)
	var frees atomic.Int64
	b.free = func() { frees.Add(1) }
	require.True(t, b.acquire(4, nil, nil, time.Time{}))
	require.True(t, b.acquire(4, nil, nil, time.Time{}))
	b.release(4)
	time.Sleep(aMoment)
	require.Zero(t, frees.Load(), "not while a large frame is held")
	b.release(4)
	require.Eventually(t, func() bool { return frees.Load() == 1 }, wait, time.Millisecond)
	// Bursts of releases coalesce: at most one hand-back per freeInterval.
	for range 5 {
		require.True(t, b.acquire(4, nil, nil, time.Time{}))
		b.release(4)
	}
	require.Eventually(t, func() bool { return frees.Load() == 2 }, wait, time.Millisecond)
	time.Sleep(aMoment)
	require.EqualValues(t, 2, frees.Load())
	require.Eventually(t, func() bool { return !b.freeing.Load() }, wait, time.Millisecond)
}
