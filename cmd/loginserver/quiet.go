package main

import (
	"context"
	"sync/atomic"
	"time"
)

// quietRelease hands memory back to the operating system once a burst of
// connections has ended. A flood of short connections (each closed at its
// first frame, or reset at accept) keeps few open at once, so the
// Listener's own hand-back, which waits for the open connections to fall,
// never runs; what their accepts allocated is garbage the collector keeps
// until its next cycle, which an idle server does not reach for minutes
// (at -gc-percent 200 that held the PING flood's server at twice its
// baseline memory ten seconds after it).
type quietRelease struct {
	accepted atomic.Int64 // Opened and Limited reports: a connection, or a refusal of one (at accept, or of a login)
	free     func()
}

// A period of quietEvery with at least burstConns connections accepted is
// a burst; one with fewer than quietConns after it, its end.
const (
	quietEvery = 5 * time.Second
	burstConns = 1024
	quietConns = 64
)

// seen counts one accepted connection.
func (q *quietRelease) seen() { q.accepted.Add(1) }

// quietStep decides one period: busy says whether the period before was a
// burst, n is this period's accepts. It returns whether to hand memory
// back now, and whether this period was a burst.
func quietStep(busy bool, n int64) (release, burst bool) {
	return busy && n < quietConns, n >= burstConns
}

// run decides every quietEvery until ctx is done.
func (q *quietRelease) run(ctx context.Context) {
	t := time.NewTicker(quietEvery)
	defer t.Stop()
	var last int64
	busy := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			n := q.accepted.Load()
			var release bool
			release, busy = quietStep(busy, n-last)
			last = n
			if release {
				q.free()
			}
		}
	}
}
