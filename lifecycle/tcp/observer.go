package tcp

import (
	"net"
	"strconv"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Observer learns what a Listener does with its connections, for logs,
// metrics and traces: a struct of optional hooks, in the manner of
// net/http/httptrace.ClientTrace. A nil hook costs nothing, and hooks
// added later break no caller.
//
// Hooks are called from the Listener's goroutines, one connection's calls
// in order but different connections' at once, so they must be safe for
// concurrent use, and they should return quickly: the connection waits for
// them. No argument ever holds a password or a token in the clear.
type Observer struct {
	// Opened: a connection was accepted and is being served. Every
	// connection Opened reports is later reported by Closed, once.
	Opened func(c ConnInfo)
	// Closed: a served connection ended, and why.
	Closed func(c ConnInfo, how Closing)
	// Login: what a login request came to (every Register frame that was
	// answered), or a BIND_SESSION (l.Bind). l.Username is valid only
	// during the call: copy it to keep it.
	Login func(c ConnInfo, l lifecycle.Login)
	// Logout: a logged-in connection logged out; it stays open.
	Logout func(c ConnInfo)
	// Dropped: a frame was dropped without an answer (an invalid header,
	// a session ahead of the bound one); err says why.
	Dropped func(c ConnInfo, err error)
	// AnswerFailed: the Handler's answer could not be encoded (a body over
	// the frame cap), so the request was denied with status 1 instead.
	AnswerFailed func(c ConnInfo, err error)
	// AcceptFailed: Accept failed with a passing error (out of
	// descriptors, buffers or memory); the Listener tries again after
	// retry.
	AcceptFailed func(err error, retry time.Duration)
	// Frame: a frame was read and answered (or refused); called after
	// every frame, before the answer is written. The Exchange is valid
	// only during the call.
	Frame func(e Exchange)
	// Limited: an admission limit refused a connection at its accept (it
	// is never Opened nor Closed) or a login (the connection is then
	// Closed as CauseEvicted); l says which limit. It may be called
	// thousands of times a second under attack: count, do not log each
	// call.
	Limited func(c ConnInfo, l Limit)
}

func (o *Observer) limited(c ConnInfo, l Limit) {
	if o.Limited != nil {
		o.Limited(c, l)
	}
}

func (o *Observer) opened(c ConnInfo) {
	if o.Opened != nil {
		o.Opened(c)
	}
}

func (o *Observer) closed(c ConnInfo, how Closing) {
	if o.Closed != nil {
		o.Closed(c, how)
	}
}

func (o *Observer) login(c ConnInfo, l lifecycle.Login) {
	if o.Login != nil {
		o.Login(c, l)
	}
}

func (o *Observer) logout(c ConnInfo) {
	if o.Logout != nil {
		o.Logout(c)
	}
}

func (o *Observer) dropped(c ConnInfo, err error) {
	if o.Dropped != nil {
		o.Dropped(c, err)
	}
}

func (o *Observer) answerFailed(c ConnInfo, err error) {
	if o.AnswerFailed != nil {
		o.AnswerFailed(c, err)
	}
}

func (o *Observer) acceptFailed(err error, retry time.Duration) {
	if o.AcceptFailed != nil {
		o.AcceptFailed(err, retry)
	}
}

func (o *Observer) frame(e Exchange) {
	if o.Frame != nil {
		o.Frame(e)
	}
}

// ConnInfo names a connection in Observer calls.
type ConnInfo struct {
	ID     uint64   // 1, 2, ... in accept order, unique for the Listener's life
	Remote net.Addr // the peer's address
}

// RemoteString is the peer's address as text ("<nil>" when unknown).
func (c ConnInfo) RemoteString() string {
	if c.Remote == nil {
		return "<nil>"
	}
	return c.Remote.String()
}

// CloseCause says why a Listener closed a connection.
type CloseCause uint8

// Causes of a connection's end.
const (
	// CausePeerClosed: the peer closed the connection (not after a logout).
	CausePeerClosed CloseCause = iota + 1
	// CauseLogout: the peer closed the connection after logging out.
	CauseLogout
	// CausePeerReset: the peer reset the connection, or a read or write
	// failed for another reason than a deadline.
	CausePeerReset
	// CauseEvicted: the server answered with an eviction (Closing.Reason)
	// and closed, as the lifecycle requires; reason 6 is a frame above
	// MaxFrame.
	CauseEvicted
	// CauseFrameSize: a frame size that cannot be used (below 256, above
	// 64 MiB, or above MaxFrame on a header that is not a valid request):
	// the next frame cannot be found, so nothing is answered.
	CauseFrameSize
	// CauseLoginTimeout: no login within LoginTimeout of the accept or of
	// the last logout.
	CauseLoginTimeout
	// CauseIdleTimeout: logged in, and no frame began within IdleTimeout.
	CauseIdleTimeout
	// CauseReadTimeout: a frame did not arrive whole within ReadTimeout
	// of its first byte.
	CauseReadTimeout
	// CauseWriteTimeout: an answer was not written within WriteTimeout.
	CauseWriteTimeout
	// CausePreLoginCap: the oldest connection not logged in, closed to
	// make room for a newer one at MaxPreLogin; or a connection that
	// logged out while the pre-login line was full or its address had no
	// accept token left, closed after the logout's reply.
	CausePreLoginCap
	// CauseShutdown: the Listener shut down.
	CauseShutdown
	// CauseNotReading: an answer's write made no progress for
	// WriteStall: the peer sends and does not read.
	CauseNotReading
	// CauseLegacyFraming: a frame began in the pre-VSR framing
	// ([length u32][code u32], an old SDK), which this server does not
	// speak; closed at its first 8 bytes.
	CauseLegacyFraming
)

var causeNames = [...]string{
	CausePeerClosed:    "peer-closed",
	CauseLogout:        "logout",
	CausePeerReset:     "peer-reset",
	CauseEvicted:       "evicted",
	CauseFrameSize:     "frame-size",
	CauseLoginTimeout:  "login-timeout",
	CauseIdleTimeout:   "idle-timeout",
	CauseReadTimeout:   "read-timeout",
	CauseWriteTimeout:  "write-timeout",
	CausePreLoginCap:   "prelogin-cap",
	CauseShutdown:      "shutdown",
	CauseNotReading:    "not-reading",
	CauseLegacyFraming: "legacy-framing",
}

// String is a short lower-case name ("login-timeout"), or "UNKNOWN_CAUSE_N", the form
// every enum of the module prints an unknown value in, for a
// value this package does not define.
func (c CloseCause) String() string {
	if int(c) < len(causeNames) && causeNames[c] != "" {
		return causeNames[c]
	}
	return "UNKNOWN_CAUSE_" + strconv.Itoa(int(c))
}

// Closing describes the end of a connection.
type Closing struct {
	Cause    CloseCause           // why it ended
	Reason   codec.EvictionReason // the eviction sent, when Cause is CauseEvicted
	LoggedIn bool                 // logged in when it ended
	Logins   int                  // successful logins on the connection
	Frames   int                  // frames read
	Duration time.Duration        // from accept to close
}
