package tcp

import (
	"sync"
	"time"
)

// releaseInterval is the least time between two calls of ReleaseMemory,
// so that a stream of large frames or of leaving crowds cannot make a
// server spend its time in forced collections.
const releaseInterval = 250 * time.Millisecond

// releaser calls ServeOptions.ReleaseMemory on a goroutine of its own, at
// most once per releaseInterval; a request that arrives while it waits or
// runs makes it run once more, so the last request is never missed.
type releaser struct {
	free func()

	mu      sync.Mutex
	pending bool
	running bool
	stopped bool
	last    time.Time
}

// request asks for one call of free, soon.
func (r *releaser) request() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return
	}
	r.pending = true
	if !r.running {
		r.running = true
		go r.loop()
	}
}

// stop drops requests not yet served; a call under way finishes.
func (r *releaser) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped, r.pending = true, false
}

func (r *releaser) loop() {
	for {
		r.mu.Lock()
		if !r.pending {
			r.running = false
			r.mu.Unlock()
			return
		}
		wait := releaseInterval - time.Since(r.last)
		r.mu.Unlock()
		if wait > 0 {
			time.Sleep(wait) // requests made meanwhile are served by this call
		}
		r.mu.Lock()
		run := r.pending
		r.pending = false // requests made from here on are served by another round
		r.mu.Unlock()
		if run {
			r.free()
		}
		r.mu.Lock()
		r.last = time.Now()
		r.mu.Unlock()
	}
}
