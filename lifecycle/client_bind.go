package lifecycle

import (
	"errors"
	"io"

	"github.com/iggywire/iggywire/codec"
)

// ErrLoginAgain: the logical session cannot be resumed; only a new login
// (a new client id and a new bind secret) goes on. BindSession returns it
// when there is nothing to resume (a client of protocol 0.11.0, no login
// sent, or a session that a logout, an eviction or a refusal ended), and a
// *BindRefusedError matches it.
var ErrLoginAgain = errors.New("lifecycle: the session cannot be resumed: log in again")

// BindRefusedError is a BIND_SESSION answered with a status that ends the
// logical session (WIRE.md section 10.4): 40 Unauthenticated (a wrong
// secret, a session ended by a logout or an eviction, a client id the
// server does not know, the server's admission refused), 14001
// InvalidSession, 3 InvalidCommand or 14003 IncompatibleProtocolVersion;
// or the last of MaxSessionZeroWaits transient answers (57 or 58) in a row
// to a bind of session 0, after which the Client stops waiting for a login
// the server may never have seen. The caller must log in again. It
// matches ErrLoginAgain and the *codec.IggyError of its Status. The
// connection stays open.
type BindRefusedError struct {
	Status codec.Status // the status of the refusal
}

// Error says that the bind was refused and what to do.
func (e *BindRefusedError) Error() string {
	return ErrLoginAgain.Error() + ": BIND_SESSION refused: " + e.Status.Err().Error()
}

// Is reports whether target is ErrLoginAgain or the *codec.IggyError of
// e's Status.
func (e *BindRefusedError) Is(target error) bool {
	if t, ok := target.(*codec.IggyError); ok {
		return t.Status == e.Status
	}
	return target == ErrLoginAgain
}

// MaxSessionZeroWaits is how many transient answers (57 or 58) in a row
// the Client takes to binds of session 0 (a login whose reply was lost)
// before it gives the logical session up: the last one is a
// *BindRefusedError, and the caller logs in again. Upstream answers 58 to
// such a bind while the login is not visible yet, and also, for ever,
// when its server never saw the login or has forgotten it (WIRE.md
// section 10.4, case e); only a bound tells the two apart. A bind that
// names its session (a login whose reply arrived) has no such bound: its
// transient answers are the server's, about a session it knows.
const MaxSessionZeroWaits = 3

// BindSession appends a BIND_SESSION request (code 15, operation
// NonReplicated; WIRE.md sections 10.3 and 10.4) that resumes the client's
// logical session on a new connection without another login: the body
// carries the client id, the session (0 when the login's reply was lost:
// the server answers with the session that login got), a metadata
// watermark of 0, and the login's bind secret; the header
// carries the same client id and session and the current request number.
// Calling it starts a new connection: whatever the old one had in flight
// is forgotten, and the client is open again.
//
// It needs a resumable client (ClientState.Resumable): otherwise
// ErrLoginAgain. On error dst and the client are unchanged.
//
// Receive reads the answer, a Reply and never an eviction:
//   - status 0: the bare login reply (no result section); the connection
//     is logged in as the logical session (Response.Login), the request
//     numbers going on from where they were. A reply naming another
//     session than the one asked for is ErrMismatch, and the session is
//     given up;
//   - 57 or 58: a *TransientError; the logical session is kept, and the
//     bind may be sent again (BindSession) or replayed (Replay), but for
//     session 0 only up to MaxSessionZeroWaits answers in a row: the last
//     is a *BindRefusedError;
//   - any other status: a *BindRefusedError (ErrLoginAgain); the logical
//     session is given up and the connection stays open for a login.
func (c *Client) BindSession(dst []byte) ([]byte, error) {
	if !c.resume || c.rev != codec.RevisionBindSecret {
		return dst, ErrLoginAgain
	}
	// Metadata watermark 0: no frontier beyond the session's own, which
	// upstream applies anyway (it waits for max(watermark, session)).
	body := codec.BindSession{Info: c.info, ClientID: c.seq.client, Session: c.logical, BindSecret: c.secret}
	out, err := body.AppendBinary(append(dst, zeroHeader[:]...))
	if err != nil {
		return dst, err
	}
	var seq Sequencer
	_ = seq.restore(c.seq.client, c.logical, c.seq.next) // the client id is not zero
	if _, err := seq.stampHeader((*codec.Header)(out[len(dst):]), codec.OperationNonReplicated, codec.CodeBindSession,
		len(out)-len(dst)-codec.HeaderSize); err != nil {
		return dst, err
	}
	// Not logged in on this connection until the answer says so: the
	// session rides only the bind's header.
	seq.session = 0
	c.seq, c.userID = seq, 0
	return out, nil
}

// bound reads the answer to a BIND_SESSION; see BindSession.
func (c *Client) bound(r Response) (Response, error) {
	switch r.Status {
	case codec.StatusOK:
	case codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted:
		r.Body = nil
		if c.logical == 0 {
			if c.waits++; c.waits >= MaxSessionZeroWaits {
				// Given up: nothing to replay either.
				c.resume, c.seq.phase, c.seq.transient = false, phaseIdle, 0
				return r, &BindRefusedError{Status: r.Status}
			}
		}
		return r, &TransientError{Status: r.Status}
	default:
		r.Body = nil
		c.resume = false
		return r, &BindRefusedError{Status: r.Status}
	}
	// Strict, as for a login reply; a session 0 does not parse.
	login, err := codec.ParseLoginReply(r.Body)
	if err != nil {
		return Response{}, c.fail(&malformedError{err})
	}
	if c.logical != 0 && login.Session != c.logical {
		err := mismatch("session", c.logical, login.Session)
		c.resume = false
		return Response{}, c.fail(err)
	}
	if err := c.seq.Bind(login.Session); err != nil {
		return Response{}, c.fail(&malformedError{err})
	}
	r.Login = login
	c.userID, c.logical, c.waits = login.UserID, login.Session, 0
	return r, nil
}

// newBindSecret reads a fresh 32-byte bind secret from r. The bytes are
// held only by the Secret, which no print shows.
func newBindSecret(r io.Reader) (codec.Secret, error) {
	b := make([]byte, codec.BindSecretLen)
	if _, err := io.ReadFull(r, b); err != nil {
		return codec.Secret{}, wrap(ErrRandom, err)
	}
	return codec.NewSecret(b), nil
}
