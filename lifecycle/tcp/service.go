package tcp

import (
	"errors"
	"net"
	"time"
)

// Defaults of the per-connection service options.
const (
	// 32 KiB each way (64 KiB as the kernel counts it) holds over a
	// hundred answers in flight: a client that reads keeps its pipeline
	// full, and 200 peers that never read pin a few tens of MiB of
	// kernel memory instead of gigabytes.
	defaultSocketBuffer = 32 << 10
	// A few seconds without progress is far beyond any live reader on a
	// full 64 KiB buffer, and short enough that peers which do not read
	// are shed before they add up.
	defaultWriteStall = 3 * time.Second
	// 25,000 frames a second in all is about a sixth of what two cores
	// answer flat out: the rest is left to logins, the kernel and the
	// peers.
	defaultFrameRate = 25000.0
	// The per-account throttle spends as the per-address one does.
	defaultAccountLoginBurst = 20
	defaultAccountLoginRate  = 5.0
	// The SDKs replay a transient login for up to 30 s.
	defaultReplayTimeout = 30 * time.Second
	// Eight pipelining clients at once at 1 MiB each.
	defaultPipelineMemory = 8 << 20
)

// A connection whose answer waits growAfter for room borrows grownBuffer
// of PipelineMemory as its send buffer: enough for the answers of 20,000
// pings in flight with a client that reads only once its write is done.
const (
	growAfter   = 50 * time.Millisecond
	grownBuffer = 1 << 20
)

// causeGrow stands, inside write, for "the deadline to borrow a larger
// send buffer has passed"; it never ends a connection.
const causeGrow CloseCause = 254

// connServiceDefaults fills the zero per-connection service fields of o.
func (o *ServeOptions) connServiceDefaults() {
	if o.SocketReadBuffer == 0 {
		o.SocketReadBuffer = defaultSocketBuffer
	}
	if o.SocketWriteBuffer == 0 {
		o.SocketWriteBuffer = defaultSocketBuffer
	}
	if o.WriteStall <= 0 {
		o.WriteStall = defaultWriteStall
	}
	if o.FrameRate == 0 {
		o.FrameRate = defaultFrameRate
	}
	if o.AccountLoginBurst == 0 {
		o.AccountLoginBurst = defaultAccountLoginBurst
	}
	if o.AccountLoginRate <= 0 {
		o.AccountLoginRate = defaultAccountLoginRate
	}
	if o.PreLoginFrameMemory <= 0 {
		o.PreLoginFrameMemory = o.LargeFrameMemory / 4
	}
	o.PreLoginFrameMemory = min(o.PreLoginFrameMemory, o.LargeFrameMemory)
	if o.ReplayTimeout <= 0 {
		o.ReplayTimeout = defaultReplayTimeout
	}
	if o.PipelineMemory == 0 {
		o.PipelineMemory = defaultPipelineMemory
	}
}

// borrowBuffer raises the send buffer of c to grownBuffer if
// PipelineMemory has room, once in the connection's life.
func (c *connLoop) borrowBuffer() {
	l := c.l
	s, ok := c.p.nc.(interface{ SetWriteBuffer(int) error })
	if !ok || c.grown {
		return
	}
	if l.pipelineUsed.Add(grownBuffer) > int64(l.opts.PipelineMemory) {
		l.pipelineUsed.Add(-grownBuffer)
		return
	}
	c.grown = true
	_ = s.SetWriteBuffer(grownBuffer)
}

// returnBuffer gives back what borrowBuffer took.
func (c *connLoop) returnBuffer() {
	if c.grown {
		c.grown = false
		c.l.pipelineUsed.Add(-grownBuffer)
	}
}

// sizeSocket sets nc's kernel buffers, when it is a socket that has them.
func (l *Listener) sizeSocket(nc net.Conn) {
	if n := l.opts.SocketReadBuffer; n > 0 {
		if s, ok := nc.(interface{ SetReadBuffer(int) error }); ok {
			_ = s.SetReadBuffer(n)
		}
	}
	if n := l.opts.SocketWriteBuffer; n > 0 {
		if s, ok := nc.(interface{ SetWriteBuffer(int) error }); ok {
			_ = s.SetWriteBuffer(n)
		}
	}
}

// write sends out, if anything, within WriteTimeout, and closes the
// connection when WriteStall passes with no byte of it taken: with small
// socket buffers, a byte taken is a byte the peer has made room for.
func (c *connLoop) write(out []byte) CloseCause {
	opts := &c.l.opts
	now := time.Now()
	end := now.Add(opts.WriteTimeout)
	grow := !c.grown && opts.PipelineMemory > 0 && opts.SocketWriteBuffer > 0
	for len(out) > 0 {
		by, cause := end, CauseWriteTimeout
		if stall := now.Add(opts.WriteStall); stall.Before(by) {
			by, cause = stall, CauseNotReading
		}
		if g := now.Add(growAfter); grow && g.Before(by) {
			by, cause = g, causeGrow
		}
		_ = c.p.nc.SetWriteDeadline(by)
		n, err := c.p.nc.Write(out)
		if err == nil {
			return 0
		}
		out = out[n:]
		var ne net.Error
		timeout := errors.As(err, &ne) && ne.Timeout()
		switch {
		case timeout && cause == causeGrow:
			grow = false
			c.borrowBuffer()
		case n == 0 || cause != CauseNotReading || !timeout:
			return c.failed(err, cause)
		}
		if n > 0 {
			now = time.Now() // progress: another WriteStall from here
		}
	}
	return 0
}

// later returns the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
