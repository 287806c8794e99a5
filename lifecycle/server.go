package lifecycle

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/iggywire/iggywire/codec"
)

// Request is a command a Handler answers: a request of a logged-in
// connection that is neither a ping nor a logout nor a login. Header and Body
// alias the frame and are valid only during the call.
type Request struct {
	Header  codec.RequestHeader // the request's header
	Body    []byte              // the request's body, nil when empty
	UserID  uint32              // the user the connection is logged in as
	Session uint64              // the connection's bound session
}

// Handler answers the commands of a logged-in connection other than ping,
// logout and login: NonReplicated requests with any code but 1, 38 and 44,
// and replicated requests that passed the session fence. It returns the
// reply status and, for status 0 only, the reply body (a denial never
// carries a body, so the body of a non-zero status is ignored). The reply
// echoes the request's client id, request number and operation.
// A Handler must be safe for concurrent use.
type Handler func(req Request) (status codec.Status, body []byte)

// Deny is the default Handler: it refuses every command with status 3
// (InvalidCommand), as a login-only server does.
func Deny(Request) (codec.Status, []byte) { return codec.StatusInvalidCommand, nil }

// Config configures a Server.
type Config struct {
	// Window is the range of client protocol versions accepted; Window.Max
	// is the server's protocol version, sent in every login reply. It must
	// be well-formed (see codec.Window.Valid); codec.DefaultWindow gives
	// the usual one of a 0.11.0 server, codec.ServeWindow that of any
	// protocol (for 0.11.1, [0.11.1, 0.11.1] counting patch), and
	// codec.InclusiveWindow one that serves both revisions. A login is read
	// in the layout its own version selects (codec.RevisionOf), whatever
	// the window (WIRE.md section 10.5).
	Window codec.Window
	// Version is the server version text of the login reply: UTF-8, 1..255
	// bytes. Empty means Window.Max in text form.
	Version string
	// Auth checks credentials. Required.
	Auth Authenticator
	// Handler answers commands after login. Nil means Deny.
	Handler Handler
	// ConnIDEvictions makes evictions 1 (NoSession) and 13 (StaleClient)
	// carry the server's own id for the connection (Conn.ID) instead of
	// the request's client id, as the reference server does (WIRE.md
	// section 7, point 10), so that clients can be tested against both.
	// Off, every eviction echoes the request's client id (point 1).
	ConnIDEvictions bool
	// Transient answers the first Transient.Count Register requests with a
	// transient result code instead of deciding them, so that an SDK's
	// retry path can be tested. The zero value answers none so.
	Transient Transient
	// MaxSessions is how many logical sessions of 0.11.1 logins the server
	// keeps for BIND_SESSION (WIRE.md section 10.6); past it the oldest is
	// forgotten. 0 means DefaultMaxSessions; a negative value, or one above
	// MaxSessionsLimit, is an error. The memory grows with the sessions
	// held, up to this bound; none is taken up front.
	MaxSessions int
	// MaxUserSessions, when not 0, is how many of those logical sessions
	// one user keeps: a login past it forgets that user's oldest session,
	// never another user's, so that one account logging in over and over
	// cannot make the server forget everyone else's (MaxSessions still
	// bounds them all). 0 means no bound per user; a negative value is an
	// error. A server with one account for every client leaves it 0; a
	// server whose accounts are its tenants sets it at what one tenant
	// may resume, for instance a multiple of its per-account connection
	// quota.
	MaxUserSessions int
}

// Transient is a number of logins to answer with a transient result code
// (WIRE.md section 8): a Reply (operation Register, status 0) whose result
// section carries Status, before the body is looked at. The connection stays
// open and nothing is committed.
type Transient struct {
	// Status is codec.StatusTransientNotCommitted (57: replay the same
	// request) or codec.StatusTransientNotAccepted (58: re-issue it
	// anywhere).
	Status codec.Status
	// Count is how many Register requests, from the server's first on
	// any connection, are answered so.
	Count uint64
}

// Server holds the state every connection shares. It is safe for
// concurrent use.
type Server struct {
	window  codec.Window
	version []byte
	auth    Authenticator
	handler Handler
	// sessions is the last session handed out. Sessions stand for the
	// commit number of the login, so they start at 1 and only grow.
	sessions atomic.Uint64
	// conns is the last connection id handed out.
	conns           atomic.Uint64
	connIDEvictions bool
	transientCode   codec.Status
	// transientLeft counts down the logins still to answer transiently.
	transientLeft atomic.Uint64
	// logical returns the table of the logical sessions of bind-secret
	// logins, which BIND_SESSION binds new connections to. It is a func,
	// not the pointer: reflection-based printers and comparers (pretty,
	// go-cmp, testify's diffs) walk unexported fields and follow pointers,
	// and would print the verifiers' key and the verifiers; a func they
	// print as an address, and what it captured stays out of reach.
	logical func() *sessionTable
}

// Configuration errors of NewServer.
var (
	errWindow       = errors.New("lifecycle: config: window is not well-formed (1 <= min <= max)")
	errNoAuth       = errors.New("lifecycle: config: no Authenticator")
	errVersion      = errors.New("lifecycle: config: server version must be UTF-8 of 1..255 bytes")
	errTransient    = errors.New("lifecycle: config: a transient login code must be 57 or 58")
	errUserSessions = errors.New("lifecycle: config: MaxUserSessions must not be negative")
	errSessions     = fmt.Errorf("lifecycle: config: MaxSessions must be 0 (the default, %d) or 1..%d", DefaultMaxSessions, MaxSessionsLimit)
)

// NewServer checks cfg and returns a Server.
func NewServer(cfg Config) (*Server, error) {
	if !cfg.Window.IsValid() {
		return nil, errWindow
	}
	if cfg.Auth == nil {
		return nil, errNoAuth
	}
	if cfg.Version == "" {
		cfg.Version = cfg.Window.Max.String()
	}
	probe := codec.LoginReply{Session: 1, ServerVersion: []byte(cfg.Version)}
	if probe.Validate() != nil {
		return nil, errVersion
	}
	if cfg.Transient.Count > 0 && cfg.Transient.Status != codec.StatusTransientNotCommitted &&
		cfg.Transient.Status != codec.StatusTransientNotAccepted {
		return nil, errTransient
	}
	if cfg.Handler == nil {
		cfg.Handler = Deny
	}
	switch {
	case cfg.MaxSessions < 0 || cfg.MaxSessions > MaxSessionsLimit:
		return nil, errSessions
	case cfg.MaxSessions == 0:
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxUserSessions < 0 {
		return nil, errUserSessions
	}
	table, err := newSessionTable(cfg.MaxSessions, cfg.MaxUserSessions)
	if err != nil {
		return nil, err
	}
	logical := func() *sessionTable { return table }
	s := &Server{window: cfg.Window, version: probe.ServerVersion, auth: cfg.Auth, handler: cfg.Handler,
		connIDEvictions: cfg.ConnIDEvictions, transientCode: cfg.Transient.Status, logical: logical}
	s.transientLeft.Store(cfg.Transient.Count)
	return s, nil
}

// Format implements fmt.Formatter: every verb prints the window, the
// version and the sessions handed out, never the Authenticator, whose
// secrets fmt would otherwise reach through the unexported field.
func (s *Server) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "lifecycle.Server{window %v, version %q, sessions %d}", s.window, s.version, s.sessions.Load())
}

// String is Format's summary, for callers that ask for a Stringer.
func (s *Server) String() string { return fmt.Sprint(s) }

// Window returns the accept window.
func (s *Server) Window() codec.Window { return s.window }

// NewConn returns the state machine of one new connection, with the next
// connection id (1, 2, 3, ... in the order NewConn and NewConnWith hand
// them out).
func (s *Server) NewConn() *Conn { return s.NewConnWith(ConnConfig{}) }

// NewConnWith is NewConn for a connection configured by cfg (a Guard in
// front of its credential checks, an Admit hook before each binding).
func (s *Server) NewConnWith(cfg ConnConfig) *Conn {
	return &Conn{srv: s, id: codec.Uint128{Lo: s.conns.Add(1)}, guard: cfg.Guard, admit: cfg.Admit}
}

// nextSession returns a session higher than every one handed out before.
func (s *Server) nextSession() uint64 { return s.sessions.Add(1) }

// ID returns the server's own id for the connection: non-zero, and
// distinct from every other Conn of the same Server. Evictions 1 and 13
// carry it when Config.ConnIDEvictions is set.
func (c *Conn) ID() codec.Uint128 { return c.id }

// evictionClient returns the client id e goes out with: the connection's
// own id for evictions 1 and 13 when the server answers as the reference
// does, else e's, the request's.
func (c *Conn) evictionClient(e codec.Eviction) codec.Uint128 {
	if c.srv.connIDEvictions && (e.Reason == codec.ReasonNoSession || e.Reason == codec.ReasonStaleClient) {
		return c.id
	}
	return e.Client
}

// takeTransient reports whether this login is one of the first
// Transient.Count, and with which code to answer it.
func (s *Server) takeTransient() (codec.Status, bool) {
	for {
		n := s.transientLeft.Load()
		if n == 0 {
			return 0, false
		}
		if s.transientLeft.CompareAndSwap(n, n-1) {
			return s.transientCode, true
		}
	}
}

// transientLogin appends the transient answer to the Register request h:
// a Reply (operation Register, request 0, status 0, h's client id and
// request checksum) whose body is a result section of one entry, index 0
// and result code (WIRE.md section 4). Nothing changes on the connection.
func transientLogin(out []byte, h *codec.RequestHeader, code codec.Status, o *Outcome) ([]byte, error) {
	o.Answer, o.Status = AnswerReply, codec.StatusOK
	var section [12]byte
	binary.LittleEndian.PutUint32(section[0:], 1) // count
	binary.LittleEndian.PutUint32(section[4:], 0) // index
	binary.LittleEndian.PutUint32(section[8:], uint32(code))
	return codec.AppendReplyFrame(out, codec.ReplyHeader{
		RequestChecksum: h.RequestChecksum,
		Client:          h.Client,
		Request:         h.Request,
		Operation:       codec.OperationRegister,
	}, section[:])
}
