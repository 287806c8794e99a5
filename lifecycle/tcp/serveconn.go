package tcp

import (
	"errors"
	"io"
	"net"
	"runtime"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Buffer sizes of a served connection: what its read and answer buffers
// start with, and the most they keep between frames. A connection that
// pipelines reads up to keepBuf at once; a larger buffer, grown for one
// frame, is dropped once the frame is answered, so a connection that sent
// one big frame does not hold its memory for life.
const (
	startIn  = 1024
	startOut = 512
	keepBuf  = 4 << 10
)

// largeFrame is the size above which a frame is read into a buffer of its
// own, paid for from the Listener's LargeFrameMemory, and let go of as soon
// as it is answered. Frames up to it are read into the connection's own
// buffer.
const largeFrame = 64 << 10

// turnFrames is a connection's turn: after that many frames in a row that
// were already in its buffer (a peer that pipelines, or floods), it writes
// their answers and yields the processor, so that the connections served
// by the same processor, and a newcomer's login, take their turn
// before it goes on. Nothing else paces a connection: a lone client gets
// the whole machine, many share it a turn each. A turn of 16 pings is a
// few microseconds.
const turnFrames = 16

// contendedWait is how long a yield may wait for a processor before the
// machine counts as contended, and maxGiveWay the longest a connection then
// gives way.
const (
	contendedWait = time.Millisecond
	maxGiveWay    = 20 * time.Millisecond
)

// Before login, only a login (Register) and a BIND_SESSION carry a body
// the server reads; any other request is answered from its header alone
// (a ping's Reply, status 40, Eviction 1 or 15: WIRE.md section 7). Such a
// frame's body is read only up to idleBody bytes: a larger one is
// answered with Eviction 6 (InvalidRequestBodySize) from the header, and
// the connection closed without reading it. And a connection not logged
// in reads at most preLoginRate bytes a second after a burst of
// MaxFrame (one login of any size the server serves), so that peers
// without credentials cannot make the server read, buffer and collect
// at the rate they can send.
const (
	idleBody     = codec.HeaderSize
	preLoginRate = 64 << 10
)

// lingerTimeout bounds how long a connection closed after an over-cap
// frame is drained, so that the eviction is read by the peer instead of
// being lost to a reset caused by unread bytes.
const lingerTimeout = time.Second

// connLoop is the frame loop of one connection.
type connLoop struct {
	l    *Listener
	p    *peer
	conn *lifecycle.Conn

	// in holds what has arrived and is not served yet in in[r:]; a frame
	// up to largeFrame is served from it where it lies.
	in []byte
	r  int
	// out holds the answers not written yet: they go out before the
	// connection waits for its peer, at the end of a turn, or when they
	// reach keepBuf.
	out []byte

	readBy    time.Time // the read deadline in force (zero: none)
	frameBy   time.Time // the current frame's deadline, from its first byte; zero before it
	frameWhy  CloseCause
	loginBy   time.Time // when a connection not logged in is closed
	preBytes  float64   // what is left of the pre-login read budget (preLoginRate), as of preAt
	preAt     time.Time
	spoke     bool        // a byte has arrived (Listener.spoke was told)
	loggedOut bool        // the last change of login state was a logout
	turn      int         // frames served in a row without waiting for the peer
	pause     *time.Timer // of yield, made on its first use
	full      bool        // the last read filled the buffer: the peer has more queued
	grown     bool        // holds grownBuffer of PipelineMemory
	how       Closing
}

// frame is one frame read: its bytes, and for a large one the budget it
// holds.
type frame struct {
	b             []byte
	overCap       bool  // above MaxFrame, or a pre-login body over its bound: b is the header alone
	noDrain       bool  // overCap before login: the body is not read at all
	share, pre    int64 // of the large-frame budget, and of its pre-login part
	large, inLine bool  // b is a buffer of its own; b lies in the read buffer
}

// serveConn serves p until it ends.
func (l *Listener) serveConn(p *peer) {
	g := &guard{l: l, p: p}
	cfg := lifecycle.ConnConfig{Guard: g,
		Admit:     func(user uint32) codec.EvictionReason { return l.admitLogin(g, user) },
		AdmitBind: func(b lifecycle.BindAdmission) codec.EvictionReason { return l.admitBind(g, b) }}
	wait := l.opts.LoginTimeout
	if p.trial {
		wait = min(wait, trialTimeout)
	}
	c := &connLoop{l: l, p: p, conn: l.srv.NewConnWith(cfg),
		in: make([]byte, 0, startIn), out: make([]byte, 0, startOut),
		loginBy: time.Now().Add(wait), preBytes: float64(l.opts.MaxFrame), preAt: time.Now()}
	l.sizeSocket(p.nc)
	l.obs.opened(p.info)
	c.how.Cause = c.run()
	c.returnBuffer()
	// What arrived and was not served may hold a login's credentials.
	clear(c.in[:cap(c.in)])
	c.how.LoggedIn = c.conn.State().LoggedIn
	l.untrack(p, c.how)
}

// run reads and answers frames until the connection must end, and says why.
func (c *connLoop) run() CloseCause {
	for {
		f, cause := c.next()
		if cause != 0 {
			return cause
		}
		c.how.Frames++
		cause = c.serve(f)
		if cause == 0 && len(c.out) >= keepBuf {
			cause = c.flush()
		}
		if cause != 0 {
			if len(c.out) > 0 {
				_ = c.flush() // an eviction is written before the close
			}
			return cause
		}
	}
}

// next reads the next frame: its header first, from which it decides what
// the frame may cost, then the body its size announces. A header whose
// size is unusable is returned alone, for Handle to refuse; one above
// MaxFrame alone, as overCap; a body above largeFrame is read into a buffer
// of its own once the large-frame budget has room for it.
func (c *connLoop) next() (frame, CloseCause) {
	c.frameBy = time.Time{}
	if c.buffered() == 0 {
		c.in, c.r = c.in[:0], 0
	}
	if c.buffered() > 0 || c.full {
		// The peer sent this frame before it had the last one's answer (or
		// the last read left more in the socket): it pipelines, and has
		// had its turn once turnFrames come so in a row.
		if c.turn++; c.turn >= turnFrames {
			if cause := c.yield(); cause != 0 {
				return frame{}, cause
			}
		}
	} else {
		c.turn = 0
	}
	if !c.conn.State().LoggedIn {
		// Not logged in, a frame's first bytes are looked at for the
		// pre-VSR framing, which sends fewer than a header's bytes.
		if cause := c.await(legacyPrefix); cause != 0 {
			return frame{}, cause
		}
		if isLegacyFrame(c.in[c.r : c.r+legacyPrefix]) {
			return frame{}, CauseLegacyFraming
		}
	}
	if cause := c.await(codec.HeaderSize); cause != 0 {
		return frame{}, cause
	}
	header := c.in[c.r : c.r+codec.HeaderSize]
	size, err := codec.FrameSize(header)
	switch {
	case err != nil:
		c.r += codec.HeaderSize
		return frame{b: header}, 0
	case size-codec.HeaderSize > idleBody && !c.conn.State().LoggedIn && !carriesCredentials(header):
		c.r += codec.HeaderSize
		return frame{b: header, overCap: true, noDrain: true}, 0
	case size > c.l.opts.MaxFrame:
		c.r += codec.HeaderSize
		return frame{b: header, overCap: true}, 0
	case size > largeFrame:
		return c.readLarge(size)
	}
	if cause := c.await(size); cause != 0 {
		return frame{}, cause
	}
	f := frame{b: c.in[c.r : c.r+size], inLine: true}
	c.r += size
	return f, 0
}

// carriesCredentials reports whether a request header is one whose body a
// server reads before login: a login (Register) or a BIND_SESSION. Any
// other header, a damaged one included, is not.
func carriesCredentials(header []byte) bool {
	h, err := codec.DecodeRequestHeader(header)
	return err == nil && (h.Operation == codec.OperationRegister ||
		h.Operation == codec.OperationNonReplicated && h.Code == codec.CodeBindSession)
}

// buffered is how many bytes have arrived and are not served yet.
func (c *connLoop) buffered() int { return len(c.in) - c.r }

// await reads until n bytes of the frame being read are in the buffer. It
// writes the answers pending first: the peer may be waiting for them
// before it sends more.
func (c *connLoop) await(n int) CloseCause {
	for c.buffered() < n {
		if cause := c.flush(); cause != 0 {
			return cause
		}
		c.room(n)
		loggedIn := c.conn.State().LoggedIn
		if !loggedIn {
			if cause := c.paceRead(); cause != 0 {
				return cause
			}
		}
		why := c.deadline()
		k, err := c.p.nc.Read(c.in[len(c.in):cap(c.in)])
		c.full = k == cap(c.in)-len(c.in)
		c.in = c.in[:len(c.in)+k]
		if !loggedIn {
			c.preBytes -= float64(k)
			if k > 0 && !c.spoke {
				c.spoke = true
				c.l.spoke(c.p)
			}
		}
		if err != nil && c.buffered() < n {
			return c.failed(err, why)
		}
	}
	return 0
}

// paceRead waits, before a read of a connection not logged in, until its
// pre-login read budget is positive again (preLoginRate a second, up to
// MaxFrame), or until its login deadline, the Listener's end or its own.
func (c *connLoop) paceRead() CloseCause {
	now := time.Now()
	c.preBytes = min(float64(c.l.opts.MaxFrame), c.preBytes+now.Sub(c.preAt).Seconds()*preLoginRate)
	c.preAt = now
	if c.preBytes > 0 {
		return 0
	}
	wait := time.Duration((1 - c.preBytes) / preLoginRate * float64(time.Second))
	if now.Add(wait).After(c.loginBy) {
		return CauseLoginTimeout
	}
	if cause := c.flush(); cause != 0 {
		return cause
	}
	return c.sleep(wait)
}

// sleep waits d on the connection's one timer, or until the Listener's end
// or the connection's own; it returns 0 when d passed, else the cause that
// ended the connection.
func (c *connLoop) sleep(d time.Duration) CloseCause {
	if c.pause == nil {
		c.pause = time.NewTimer(d)
	} else {
		c.pause.Reset(d)
	}
	select {
	case <-c.pause.C:
		return 0
	case <-c.p.kill:
	case <-c.l.done:
	}
	c.pause.Stop()
	return c.l.endedBy(c.p)
}

// room makes space in the read buffer to read into, for a frame of which
// n bytes are wanted in all: it moves what is buffered to the front, and
// grows the buffer to twice its size while it is full of that frame, so
// that its memory follows the bytes that arrive, never the size a header
// claims. The buffer of a peer that pipelines (its last read filled the
// buffer) grows to keepBuf, to read many frames at once.
func (c *connLoop) room(n int) {
	if c.r > 0 && (len(c.in) == cap(c.in) || cap(c.in)-c.r < n) {
		k := copy(c.in, c.in[c.r:])
		clear(c.in[k:len(c.in)]) // what moved may be a login's credentials
		c.in, c.r = c.in[:k], 0
	}
	var size int
	switch {
	case c.full && cap(c.in) < keepBuf:
		size = keepBuf
	case len(c.in) == cap(c.in):
		size = min(max(2*cap(c.in), startIn), max(n, keepBuf))
	default:
		return
	}
	grown := make([]byte, len(c.in), size)
	copy(grown, c.in)
	clear(c.in)
	c.in = grown
}

// deadline sets the read deadline for what is awaited and returns the
// cause its passing stands for: before a frame's first byte, the wait for
// a login (LoginTimeout) or for a frame (IdleTimeout, if set); from it,
// the frame's own ReadTimeout, no later than the login's deadline.
func (c *connLoop) deadline() CloseCause {
	var by time.Time
	why := CauseIdleTimeout
	loggedIn := c.conn.State().LoggedIn
	switch {
	case c.buffered() > 0 || !c.frameBy.IsZero():
		if c.frameBy.IsZero() {
			c.frameBy, c.frameWhy = time.Now().Add(c.l.opts.ReadTimeout), CauseReadTimeout
			if !loggedIn && c.loginBy.Before(c.frameBy) {
				c.frameBy, c.frameWhy = c.loginBy, CauseLoginTimeout
			}
		}
		by, why = c.frameBy, c.frameWhy
	case !loggedIn:
		by, why = c.loginBy, CauseLoginTimeout
	case c.l.opts.IdleTimeout > 0:
		by = time.Now().Add(c.l.opts.IdleTimeout)
	}
	if !by.Equal(c.readBy) {
		c.readBy = by
		_ = c.p.nc.SetReadDeadline(by)
	}
	return why
}

// yield ends a turn: the answers go out, and the goroutine lets the others
// that are ready run before it reads on. When it had to wait for a
// processor longer than contendedWait, others (connections, or the other
// programs of the machine) are kept waiting as long: the connection waits
// that long again before its next turn, so that a flood gives way while
// the machine is short, and takes all of it back as soon as it is not.
func (c *connLoop) yield() CloseCause {
	c.turn = 0
	if cause := c.flush(); cause != 0 {
		return cause
	}
	start := time.Now()
	runtime.Gosched()
	waited := time.Since(start)
	if waited <= contendedWait {
		return 0
	}
	return c.sleep(min(waited, maxGiveWay))
}

// flush writes the answers pending.
func (c *connLoop) flush() CloseCause {
	if len(c.out) == 0 {
		return 0
	}
	cause := c.write(c.out)
	if cap(c.out) <= keepBuf {
		c.out = c.out[:0]
	} else {
		c.out = make([]byte, 0, startOut)
	}
	return cause
}

// readLarge waits for size bytes of the large-frame budget, then reads the
// frame, whose header is in the read buffer, into a buffer of its own that
// starts at one chunk and grows with what arrives.
func (c *connLoop) readLarge(size int) (frame, CloseCause) {
	budget := c.l.budget
	f := frame{share: budget.share(size), large: true}
	var by time.Time
	if !c.conn.State().LoggedIn {
		by, f.pre = c.loginBy, budget.preLogin.share(size)
	}
	if cause := c.flush(); cause != 0 {
		return frame{}, cause
	}
	if !budget.acquireFor(f.share, f.pre, c.l.done, c.p.kill, by) {
		select {
		case <-c.p.kill:
			return frame{}, c.l.endedBy(c.p)
		case <-c.l.done:
			return frame{}, c.l.endedBy(c.p)
		default:
			return frame{}, CauseLoginTimeout
		}
	}
	// The wait was not the peer's: the frame's deadline starts again.
	c.frameBy = time.Time{}
	b := make([]byte, 0, min(size, codec.HeaderSize+largeFrame))
	took := min(c.buffered(), size)
	b = append(b, c.in[c.r:c.r+took]...)
	clear(c.in[c.r : c.r+took])
	c.r += took
	for len(b) < size {
		if len(b) == cap(b) {
			grown := make([]byte, len(b), min(2*cap(b), size))
			copy(grown, b)
			clear(b)
			b = grown
		}
		why := c.deadline()
		k, err := c.p.nc.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if err != nil && len(b) < size {
			clear(b[:cap(b)]) // what arrived may be a login's credentials
			budget.releaseFor(f.share, f.pre)
			return frame{}, c.failed(err, why)
		}
	}
	f.b = b
	return f, 0
}

// failed names the cause of a failed read or write; deadline is what the
// deadline in force stands for.
func (c *connLoop) failed(err error, deadline CloseCause) CloseCause {
	var ne net.Error
	switch {
	case errors.Is(err, net.ErrClosed):
		return c.l.endedBy(c.p)
	case errors.As(err, &ne) && ne.Timeout():
		return deadline
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		if c.loggedOut {
			return CauseLogout
		}
		return CausePeerClosed
	}
	return CausePeerReset
}

// serve hands a frame to the Conn, queues the answer, applies what the
// frame changed and reports it. It returns the cause when the connection
// must end.
func (c *connLoop) serve(f frame) CloseCause {
	if f.overCap {
		return c.overCap(f.b, !f.noDrain)
	}
	before := len(c.out)
	out, o, err := c.conn.Handle(f.b, c.out)
	c.out = out
	c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(f.b), Out: out[before:], Err: err, Closed: o.After == lifecycle.PhaseClosed})
	ended := c.settle(o, err)
	if holdsCredentials(o, err) {
		// The Login hook has seen the username (it aliases the frame):
		// the frame is done with, and its credentials go.
		clear(f.b[min(codec.HeaderSize, len(f.b)):])
	}
	if f.large {
		// The frame's own buffer is not used again: its budget goes back.
		c.l.budget.releaseFor(f.share, f.pre)
	}
	switch {
	case o.Answer == lifecycle.AnswerEviction:
		c.how.Reason = o.Reason
		return CauseEvicted
	case o.After == lifecycle.PhaseClosed:
		return CauseFrameSize
	}
	return ended
}

// holdsCredentials reports whether a frame Handle took may carry a password
// or a token, to be cleared from the read buffer once answered: a login
// (Register), a BIND_SESSION (its bind secret), a legacy login (NonReplicated with code 38 or 44, refused),
// and a frame that was not looked at (dropped, or of an unusable size),
// which may be a login whose header is damaged.
func holdsCredentials(o *lifecycle.Outcome, err error) bool {
	return o.IsLogin() || o.IsBind() || o.Code == codec.CodeLoginUser || o.Code == codec.CodeLoginPAT || err != nil
}

// settle applies what a frame changed to the connection and reports it. A
// login was counted by admitLogin as Handle bound it; a logout is uncounted
// here, before its reply is written. It returns the cause the connection
// ends with once the reply is written, when the Listener ended it at its
// logout.
func (c *connLoop) settle(o *lifecycle.Outcome, err error) (ended CloseCause) {
	obs, info := &c.l.obs, c.p.info
	if o.AnswerErr != nil {
		obs.answerFailed(info, o.AnswerErr)
	}
	if errors.Is(err, lifecycle.ErrDropped) {
		obs.dropped(info, err)
	}
	switch {
	case o.LoggedIn():
		c.how.Logins++
		c.loggedOut = false
		if !o.IsBind() {
			// A bind named its session to admitBind; a login's is known now.
			c.l.boundTo(c.p, sessKey{o.Login.UserID, o.Client, o.Login.Session})
		}
	case o.LoggedOut():
		ended = c.l.logout(c.p)
		c.loginBy = time.Now().Add(c.l.opts.LoginTimeout)
		c.loggedOut = true
		obs.logout(info)
	case o.Login.Result == codec.StatusTransientNotCommitted:
		// The client replays this login on this connection: give it the
		// SDKs' replay window.
		c.loginBy = later(c.loginBy, time.Now().Add(c.l.opts.ReplayTimeout))
	}
	if (o.IsLogin() || o.IsBind()) && o.Answer != lifecycle.AnswerNone {
		obs.login(info, o.Login)
	}
	return ended
}

// overCap answers a frame above MaxFrame, or a pre-login frame whose body
// is over its bound: Eviction 6 if its header is a valid request, then the
// connection ends. The body is never read into memory; above MaxFrame,
// what the peer already sent of it is drained (drain) for a moment after
// the answer, so that closing does not reset the connection before the
// peer has read the eviction. A peer without a login gets no such
// courtesy: its connection is closed at once.
func (c *connLoop) overCap(header []byte, drain bool) CloseCause {
	size, _ := codec.FrameSize(header)
	h, err := codec.DecodeRequestHeader(header)
	if err != nil {
		c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(header), Err: codec.ErrFrameTooLarge, Closed: true})
		return CauseFrameSize
	}
	before := len(c.out)
	e := codec.NewEviction(h.Client, codec.ReasonInvalidRequestBodySize)
	c.out, _ = e.AppendBinary(c.out) // a valid request's client is never zero
	c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(header), Out: c.out[before:], Err: codec.ErrFrameTooLarge, Closed: true})
	c.how.Reason = codec.ReasonInvalidRequestBodySize
	// An eviction ends the logical session of a bound connection (WIRE.md
	// section 10.4, case f), this one sent here rather than by Handle.
	c.conn.Evicted()
	if h.Operation == codec.OperationRegister {
		c.l.obs.login(c.p.info, lifecycle.Login{Reason: codec.ReasonInvalidRequestBodySize})
	}
	if c.flush() == 0 && drain {
		c.linger(size - codec.HeaderSize)
	}
	return CauseEvicted
}

// linger half-closes the connection and discards the rest of the frame,
// body bytes after the header, for at most lingerTimeout. The body goes
// through the connection's own buffer, cleared after, not through
// io.Discard's shared ones: it may be a login's credentials.
func (c *connLoop) linger(body int) {
	body -= min(c.buffered(), body) // already here
	if cw, ok := c.p.nc.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_ = c.p.nc.SetReadDeadline(time.Now().Add(min(lingerTimeout, c.l.opts.ReadTimeout)))
	buf := c.in[:cap(c.in)] // the header is no longer read: it may alias buf
	// Only Write: io.Discard's ReadFrom would bring its own buffer.
	sink := struct{ io.Writer }{io.Discard}
	_, _ = io.CopyBuffer(sink, io.LimitReader(c.p.nc, int64(body)), buf)
	clear(buf)
}
