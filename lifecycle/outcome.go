package lifecycle

import (
	"strconv"

	"github.com/iggywire/iggywire/codec"
)

// Outcome is what one Conn.Handle call did: which request the frame was,
// what was answered, how the connection changed, and for a login what it
// came to. A transport reads its logs, metrics and timers from it instead
// of decoding the frames again. It is a plain value of 104 bytes (on a
// 64-bit platform) that holds no pointer into a frame: Conn.Handle returns
// a pointer to the Conn's own copy, valid until the next call, so handling
// a frame costs no allocation; copy it (*o) to keep it. Conn.State has the
// rest of the connection's state.
type Outcome struct {
	// Client and Request name the request, when its header decoded (zero
	// otherwise).
	Client  codec.Uint128 // the request's client id
	Request uint64        // the request's number
	// Code is the request's command code: the header's for a
	// NonReplicated request, the one the operation stands for otherwise
	// (codec.Operation.Code), 0 for a login, whose code (40 or 45) is the
	// body's shape (see Login.PAT), and for a frame that did not decode.
	Code codec.Code
	// Status is the status of the Reply answered (AnswerReply).
	Status codec.Status
	// Operation is the request's operation, when its header decoded.
	Operation codec.Operation
	// Answer is what Handle appended to out.
	Answer Answer
	// Reason is the reason of the Eviction answered (AnswerEviction).
	Reason codec.EvictionReason
	// Before and After are the connection's phase before and after the
	// frame.
	Before, After Phase
	// Login is what a login request came to; see IsLogin.
	Login Login
	// AnswerErr is why the Handler's answer could not be encoded (a body
	// over the 64 MiB frame cap): the request was answered with status 1
	// (Error) and no body instead. Nil otherwise.
	AnswerErr error
}

// IsLogin reports whether the frame was a login request (a valid header
// with operation Register), so that Login says what it came to.
func (o Outcome) IsLogin() bool { return o.Operation == codec.OperationRegister }

// IsBind reports whether the frame was a BIND_SESSION (WIRE.md section
// 10.4), so that Login says what it came to (with Login.Bind set).
func (o Outcome) IsBind() bool { return o.Login.Bind }

// LoggedIn reports whether the frame logged the connection in (a new
// session, also a re-login on a logged-in connection).
func (o Outcome) LoggedIn() bool { return o.Login.OK }

// LoggedOut reports whether the frame logged a connection out that stays
// open.
func (o Outcome) LoggedOut() bool { return o.Before == PhaseLoggedIn && o.After == PhaseOpen }

// Phase is where a connection is in its lifecycle.
type Phase uint8

// The phases of a connection.
const (
	// PhaseOpen: open and not logged in (before the first login, or after
	// a logout).
	PhaseOpen Phase = iota
	// PhaseLoggedIn: a login succeeded and no logout, eviction or close
	// followed.
	PhaseLoggedIn
	// PhaseClosed: an eviction or an unusable frame size ended the
	// connection; the transport closes it.
	PhaseClosed
)

// String returns "open", "logged-in", "closed", or "UNKNOWN_PHASE_N" (the
// form every enum of the module prints an unknown value in).
func (p Phase) String() string {
	switch p {
	case PhaseOpen:
		return "open"
	case PhaseLoggedIn:
		return "logged-in"
	case PhaseClosed:
		return "closed"
	}
	return "UNKNOWN_PHASE_" + strconv.Itoa(int(p))
}

// Answer says what Conn.Handle answered a frame with.
type Answer uint8

// The answers of Conn.Handle.
const (
	// AnswerNone: nothing was appended (a dropped frame, an unusable
	// frame size, a closed connection).
	AnswerNone Answer = iota
	// AnswerReply: a Reply was appended (Outcome.Status).
	AnswerReply
	// AnswerEviction: an Eviction was appended (Outcome.Reason); the
	// connection is closed.
	AnswerEviction
)

// String returns "none", "reply", "eviction", or "UNKNOWN_ANSWER_N".
func (a Answer) String() string {
	switch a {
	case AnswerNone:
		return "none"
	case AnswerReply:
		return "reply"
	case AnswerEviction:
		return "eviction"
	}
	return "UNKNOWN_ANSWER_" + strconv.Itoa(int(a))
}

// Login is what one login request came to, or one BIND_SESSION (Bind).
type Login struct {
	// Username is the account a password login named, when the login
	// bound (nil otherwise): a token body whose context breaks the token
	// shape can still parse as a password login, with the token as its
	// username, so the name of a login that did not bind is not taken for
	// one. Like the Outcome, it is valid until the next Conn.Handle.
	Username []byte
	// Session and UserID are the login's, when it succeeded; UserID is
	// also the user whose credentials passed when ConnConfig.Admit
	// refused the binding.
	Session uint64 // the session bound
	UserID  uint32 // the user logged in as (or refused by Admit)
	// Result is the transient result code (57 or 58) the login was
	// answered with instead of being decided (Config.Transient); for a
	// BIND_SESSION, the status it was refused with; 0 otherwise.
	Result codec.Status
	// Reason is the eviction that refused the login; 0 when none.
	Reason codec.EvictionReason
	// OK: the login succeeded.
	OK bool
	// PAT: the credential checked was a personal access token
	// (LOGIN_REGISTER_WITH_PAT); otherwise a password, when one was.
	PAT bool
	// Throttled: the connection's Guard refused the credential check, so
	// the login was refused as a wrong credential is, unchecked.
	Throttled bool
	// Bind: the request was BIND_SESSION (code 15, WIRE.md section 10.4),
	// which binds the connection to an existing logical session with its
	// bind secret instead of checking credentials. OK, Session and UserID
	// say what it bound; Result the status that refused it.
	Bind bool
}

// Label is a short name of the login's outcome for metrics and logs, every
// one in the CamelCase of codec's names: "OK", "Throttled", the transient
// result's name ("TransientNotCommitted"), or the eviction reason's name
// ("InvalidCredentials"). It is one of a fixed set, so it is safe as a
// metrics label.
func (l Login) Label() string {
	switch {
	case l.OK:
		return "OK"
	case l.Throttled:
		return "Throttled"
	case l.Result != 0:
		return l.Result.String()
	}
	return l.Reason.String()
}

// ConnConfig configures one connection (Server.NewConnWith).
type ConnConfig struct {
	// Guard, if set, stands in front of every credential check of the
	// connection (a failed-login throttle).
	Guard Guard
	// Admit, if set, is asked once a login's credentials have passed and
	// before the connection is bound, with the user the login would bind.
	// A non-zero reason refuses the login with that eviction (a cap of
	// sessions per account, say); reason 14, which carries the window, and
	// values that are not reasons are sent as 12 (SessionError). Zero lets
	// the login bind. It runs on the goroutine that calls Handle before the
	// answer exists, so a transport that changes its own state there (the
	// connection now counts as logged in) has done so before any reply
	// can be written.
	Admit func(userID uint32) codec.EvictionReason
	// AdmitBind, if set, is asked instead of Admit for a BIND_SESSION
	// whose secret passed, with the logical session it resumes
	// (BindAdmission), so that a quota can tell a resumption of a session
	// it counted from a new session.
	// A non-zero reason refuses the bind with status 40 (WIRE.md section
	// 10.4, case h). Nil asks Admit with the user.
	AdmitBind func(b BindAdmission) codec.EvictionReason
}

// Guard decides whether a connection's credential check may run. A
// transport gives each connection its own (Server.NewConnWith); the Conn
// asks it from the goroutine that calls Handle, so a Guard needs no lock of
// its own for per-connection state.
type Guard interface {
	// Allow is asked before a credential check. When it returns false
	// the check does not run and the login is refused as a wrong
	// credential would be (Login.Throttled is set).
	Allow(a Attempt) bool
	// Checked is told, after a check that Allow let run, whether the
	// credentials were right.
	Checked(a Attempt, ok bool)
}

// Attempt is the credential check a Guard is asked about. Username
// aliases the frame and is valid only during the call; no secret is
// passed.
type Attempt struct {
	PAT      bool   // a personal access token check; otherwise a password check
	Username []byte // the account of a password check
}
