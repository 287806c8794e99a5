package lifecycle

import (
	"github.com/iggywire/iggywire/codec"
)

// Conn is the server side of one connection: a state machine that takes
// request frames and returns answer frames, following the wire reference
// (WIRE.md section 7). It never touches a socket. A Conn is not safe for
// concurrent use; a connection feeds it one frame at a time.
//
// The zero Conn is not usable; get one from Server.NewConn.
type Conn struct {
	srv    *Server
	id     codec.Uint128 // the server's own id for the connection (ID)
	closed bool
	// bound is true while the connection is logged in as (client, session).
	bound   bool
	client  codec.Uint128
	session uint64
	userID  uint32
	// live is the logical session the connection is bound to, when a
	// bind-secret login or BIND_SESSION bound it: a logout on any
	// connection ends it, and this one is then logged out too (sync).
	live *liveSession
	// guard, when set, stands in front of every credential check.
	guard Guard
	// admit, when set, decides whether a login that passed may bind.
	admit func(userID uint32) codec.EvictionReason
	// last is the Outcome of the last Handle, which Handle returns, and
	// username the bytes its Login.Username holds.
	last     Outcome
	username [255]byte
}

// ConnState is a snapshot of a Conn, for tests and models.
type ConnState struct {
	Closed   bool          // an eviction or an unusable frame size ended the connection
	LoggedIn bool          // a login or bind succeeded and no logout or eviction (on any connection of its logical session) nor close followed
	Client   codec.Uint128 // the bound client id (zero unless LoggedIn)
	Session  uint64        // the bound session (zero unless LoggedIn)
	UserID   uint32        // the logged-in user (zero unless LoggedIn)
}

// State returns a snapshot of c.
func (c *Conn) State() ConnState {
	c.sync()
	return ConnState{Closed: c.closed, LoggedIn: c.bound, Client: c.client, Session: c.session, UserID: c.userID}
}

// Closed reports whether the connection has ended: after Handle answered
// with an eviction, or returned an error matching codec.ErrSize, the
// transport must close it, and Handle answers nothing more.
func (c *Conn) Closed() bool { return c.closed }

// Handle takes one whole frame (a 256-byte header and size-256 body bytes),
// appends the answer, if any, to out, and says in the Outcome what the
// frame was and did. It returns:
//
//   - out with a Reply or an Eviction appended and nil. After an Eviction,
//     Closed reports true: the transport writes the answer, then closes.
//   - out unchanged and a *DroppedError (matches ErrDropped) when the frame
//     is dropped without an answer: a header that is not a valid Request,
//     or a replicated request with a session above the bound one. The state
//     does not change.
//   - out unchanged and an error matching codec.ErrSize when the size field
//     is outside 256..64 MiB or is not len(frame): the next frame cannot be
//     found, so the connection ends (Closed reports true).
//   - out unchanged and ErrClosed once the connection has ended.
//
// Every request the lifecycle answers is answered: a Handler answer that
// cannot be encoded (a body that would pass the 64 MiB frame cap) becomes a
// Reply with status 1 (Error) and no body, and Outcome.AnswerErr says why.
//
// The Outcome belongs to the Conn and is valid until the next call to
// Handle, which overwrites it: copy it (*o) to keep it. The answer aliases
// nothing of frame, and neither does the Outcome. When out has
// room for the answer (256 bytes, plus the login reply body for a login) a
// ping or a refused frame costs no allocation.
func (c *Conn) Handle(frame, out []byte) ([]byte, *Outcome, error) {
	// The Outcome lives in the Conn: returned by value, its hundred-odd
	// bytes were copied on every frame, which cost a ping about 40 ns, as
	// much as the rest of its handling.
	o := &c.last
	c.sync()
	*o = Outcome{Before: c.phase()}
	out, err := c.handle(frame, out, o)
	o.After = c.phase()
	return out, o, err
}

// phase is where c is in its lifecycle.
func (c *Conn) phase() Phase {
	switch {
	case c.closed:
		return PhaseClosed
	case c.bound:
		return PhaseLoggedIn
	}
	return PhaseOpen
}

// handle is Handle, filling in o as it goes.
func (c *Conn) handle(frame, out []byte, o *Outcome) ([]byte, error) {
	if c.closed {
		return out, ErrClosed
	}
	if err := checkFrame(frame); err != nil {
		c.close()
		return out, err
	}
	var h codec.RequestHeader // decoded in place: no copy of the 136-byte value
	if err := h.Decode(frame); err != nil {
		return out, &DroppedError{Err: err}
	}
	o.Operation, o.Client, o.Request, o.Code = h.Operation, h.Client, h.Request, h.Code
	body := frame[codec.HeaderSize:]
	switch h.Operation {
	case codec.OperationRegister:
		if code, ok := c.srv.takeTransient(); ok {
			o.Login.Result = code
			return transientLogin(out, &h, code, o)
		}
		return c.login(out, &h, body, o)
	case codec.OperationNonReplicated:
		return c.nonReplicated(out, &h, body, o)
	}
	// Only a replicated request's code is not in its header: look it up
	// here, off the path of the NonReplicated requests (pings).
	o.Code, _ = h.Operation.Code()
	return c.replicated(out, &h, body, o)
}

// nonReplicated answers points 2, 3 and 4 of the lifecycle and
// BIND_SESSION (WIRE.md section 10.4), and hands other commands of a
// logged-in connection to the Handler. NonReplicated requests are not
// fenced by session.
func (c *Conn) nonReplicated(out []byte, h *codec.RequestHeader, body []byte, o *Outcome) ([]byte, error) {
	switch h.Code {
	case codec.CodeLoginUser, codec.CodeLoginPAT:
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonMalformedLogin), o)
	case codec.CodePing:
		return reply(out, h, codec.StatusOK, nil, o)
	case codec.CodeBindSession:
		return c.bindSession(out, h, body, o)
	}
	if !c.bound {
		return reply(out, h, codec.StatusUnauthenticated, nil, o)
	}
	return c.serve(out, h, body, o)
}

// replicated fences every operation but Register and NonReplicated by the
// bound client id and session, then logs out or hands the request to the
// Handler. The body of a Logout is not looked at.
func (c *Conn) replicated(out []byte, h *codec.RequestHeader, body []byte, o *Outcome) ([]byte, error) {
	switch {
	case !c.bound || h.Client != c.client:
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonNoSession), o)
	case h.Session < c.session:
		// A zombie from before a re-login with the same client id.
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonSessionTooLow), o)
	case h.Session > c.session:
		// A fresh error each time: a shared one could be changed by any
		// caller through errors.As.
		return out, &DroppedError{Err: ErrSessionAhead}
	}
	if h.Operation == codec.OperationLogout {
		// The logical session ends for every connection bound to it:
		// BIND_SESSION cannot resume it (WIRE.md section 10.4, case f).
		c.endLogical()
		c.unbind()
		return reply(out, h, codec.StatusOK, nil, o)
	}
	return c.serve(out, h, body, o)
}

// serve asks the Handler.
func (c *Conn) serve(out []byte, h *codec.RequestHeader, body []byte, o *Outcome) ([]byte, error) {
	status, answer := c.srv.handler(Request{Header: *h, Body: body, UserID: c.userID, Session: c.session})
	if status != codec.StatusOK {
		answer = nil
	}
	answered, err := reply(out, h, status, answer, o)
	if err != nil {
		// A request left unanswered would hang its client until it times
		// out: deny it instead, and tell the transport why.
		o.AnswerErr = err
		return reply(out, h, codec.StatusError, nil, o)
	}
	return answered, nil
}

// reply appends a Reply echoing h's request checksum, client id, request
// number and operation, and records it in o.
func reply(out []byte, h *codec.RequestHeader, status codec.Status, body []byte, o *Outcome) ([]byte, error) {
	o.Answer, o.Status = AnswerReply, status
	return codec.AppendReplyFrame(out, codec.ReplyHeader{
		RequestChecksum: h.RequestChecksum,
		Client:          h.Client,
		Request:         h.Request,
		Operation:       h.Operation,
		Status:          status,
	}, body)
}

// evict appends e and ends the connection. e's client is never zero (it
// comes from a valid request header) and its window is either zero or the
// server's well-formed one, so encoding cannot fail.
func (c *Conn) evict(out []byte, e codec.Eviction, o *Outcome) ([]byte, error) {
	// An eviction is session-terminal (WIRE.md section 5): the logical
	// session the connection was bound to ends as by a logout, for
	// BIND_SESSION and for every other connection bound to it (section
	// 10.4, case f). Closing without an eviction (an unusable frame size,
	// a lost connection) leaves it to be resumed.
	c.endLogical()
	c.close()
	e.Client = c.evictionClient(e)
	o.Answer, o.Reason = AnswerEviction, e.Reason
	if o.IsLogin() {
		o.Login.Reason = e.Reason
	}
	return e.AppendBinary(out)
}

// close ends the connection; a closed connection is logged out too, so no
// state of a dead connection can look like a live login.
func (c *Conn) close() {
	c.unbind()
	c.closed = true
}

func (c *Conn) unbind() {
	c.bound, c.client, c.session, c.userID, c.live = false, codec.Uint128{}, 0, 0, nil
}

// endLogical ends the logical session c is bound to, if any: the table
// refuses to bind it again and every connection bound to it is logged out
// (sync). A connection bound by a 0.11.0 login has none.
func (c *Conn) endLogical() {
	if c.live != nil {
		c.live.ended.Store(true)
	}
}

// sync logs c out when the logical session it is bound to was ended by a
// logout on another connection (WIRE.md section 10.4, case f): from then
// on c answers as a connection that never logged in, so a replicated
// request is eviction 1 (NoSession) and any other command but ping and
// BIND_SESSION is status 40, as section 7 says for a connection not logged
// in. The check is one atomic load; a connection bound by a 0.11.0 login
// has no logical session and skips it.
func (c *Conn) sync() {
	if c.live != nil && c.live.ended.Load() {
		c.unbind()
	}
}
