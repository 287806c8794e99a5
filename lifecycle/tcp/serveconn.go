package tcp

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"net"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Buffer sizes of a served connection: what it starts with, and the most
// it keeps between frames. A larger buffer is dropped once its frame is
// answered, so a connection that sent one big frame does not hold its
// memory for life.
const (
	startIn  = 1024
	startOut = 512
	keepBuf  = 4 << 10
)

// lingerTimeout bounds how long a connection closed after an over-cap
// frame is drained, so that the eviction is read by the peer instead of
// being lost to a reset caused by unread bytes.
const lingerTimeout = time.Second

// causeListener stands, inside the frame loop, for "the Listener closed
// this connection"; serveConn asks the Listener why.
const causeListener CloseCause = 255

// errOverCap marks a header whose size is above MaxFrame.
var errOverCap = errors.New("frame above MaxFrame")

// connLoop is the frame loop of one connection.
type connLoop struct {
	l    *Listener
	p    *peer
	conn *lifecycle.Conn
	auth *throttledAuth // nil when the throttle is off

	src       frameSource
	in, out   []byte
	loginBy   time.Time // when a connection not logged in is closed
	loggedOut bool      // the last change of login state was a logout
	how       Closing
}

// serveConn serves p until it ends.
func (l *Listener) serveConn(p *peer) {
	c := &connLoop{l: l, p: p, conn: l.srv.NewConn(),
		in: make([]byte, 0, startIn), out: make([]byte, 0, startOut),
		loginBy: time.Now().Add(l.opts.LoginTimeout)}
	c.src.c = c
	if l.throttle != nil {
		c.conn.WrapAuth(func(inner lifecycle.Authenticator) lifecycle.Authenticator {
			c.auth = &throttledAuth{inner: inner, t: l.throttle, key: throttleKey(p.info.Remote)}
			return c.auth
		})
	}
	l.obs.Opened(p.info)
	c.how.Cause = c.run()
	if c.how.Cause == causeListener {
		c.how.Cause = cmp.Or(l.endedBy(p), CauseShutdown)
	}
	c.how.LoggedIn = c.conn.State().LoggedIn
	l.untrack(p, c.how)
}

// run reads and answers frames until the connection must end, and says why.
func (c *connLoop) run() CloseCause {
	for {
		frame, share, cause, err := c.read()
		if cause != 0 {
			return cause
		}
		c.how.Frames++
		if errors.Is(err, errOverCap) {
			return c.overCap(frame)
		}
		cause = c.answer(frame)
		if share > 0 {
			// The frame's own buffer is not used again: its budget goes back.
			c.l.budget.release(share)
		}
		if cause != 0 {
			return cause
		}
	}
}

// read reads one frame. It returns the frame, the budget share it holds
// (to release once answered), or the cause that ends the connection. A
// header whose size is unusable is returned alone for Handle to refuse; one
// above MaxFrame is returned alone with errOverCap.
func (c *connLoop) read() (frame []byte, share int64, cause CloseCause, err error) {
	opts := &c.l.opts
	wait, waitCause := time.Time{}, CauseIdleTimeout
	switch {
	case !c.conn.State().LoggedIn:
		wait, waitCause = c.loginBy, CauseLoginTimeout
	case opts.IdleTimeout > 0:
		wait = time.Now().Add(opts.IdleTimeout)
	}
	_ = c.p.nc.SetReadDeadline(wait)
	c.src.begin(waitCause)
	// Frames up to largeFrame (and MaxFrame) are read whole into the
	// connection's buffer; a larger one stops at its header.
	frame, err = lifecycle.ReadFrame(&c.src, c.in[:0], min(largeFrame, opts.MaxFrame))
	switch {
	case errors.Is(err, lifecycle.ErrFrameSize):
		return frame, 0, 0, nil
	case errors.Is(err, lifecycle.ErrFrameTooLarge):
		if size, _ := codec.FrameSize(frame); size <= opts.MaxFrame {
			return c.readLarge(frame, size)
		}
		return frame, 0, 0, errOverCap
	case err != nil:
		return nil, 0, c.failed(err, c.src.cause), nil
	}
	if cap(frame) <= keepBuf {
		c.in = frame[:0]
	}
	return frame, 0, 0, nil
}

// readLarge waits for size bytes of the large-frame budget, then reads the
// frame, whose header has been read, into a buffer of its own.
func (c *connLoop) readLarge(header []byte, size int) ([]byte, int64, CloseCause, error) {
	budget := c.l.budget
	share := budget.share(size)
	var by time.Time
	if !c.conn.State().LoggedIn {
		by = c.loginBy
	}
	if !budget.acquire(share, c.l.done, c.p.kill, by) {
		select {
		case <-c.p.kill:
			return nil, 0, causeListener, nil
		case <-c.l.done:
			return nil, 0, causeListener, nil
		default:
			return nil, 0, CauseLoginTimeout, nil
		}
	}
	frameCause := c.frameDeadline()
	// The header is read again from memory, so that the one frame reader
	// reads the body; the buffer starts at one chunk and grows with what
	// arrives.
	c.src.header.Reset(header)
	big := make([]byte, 0, min(size, codec.HeaderSize+largeFrame))
	frame, err := lifecycle.ReadFrame(io.MultiReader(&c.src.header, c.p.nc), big, size)
	if err != nil {
		budget.release(share)
		return nil, 0, c.failed(err, frameCause), nil
	}
	return frame, share, 0, nil
}

// frameSource is what a connection reads its frames from: the socket,
// with the read deadline moved from the wait for a frame to the frame's
// own deadline as soon as its first byte has arrived.
type frameSource struct {
	c       *connLoop
	started bool
	cause   CloseCause // what the deadline in force stands for
	header  bytes.Reader
}

// begin starts a frame: until its first byte, the deadline in force
// stands for cause.
func (s *frameSource) begin(cause CloseCause) { s.started, s.cause = false, cause }

// Read implements io.Reader.
func (s *frameSource) Read(p []byte) (int, error) {
	n, err := s.c.p.nc.Read(p)
	if n > 0 && !s.started {
		// The frame has begun: the rest is due within ReadTimeout.
		s.started = true
		s.cause = s.c.frameDeadline()
	}
	return n, err
}

// frameDeadline sets the read deadline of the rest of a frame and returns
// the cause its passing means.
func (c *connLoop) frameDeadline() CloseCause {
	by, cause := time.Now().Add(c.l.opts.ReadTimeout), CauseReadTimeout
	if !c.conn.State().LoggedIn && c.loginBy.Before(by) {
		by, cause = c.loginBy, CauseLoginTimeout
	}
	_ = c.p.nc.SetReadDeadline(by)
	return cause
}

// failed names the cause of a failed read or write; deadline is what the
// deadline in force stands for.
func (c *connLoop) failed(err error, deadline CloseCause) CloseCause {
	var ne net.Error
	switch {
	case errors.Is(err, net.ErrClosed):
		return causeListener
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

// answer hands frame to the Conn, writes the answer and reports what
// happened. It returns the cause when the connection must end.
func (c *connLoop) answer(frame []byte) CloseCause {
	before := c.conn.State()
	out, err := c.conn.Handle(frame, c.out[:0])
	after := c.conn.State()
	throttled := c.auth != nil && c.auth.refused
	if c.auth != nil {
		c.auth.refused = false
	}
	c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(frame), Out: out, Err: err, Closed: after.Closed})
	cause := c.write(out)
	if cap(out) <= keepBuf {
		c.out = out[:0]
	} else {
		c.out = make([]byte, 0, startOut)
	}
	c.report(frame, out, err, before, after, throttled)
	switch {
	case after.Closed && len(out) > 0:
		c.how.Reason = codec.EvictionReason(out[codec.HeaderSize-1])
		return CauseEvicted
	case after.Closed:
		return CauseFrameSize
	}
	return cause
}

// write sends out, if anything, within WriteTimeout.
func (c *connLoop) write(out []byte) CloseCause {
	if len(out) == 0 {
		return 0
	}
	_ = c.p.nc.SetWriteDeadline(time.Now().Add(c.l.opts.WriteTimeout))
	if _, err := c.p.nc.Write(out); err != nil {
		return c.failed(err, CauseWriteTimeout)
	}
	return 0
}

// report tells the Listener and the Observer what a frame changed.
func (c *connLoop) report(frame, out []byte, err error, before, after lifecycle.ConnState, throttled bool) {
	obs, info := c.l.obs, c.p.info
	if aerr := c.conn.TakeAnswerErr(); aerr != nil {
		obs.AnswerFailed(info, aerr)
	}
	if errors.Is(err, lifecycle.ErrDropped) {
		obs.Dropped(info, err)
	}
	if after.LoggedIn && after.Session != before.Session {
		c.how.Logins++
		c.loggedOut = false
	}
	switch {
	case !before.LoggedIn && after.LoggedIn:
		c.l.setLoggedIn(c.p, true)
	case before.LoggedIn && !after.LoggedIn && !after.Closed:
		c.l.setLoggedIn(c.p, false)
		c.loginBy = time.Now().Add(c.l.opts.LoginTimeout)
		c.loggedOut = true
		obs.Logout(info)
	}
	if len(out) > 0 && isRegister(frame) {
		obs.Login(info, loginResult(out, after, before.Session, throttled))
	}
}

// isRegister reports whether frame is a valid login request.
func isRegister(frame []byte) bool {
	h, err := codec.DecodeRequestHeader(frame)
	return err == nil && h.Operation == codec.OperationRegister
}

// loginResult reads the outcome of a login from its answer.
func loginResult(out []byte, after lifecycle.ConnState, oldSession uint64, throttled bool) LoginResult {
	if after.LoggedIn && after.Session != oldSession {
		return LoginResult{OK: true, UserID: after.UserID, Session: after.Session}
	}
	r := LoginResult{Throttled: throttled}
	if ev, err := codec.DecodeEviction(out); err == nil {
		r.Reason = ev.Reason
	} else if h, err := codec.DecodeReplyHeader(out); err == nil {
		r.Status = h.Status
	}
	return r
}

// overCap answers a frame above MaxFrame: Eviction 6 if its header is a
// valid request, then the connection ends. The body is never read into
// memory; what the peer already sent of it is drained for a moment after
// the answer, so that closing does not reset the connection before the
// peer has read the eviction.
func (c *connLoop) overCap(header []byte) CloseCause {
	h, err := codec.DecodeRequestHeader(header)
	if err != nil {
		c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(header), Err: lifecycle.ErrFrameTooLarge, Closed: true})
		return CauseFrameSize
	}
	out, _ := codec.NewEviction(h.Client, codec.ReasonInvalidRequestBodySize).AppendTo(c.out[:0]) // a valid request's client is never zero
	c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(header), Out: out, Err: lifecycle.ErrFrameTooLarge, Closed: true})
	c.how.Reason = codec.ReasonInvalidRequestBodySize
	if c.write(out) == 0 {
		c.linger(header)
	}
	if h.Operation == codec.OperationRegister {
		c.l.obs.Login(c.p.info, LoginResult{Reason: codec.ReasonInvalidRequestBodySize})
	}
	return CauseEvicted
}

// linger half-closes the connection and discards the rest of the frame
// for at most lingerTimeout.
func (c *connLoop) linger(header []byte) {
	size, _ := codec.FrameSize(header)
	if cw, ok := c.p.nc.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_ = c.p.nc.SetReadDeadline(time.Now().Add(min(lingerTimeout, c.l.opts.ReadTimeout)))
	_, _ = io.CopyN(io.Discard, c.p.nc, int64(size-codec.HeaderSize))
}
