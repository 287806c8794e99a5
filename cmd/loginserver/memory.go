package main

import (
	"context"
	"time"
)

// The Go runtime gives freed memory back to the system slowly, so after a
// crowd of connections leaves (8,192 goroutines, their buffers) the RSS
// would stay near its peak for minutes. releaseEvery checks the open
// connections; when they fell by at least crowdGone and to half of their
// peak since the last release, it hands the freed memory back at once
// (debug.FreeOSMemory: a collection, a few milliseconds for this heap).
const (
	releaseEvery = 2 * time.Second
	crowdGone    = 512
)

// memoryReleaser watches the open connections and releases memory after
// a crowd left.
type memoryReleaser struct {
	conns   func() int // connections open now
	release func()     // debug.FreeOSMemory
	peak    int
}

// check is one look: it releases when a crowd left since the last one.
func (m *memoryReleaser) check() bool {
	n := m.conns()
	m.peak = max(m.peak, n)
	if m.peak-n < crowdGone || n > m.peak/2 {
		return false
	}
	m.release()
	m.peak = n
	return true
}

// run checks every releaseEvery until ctx is done.
func (m *memoryReleaser) run(ctx context.Context) {
	t := time.NewTicker(releaseEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			m.check()
		}
	}
}
