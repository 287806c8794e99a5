package tcp

import "time"

// After a crowd of connections has left, the Go runtime keeps the memory
// their goroutine stacks and buffers took for minutes before it returns it
// to the operating system. Once the open connections have fallen by at
// least dropConns and to at most half of their peak since the last
// release, the Listener calls ReleaseMemory, if set, dropSettle after the
// last connection of the fall has gone, so that a crowd leaving over
// seconds costs one call, not one per connection. 256 connections are
// the soak's lock-out attacks' size (the logout churn peaks at 300 to
// 550 open): at 1,024 the server held twice its baseline memory after
// them, once loginserver's collector ran at 200 (-gc-percent).
const (
	dropConns  = 256
	dropSettle = time.Second
)

// dropWatch follows the open connections' peak. Guarded by Listener.mu.
type dropWatch struct {
	peak  int
	timer *time.Timer
}

// grewLocked records that n connections are open after an accept.
func (w *dropWatch) grewLocked(n int) { w.peak = max(w.peak, n) }

// shrankLocked records that n connections are open after a close, and
// (re)starts the wait before a hand-back once the fall is large enough.
func (l *Listener) shrankLocked(n int) {
	w := &l.drop
	if l.release == nil || w.peak-n < dropConns || n > w.peak/2 {
		return
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(dropSettle, l.freeAfterDrop)
		return
	}
	w.timer.Reset(dropSettle)
}

// freeAfterDrop asks for a release and starts a new peak from what is
// open.
func (l *Listener) freeAfterDrop() {
	l.mu.Lock()
	l.drop.peak = len(l.conns)
	l.mu.Unlock()
	l.release.request()
}

// stopLocked cancels a hand-back not yet made.
func (w *dropWatch) stopLocked() {
	if w.timer != nil {
		w.timer.Stop()
	}
}
