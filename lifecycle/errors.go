package lifecycle

import (
	"errors"
	"strconv"

	"github.com/iggywire/iggywire/codec"
)

// Sentinels of this package. Errors that carry more detail match one of
// them with errors.Is.
var (
	// ErrClosed: the Conn or Client ended (after an eviction, an unusable
	// frame size, or a frame a client must drop the connection for). A
	// closed Conn answers nothing; a closed Client builds nothing but a
	// login, which opens it again.
	ErrClosed = errors.New("lifecycle: connection closed")
	// ErrDropped: Conn.Handle dropped the frame without an answer and
	// without a change of state. The connection stays open.
	ErrDropped = errors.New("lifecycle: frame dropped")
	// ErrSessionAhead: a replicated request from the bound client carried
	// a session higher than the bound one (a client bug); it is dropped.
	ErrSessionAhead = errors.New("lifecycle: session ahead of the bound session")

	// ErrInvalidCredentials: a password login failed, whatever the cause
	// (unknown user, wrong password, inactive user, length policy).
	ErrInvalidCredentials = errors.New("lifecycle: invalid credentials")
	// ErrInvalidToken: a token is unknown or expired.
	ErrInvalidToken = errors.New("lifecycle: invalid token")
	// ErrUserInactive: a token names an inactive user.
	ErrUserInactive = errors.New("lifecycle: user inactive")

	// ErrNoSession: a client was asked to build a replicated request
	// (Logout, a metadata or partition operation) before it has a session.
	ErrNoSession = errors.New("lifecycle: no session")
	// ErrPending: a client was asked to build a request while the answer
	// to the previous one is still outstanding.
	ErrPending = errors.New("lifecycle: a request is outstanding")
	// ErrOperation: Client.Replicated was given an operation that is not
	// the operation of a replicated client command, or Client.Request a
	// code it does not build (a login, or a logout with a body).
	ErrOperation = errors.New("lifecycle: operation not allowed here")
	// ErrMismatch: a reply does not answer the outstanding request (client
	// id or request number differ, or nothing is outstanding). The
	// connection must be dropped.
	ErrMismatch = errors.New("lifecycle: reply does not match the request")
	// ErrMalformed: a frame from the server does not decode. It also
	// matches codec.StatusInvalidCommand.Err(), what an SDK maps it to.
	ErrMalformed = errors.New("lifecycle: malformed frame")
	// ErrRandom: the client's randomness source failed or kept returning
	// zero, so no client id could be minted.
	ErrRandom = errors.New("lifecycle: no random client id")
	// ErrTransient: a login or a BIND_SESSION failed transiently and may
	// be retried; the error is a *TransientError, which says how.
	ErrTransient = errors.New("lifecycle: transient failure")
)

// TransientError is a login or BIND_SESSION reply whose result code is
// transient (WIRE.md section 8): the request failed for a reason that may
// pass, and may be retried. It matches ErrTransient and its Status's error (Status.Err()). The
// connection stays open.
type TransientError struct {
	// Status is codec.StatusTransientNotCommitted (57) or
	// codec.StatusTransientNotAccepted (58), the name codec.IggyError
	// gives the same value.
	Status codec.Status
}

// Error says what happened and how the request may be retried.
func (e *TransientError) Error() string {
	if e.Replay() {
		return ErrTransient.Error() + ": " + e.Status.Err().Error() + ": replay the same request on the same connection"
	}
	return ErrTransient.Error() + ": " + e.Status.Err().Error() + ": the request may be re-issued anywhere"
}

// Is reports whether target is ErrTransient or the *codec.IggyError of
// e's Status.
func (e *TransientError) Is(target error) bool {
	if t, ok := target.(*codec.IggyError); ok {
		return t.Status == e.Status
	}
	return target == ErrTransient
}

// Replay reports whether only the same request may be retried (57): the
// outcome is unknown, so the login must be replayed on the same connection
// with the same client id, or it could be committed twice. A Client keeps
// its client id after a 57, so calling Login (or LoginPAT) again with
// the same credentials builds that same request.
func (e *TransientError) Replay() bool { return e.Status == codec.StatusTransientNotCommitted }

// Reissue reports whether the login may be re-issued anywhere (58): nothing
// was committed, so any connection and a fresh client id will do. A Client
// mints a new client id for its next login, as after any other answer.
func (e *TransientError) Reissue() bool { return e.Status == codec.StatusTransientNotAccepted }

// DroppedError is what Conn.Handle returns for a frame it drops: Err says
// why (a codec error for an invalid header, ErrSessionAhead for a session
// from the future). It matches ErrDropped and, through Unwrap, Err.
type DroppedError struct {
	Err error // why: a codec error, or ErrSessionAhead
}

// Error returns "lifecycle: frame dropped: CAUSE".
func (e *DroppedError) Error() string { return ErrDropped.Error() + ": " + e.Err.Error() }

// Is reports whether target is ErrDropped.
func (e *DroppedError) Is(target error) bool { return target == ErrDropped }

// Unwrap returns the cause.
func (e *DroppedError) Unwrap() error { return e.Err }

// wrapped is an error of one class (a sentinel of this package) with a
// cause: it matches both.
type wrapped struct {
	class error
	cause error
}

// Error returns "CLASS: CAUSE".
func (e *wrapped) Error() string { return e.class.Error() + ": " + e.cause.Error() }

// Is reports whether target is the class.
func (e *wrapped) Is(target error) bool { return target == e.class }

// Unwrap returns the cause.
func (e *wrapped) Unwrap() error    { return e.cause }
func wrap(class, cause error) error { return &wrapped{class: class, cause: cause} }
func mismatch(field string, want, got uint64) error {
	return wrap(ErrMismatch, errors.New(field+": want "+strconv.FormatUint(want, 10)+", got "+strconv.FormatUint(got, 10)))
}
