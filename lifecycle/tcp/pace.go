package tcp

import (
	"sync/atomic"
	"time"
)

// Pacing: the busy connections of a Listener are served at most FrameRate
// frames a second in all, in equal shares. A connection is busy in an
// epoch once it has read paceBusy frames in it or has had to wait; one
// that sends less (a login, a heartbeat) is neither counted nor held back
// by the others.
// Each connection has a token bucket of frames refilled at its share
// (FrameRate over the busy connections of this epoch or the last, the
// more), holding at most a tenth of a second of it, so that a lone client
// pipelining runs at the whole rate and fifty flooding ones get a
// fiftieth each while a newcomer's login still finds the machine free.
const (
	// paceEpoch is the window over which connections count as active.
	paceEpoch = 100 * time.Millisecond
	// paceBurst is how much of its share a connection may have in hand.
	paceBurst = 100 * time.Millisecond
	// paceQuantum is the least a paced connection sleeps for: it waits for
	// that much of its share at once, so that a connection held to it
	// costs a timer every few milliseconds, not one per frame.
	paceQuantum = 10 * time.Millisecond
	// paceStart is what a new connection has in hand: a login and a few
	// requests, not a tenth of a second of the whole rate.
	paceStart = 16
	// paceBusy is how many frames in an epoch make a connection busy:
	// 160 a second, far above any heartbeat.
	paceBusy = 16
)

// activity counts the busy connections of the current epoch and of the
// one before, each as epoch<<24 | count in one word.
type activity struct {
	cur, last atomic.Uint64
}

const activeBits = 24

// mark counts one connection active in epoch e (once per epoch, which
// the caller ensures) and returns how many are active: the more of this
// epoch's count so far and the last epoch's.
func (a *activity) mark(e uint64) uint64 {
	for {
		old := a.cur.Load()
		next := e<<activeBits | 1
		if oe := old >> activeBits; oe == e {
			next = old + 1
		} else if oe > e {
			return a.active(e) // a later epoch began meanwhile
		}
		if a.cur.CompareAndSwap(old, next) {
			if old>>activeBits != e {
				a.last.Store(old)
			}
			return a.active(e)
		}
	}
}

// active returns the connections active as of epoch e.
func (a *activity) active(e uint64) uint64 {
	mask := uint64(1)<<activeBits - 1
	n := uint64(0)
	// Until the first mark of epoch e, cur still holds the last epoch's.
	if cur := a.cur.Load(); cur>>activeBits == e || cur>>activeBits+1 == e {
		n = cur & mask
	}
	if last := a.last.Load(); last>>activeBits+1 == e {
		n = max(n, last&mask)
	}
	return max(n, 1)
}

// pacer is one connection's token bucket of frames.
type pacer struct {
	act    *activity // nil: pacing is off
	rate   float64   // the Listener's FrameRate
	tokens float64
	at     time.Time
	epoch  uint64 // the epoch of frames
	frames int    // read in it
	busy   bool   // counted in it
	share  float64
	timer  *time.Timer // made on the first wait
}

func newPacer(act *activity, rate float64) pacer {
	if act == nil || rate <= 0 {
		return pacer{}
	}
	return pacer{act: act, rate: rate, tokens: paceStart, at: time.Now()}
}

// take spends a token as of now, or returns how long to wait before
// trying again.
func (p *pacer) take(now time.Time) time.Duration {
	if p.act == nil {
		return 0
	}
	e := uint64(now.UnixNano()) / uint64(paceEpoch)
	if e != p.epoch {
		p.epoch, p.frames, p.busy = e, 0, false
	}
	if p.frames++; p.frames >= paceBusy {
		p.markBusy(e)
	}
	p.share = p.rate / float64(p.act.active(e))
	burst := max(1, p.share*paceBurst.Seconds())
	p.tokens = min(burst, p.tokens+max(now.Sub(p.at), 0).Seconds()*p.share)
	p.at = now
	if p.tokens >= 1 {
		p.tokens--
		return 0
	}
	p.markBusy(e)
	want := min(max(1, p.share*paceQuantum.Seconds()), burst)
	// Never 0, which would let the frame through unpaid.
	return max(time.Duration((want-p.tokens)/p.share*float64(time.Second)), time.Microsecond)
}

// markBusy counts the connection busy in epoch e, once.
func (p *pacer) markBusy(e uint64) {
	if !p.busy {
		p.busy = true
		p.act.mark(e)
	}
}

// pace waits until the connection may read its next frame. It returns
// false when the Listener ends the connection meanwhile.
func (c *connLoop) pace() bool {
	p := &c.pacer
	for {
		wait := p.take(time.Now())
		if wait <= 0 {
			return true
		}
		if p.timer == nil {
			p.timer = time.NewTimer(wait)
		} else {
			p.timer.Reset(wait)
		}
		select {
		case <-p.timer.C:
		case <-c.p.kill:
			p.timer.Stop()
			return false
		case <-c.l.done:
			p.timer.Stop()
			return false
		}
	}
}
