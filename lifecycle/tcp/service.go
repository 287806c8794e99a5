package tcp

import (
	"errors"
	"net"
	"time"
)

// A connection whose answer waits growAfter for room borrows grownBuffer
// of PipelineMemory as its send buffer: enough for the answers of 20,000
// pings in flight with a client that reads only once its write is done.
const (
	growAfter   = 50 * time.Millisecond
	grownBuffer = 1 << 20
)

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
// socket buffers, a byte taken is a byte the peer has made room for. An
// answer that waits growAfter for room first borrows a larger send buffer
// from PipelineMemory, once.
func (c *connLoop) write(out []byte) CloseCause {
	opts := &c.l.opts
	now := time.Now()
	end := now.Add(opts.WriteTimeout)
	grow := !c.grown && opts.PipelineMemory > 0 && opts.SocketWriteBuffer > 0
	for len(out) > 0 {
		by, cause, growing := end, CauseWriteTimeout, false
		if stall := now.Add(opts.WriteStall); stall.Before(by) {
			by, cause = stall, CauseNotReading
		}
		if g := now.Add(growAfter); grow && g.Before(by) {
			by, growing = g, true
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
		case timeout && growing:
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
