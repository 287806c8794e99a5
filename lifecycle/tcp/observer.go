package tcp

import (
	"net"
	"strconv"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// Observer learns what a Listener does with its connections, for logs and
// metrics. Its methods are called from the Listener's goroutines, one
// connection's calls in order but different connections' at once, so an
// Observer must be safe for concurrent use, and it should return quickly:
// the connection waits for it. No argument ever holds a password or token.
//
// Embed NopObserver to implement only some of the methods; methods added
// to Observer later are added to NopObserver too.
type Observer interface {
	// Opened: a connection was accepted and is being served.
	Opened(c ConnInfo)
	// Refused: a connection was accepted and closed at once, because
	// MaxConns connections were open.
	Refused(c ConnInfo)
	// Closed: a served connection ended, and why.
	Closed(c ConnInfo, how Closing)
	// Login: the outcome of a login request (every Register frame that
	// was answered).
	Login(c ConnInfo, r LoginResult)
	// Logout: a logged-in connection logged out; it stays open.
	Logout(c ConnInfo)
	// Dropped: a frame was dropped without an answer (an invalid header,
	// a session ahead of the bound one); err says why.
	Dropped(c ConnInfo, err error)
	// AnswerFailed: the Handler's answer could not be encoded (a body over
	// the frame cap), so the request was denied with status 1 instead.
	AnswerFailed(c ConnInfo, err error)
	// AcceptFailed: Accept failed with a passing error (out of
	// descriptors, buffers or memory); the Listener tries again after
	// retry.
	AcceptFailed(err error, retry time.Duration)
}

// NopObserver implements Observer by doing nothing. Embed it in an
// Observer that cares about only some events.
type NopObserver struct{}

// Opened implements Observer.
func (NopObserver) Opened(ConnInfo) {}

// Refused implements Observer.
func (NopObserver) Refused(ConnInfo) {}

// Closed implements Observer.
func (NopObserver) Closed(ConnInfo, Closing) {}

// Login implements Observer.
func (NopObserver) Login(ConnInfo, LoginResult) {}

// Logout implements Observer.
func (NopObserver) Logout(ConnInfo) {}

// Dropped implements Observer.
func (NopObserver) Dropped(ConnInfo, error) {}

// AnswerFailed implements Observer.
func (NopObserver) AnswerFailed(ConnInfo, error) {}

// AcceptFailed implements Observer.
func (NopObserver) AcceptFailed(error, time.Duration) {}

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
	// make room for a newer one at MaxPreLogin.
	CausePreLoginCap
	// CauseTotalCap: refused at accept because MaxConns were open.
	CauseTotalCap
	// CauseShutdown: the Listener shut down.
	CauseShutdown
)

var causeNames = [...]string{
	CausePeerClosed:   "peer-closed",
	CauseLogout:       "logout",
	CausePeerReset:    "peer-reset",
	CauseEvicted:      "evicted",
	CauseFrameSize:    "frame-size",
	CauseLoginTimeout: "login-timeout",
	CauseIdleTimeout:  "idle-timeout",
	CauseReadTimeout:  "read-timeout",
	CauseWriteTimeout: "write-timeout",
	CausePreLoginCap:  "prelogin-cap",
	CauseTotalCap:     "total-cap",
	CauseShutdown:     "shutdown",
}

// String is a short lower-case name ("login-timeout"), or "cause-N" for a
// value this package does not define.
func (c CloseCause) String() string {
	if int(c) < len(causeNames) && causeNames[c] != "" {
		return causeNames[c]
	}
	return "cause-" + strconv.Itoa(int(c))
}

// Closing describes the end of a connection.
type Closing struct {
	Cause    CloseCause
	Reason   codec.EvictionReason // the eviction sent, when Cause is CauseEvicted
	LoggedIn bool                 // logged in when it ended
	Logins   int                  // successful logins on the connection
	Frames   int                  // frames read
	Duration time.Duration        // from accept to close
}

// LoginResult is the outcome of one login request.
type LoginResult struct {
	// OK: the login succeeded with UserID and Session.
	OK      bool
	UserID  uint32
	Session uint64
	// Reason is the eviction that refused the login (0 when none).
	Reason codec.EvictionReason
	// Status is the status of a Reply that refused the login without an
	// eviction (0 when none).
	Status codec.Status
	// Throttled: the address was over its failed-login budget, so the
	// credentials were not checked and the login was refused as a wrong
	// one would be.
	Throttled bool
}

// Outcome is a short label for metrics and logs: "ok", "throttled", the
// eviction reason's name ("InvalidCredentials"), or "status-N".
func (r LoginResult) Outcome() string {
	switch {
	case r.OK:
		return "ok"
	case r.Throttled:
		return "throttled"
	case r.Reason != 0:
		return r.Reason.String()
	}
	return "status-" + strconv.FormatUint(uint64(r.Status), 10)
}
