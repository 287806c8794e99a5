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

	src       frameSource
	in, out   []byte
	loginBy   time.Time // when a connection not logged in is closed
	loggedOut bool      // the last change of login state was a logout
	pacer     pacer
	grown     bool  // holds grownBuffer of PipelineMemory
	preShare  int64 // of the pre-login frame budget, held by the frame being answered
	how       Closing
}

// serveConn serves p until it ends.
func (l *Listener) serveConn(p *peer) {
	var cfg lifecycle.ConnConfig
	if l.throttle != nil {
		cfg.Guard = &guard{t: l.throttle, key: throttleKey(p.info.Remote)}
	}
	cfg.Admit = func(user uint32) codec.EvictionReason { return l.admitLogin(p, user) }
	c := &connLoop{l: l, p: p, conn: l.srv.NewConnWith(cfg),
		in: make([]byte, 0, startIn), out: make([]byte, 0, startOut),
		loginBy: time.Now().Add(l.opts.LoginTimeout),
		pacer:   newPacer(&l.active, l.opts.FrameRate)}
	c.src.c = c
	l.sizeSocket(p.nc)
	l.obs.opened(p.info)
	c.how.Cause = c.run()
	c.returnBuffer()
	if c.how.Cause == causeListener {
		c.how.Cause = cmp.Or(l.endedBy(p), CauseShutdown)
	}
	c.how.LoggedIn = c.conn.State().LoggedIn
	l.untrack(p, c.how)
}

// run reads and answers frames until the connection must end, and says why.
func (c *connLoop) run() CloseCause {
	for {
		if !c.pace() {
			return causeListener
		}
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
			c.l.budget.releaseFor(share, c.preShare)
			c.preShare = 0
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
	c.src.begin(waitCause, !c.conn.State().LoggedIn)
	// Frames up to largeFrame (and MaxFrame) are read whole into the
	// connection's buffer; a larger one stops at its header.
	frame, err = codec.ReadFrame(&c.src, c.in[:0], min(largeFrame, opts.MaxFrame))
	switch {
	case errors.Is(err, codec.ErrSize):
		return frame, 0, 0, nil
	case errors.Is(err, codec.ErrFrameTooLarge):
		if size, _ := codec.FrameSize(frame); size <= opts.MaxFrame {
			return c.readLarge(frame, size)
		}
		return frame, 0, 0, errOverCap
	case errors.Is(err, errLegacyFraming):
		clear(frame[:cap(frame)])
		return nil, 0, CauseLegacyFraming, nil
	case err != nil:
		// What arrived of the frame may be a login's credentials.
		clear(frame[:cap(frame)])
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
	share, preShare := budget.share(size), int64(0)
	var by time.Time
	if !c.conn.State().LoggedIn {
		by, preShare = c.loginBy, budget.preLogin.share(size)
	}
	if !budget.acquireFor(share, preShare, c.l.done, c.p.kill, by) {
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
	frame, err := codec.ReadFrame(io.MultiReader(&c.src.header, c.p.nc), big, size)
	if err != nil {
		clear(frame[:cap(frame)]) // what arrived may be a login's credentials
		budget.releaseFor(share, preShare)
		return nil, 0, c.failed(err, frameCause), nil
	}
	c.preShare = preShare
	return frame, share, 0, nil
}

// frameSource is what a connection reads its frames from: the socket,
// with the read deadline moved from the wait for a frame to the frame's
// own deadline as soon as its first byte has arrived.
type frameSource struct {
	c        *connLoop
	started  bool
	cause    CloseCause // what the deadline in force stands for
	header   bytes.Reader
	sniffing bool // the frame's first bytes are looked at for the pre-VSR framing
	got      int  // of them, how many are in prefix
	prefix   [legacyPrefix]byte
}

// begin starts a frame: until its first byte, the deadline in force
// stands for cause. A frame of a connection not logged in is sniffed for
// the pre-VSR framing.
func (s *frameSource) begin(cause CloseCause, sniff bool) {
	s.started, s.cause, s.sniffing, s.got = false, cause, sniff, 0
}

// Read implements io.Reader.
func (s *frameSource) Read(p []byte) (int, error) {
	n, err := s.c.p.nc.Read(p)
	if n > 0 && !s.started {
		// The frame has begun: the rest is due within ReadTimeout.
		s.started = true
		s.cause = s.c.frameDeadline()
	}
	if n > 0 && s.sniffing {
		if lerr := s.sniff(p[:n]); lerr != nil {
			// No byte is handed on: io.ReadFull would drop an error that
			// came with the last bytes it wanted.
			return 0, lerr
		}
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
	out, o, err := c.conn.Handle(frame, c.out[:0])
	c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(frame), Out: out, Err: err, Closed: o.After == lifecycle.PhaseClosed})
	if o.LoggedOut() {
		// Uncounted before the reply is written, as a login is counted:
		// a client that reads it and logs in elsewhere finds its place.
		c.l.setLoggedIn(c.p, false)
	}
	cause := c.write(out)
	if cap(out) <= keepBuf {
		c.out = out[:0]
	} else {
		c.out = make([]byte, 0, startOut)
	}
	c.report(o, err)
	if holdsCredentials(o, err) {
		// The Login hook has seen the username (it aliases the frame):
		// the frame is done with, and its credentials go.
		clear(frame[min(codec.HeaderSize, len(frame)):])
	}
	switch {
	case o.Answer == lifecycle.AnswerEviction:
		c.how.Reason = o.Reason
		return CauseEvicted
	case o.After == lifecycle.PhaseClosed:
		return CauseFrameSize
	}
	return cause
}

// holdsCredentials reports whether a frame Handle took may carry a password
// or a token, to be cleared from the read buffer once answered: a login
// (Register), a BIND_SESSION (its bind secret), a legacy login (NonReplicated with code 38 or 44, refused),
// and a frame that was not looked at (dropped, or of an unusable size),
// which may be a login whose header is damaged.
func holdsCredentials(o *lifecycle.Outcome, err error) bool {
	return o.IsLogin() || o.IsBind() || o.Code == codec.CodeLoginUser || o.Code == codec.CodeLoginPAT || err != nil
}

// report tells the Listener and the Observer what a frame changed.
func (c *connLoop) report(o *lifecycle.Outcome, err error) {
	obs, info := &c.l.obs, c.p.info
	if o.AnswerErr != nil {
		obs.answerFailed(info, o.AnswerErr)
	}
	if errors.Is(err, lifecycle.ErrDropped) {
		obs.dropped(info, err)
	}
	if o.LoggedIn() {
		c.how.Logins++
		c.loggedOut = false
	}
	switch {
	case o.Before != lifecycle.PhaseLoggedIn && o.After == lifecycle.PhaseLoggedIn:
		c.l.setLoggedIn(c.p, true)
	case o.LoggedOut():
		c.l.setLoggedIn(c.p, false)
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
}

// overCap answers a frame above MaxFrame: Eviction 6 if its header is a
// valid request, then the connection ends. The body is never read into
// memory; what the peer already sent of it is drained for a moment after
// the answer, so that closing does not reset the connection before the
// peer has read the eviction.
func (c *connLoop) overCap(header []byte) CloseCause {
	h, err := codec.DecodeRequestHeader(header)
	if err != nil {
		c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(header), Err: codec.ErrFrameTooLarge, Closed: true})
		return CauseFrameSize
	}
	out, _ := codec.NewEviction(h.Client, codec.ReasonInvalidRequestBodySize).AppendBinary(c.out[:0]) // a valid request's client is never zero
	c.l.trace(Exchange{Remote: c.p.info.Remote, In: codec.NewSecret(header), Out: out, Err: codec.ErrFrameTooLarge, Closed: true})
	c.how.Reason = codec.ReasonInvalidRequestBodySize
	if c.write(out) == 0 {
		c.linger(header)
	}
	if h.Operation == codec.OperationRegister {
		c.l.obs.login(c.p.info, lifecycle.Login{Reason: codec.ReasonInvalidRequestBodySize})
	}
	return CauseEvicted
}

// linger half-closes the connection and discards the rest of the frame
// for at most lingerTimeout. The body goes through the connection's own
// buffer, cleared after, not through io.Discard's shared ones: it may be a
// login's credentials.
func (c *connLoop) linger(header []byte) {
	size, _ := codec.FrameSize(header)
	if cw, ok := c.p.nc.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	_ = c.p.nc.SetReadDeadline(time.Now().Add(min(lingerTimeout, c.l.opts.ReadTimeout)))
	buf := c.in[:cap(c.in)] // header is no longer read: it may alias buf
	// Only Write: io.Discard's ReadFrom would bring its own buffer.
	sink := struct{ io.Writer }{io.Discard}
	_, _ = io.CopyBuffer(sink, io.LimitReader(c.p.nc, int64(size-codec.HeaderSize)), buf)
	clear(buf)
}
