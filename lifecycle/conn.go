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
	// auth, when set, replaces the Server's Authenticator for this
	// connection's logins (a transport's failed-login throttle).
	auth Authenticator
	// answerErr is why the Handler's last answer could not be encoded;
	// the transport takes it with TakeAnswerErr.
	answerErr error
}

// ConnState is a snapshot of a Conn, for tests and models.
type ConnState struct {
	Closed   bool          // an eviction or an unusable frame size ended the connection
	LoggedIn bool          // a login succeeded and no logout, eviction or close followed
	Client   codec.Uint128 // the bound client id (zero unless LoggedIn)
	Session  uint64        // the bound session (zero unless LoggedIn)
	UserID   uint32        // the logged-in user (zero unless LoggedIn)
}

// State returns a snapshot of c.
func (c *Conn) State() ConnState {
	return ConnState{Closed: c.closed, LoggedIn: c.bound, Client: c.client, Session: c.session, UserID: c.userID}
}

// WrapAuth replaces the Authenticator this connection's logins ask with
// wrap's result, which is handed the Server's. A transport uses it to put
// a per-connection guard (a failed-login throttle) in front of the
// credential check without the Server's Authenticator leaving the package.
// Call it before the first Handle.
func (c *Conn) WrapAuth(wrap func(Authenticator) Authenticator) {
	c.auth = wrap(c.srv.auth)
}

// authenticator is the Authenticator a Conn's logins ask: the one WrapAuth
// set, or the Server's.
func (c *Conn) authenticator() Authenticator {
	if c.auth != nil {
		return c.auth
	}
	return c.srv.auth
}

// TakeAnswerErr returns, and forgets, why the Handler's last answer could
// not be encoded (Handle then denied the request with status 1), or nil.
// A transport reports it after each frame.
func (c *Conn) TakeAnswerErr() error {
	err := c.answerErr
	c.answerErr = nil
	return err
}

// Closed reports whether the connection has ended: after Handle answered
// with an eviction, or returned an error matching ErrFrameSize, the
// transport must close it, and Handle answers nothing more.
func (c *Conn) Closed() bool { return c.closed }

// Handle takes one whole frame (a 256-byte header and size-256 body bytes)
// and appends the answer, if any, to out. It returns:
//
//   - out with a Reply or an Eviction appended and nil. After an Eviction,
//     Closed reports true: the transport writes the answer, then closes.
//   - out unchanged and a *DroppedError (matches ErrDropped) when the frame
//     is dropped without an answer: a header that is not a valid Request,
//     or a replicated request with a session above the bound one. The state
//     does not change.
//   - out unchanged and an error matching ErrFrameSize when the size field
//     is outside 256..64 MiB or is not len(frame): the next frame cannot be
//     found, so the connection ends (Closed reports true).
//   - out unchanged and ErrClosed once the connection has ended.
//
// Every request the lifecycle answers is answered: a Handler answer that
// cannot be encoded (a body that would pass the 64 MiB frame cap) becomes a
// Reply with status 1 (Error) and no body.
//
// The answer aliases nothing of frame, and when out has room for it
// (256 bytes, plus the login reply body for a login) a ping or a refused
// frame costs no allocation.
func (c *Conn) Handle(frame, out []byte) ([]byte, error) {
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
	body := frame[codec.HeaderSize:]
	switch h.Operation {
	case codec.OperationRegister:
		if code, ok := c.srv.takeTransient(); ok {
			return transientLogin(out, &h, code)
		}
		return c.login(out, &h, body)
	case codec.OperationNonReplicated:
		return c.nonReplicated(out, &h, body)
	}
	return c.replicated(out, &h, body)
}

// nonReplicated answers points 2, 3 and 4 of the lifecycle, and hands
// other commands of a logged-in connection to the Handler. NonReplicated
// requests are not fenced by session.
func (c *Conn) nonReplicated(out []byte, h *codec.RequestHeader, body []byte) ([]byte, error) {
	switch h.Code {
	case codec.CodeLoginUser, codec.CodeLoginWithPAT:
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonMalformedLogin))
	case codec.CodePing:
		return reply(out, h, codec.StatusOK, nil)
	}
	if !c.bound {
		return reply(out, h, codec.StatusUnauthenticated, nil)
	}
	return c.serve(out, h, body)
}

// replicated fences every operation but Register and NonReplicated by the
// bound client id and session, then logs out or hands the request to the
// Handler. The body of a Logout is not looked at.
func (c *Conn) replicated(out []byte, h *codec.RequestHeader, body []byte) ([]byte, error) {
	switch {
	case !c.bound || h.Client != c.client:
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonNoSession))
	case h.Session < c.session:
		// A zombie from before a re-login with the same client id.
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonSessionTooLow))
	case h.Session > c.session:
		// A fresh error each time: a shared one could be changed by any
		// caller through errors.As.
		return out, &DroppedError{Err: ErrSessionAhead}
	}
	if h.Operation == codec.OperationLogout {
		c.unbind()
		return reply(out, h, codec.StatusOK, nil)
	}
	return c.serve(out, h, body)
}

// serve asks the Handler.
func (c *Conn) serve(out []byte, h *codec.RequestHeader, body []byte) ([]byte, error) {
	status, answer := c.srv.handler(Request{Header: *h, Body: body, UserID: c.userID, Session: c.session})
	if status != codec.StatusOK {
		answer = nil
	}
	answered, err := reply(out, h, status, answer)
	if err != nil {
		// A request left unanswered would hang its client until it times
		// out: deny it instead, and keep the cause for the transport.
		c.answerErr = err
		return reply(out, h, statusError, nil)
	}
	return answered, nil
}

// statusError is the status of a request the server failed to answer
// (the reference's Error, code 1).
const statusError codec.Status = 1

// reply appends a Reply echoing h's request checksum, client id, request
// number and operation.
func reply(out []byte, h *codec.RequestHeader, status codec.Status, body []byte) ([]byte, error) {
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
func (c *Conn) evict(out []byte, e codec.Eviction) ([]byte, error) {
	c.close()
	e.Client = c.evictionClient(e)
	return e.AppendTo(out)
}

// close ends the connection; a closed connection is logged out too, so no
// state of a dead connection can look like a live login.
func (c *Conn) close() {
	c.unbind()
	c.closed = true
}

func (c *Conn) unbind() {
	c.bound, c.client, c.session, c.userID = false, codec.Uint128{}, 0, 0
}
