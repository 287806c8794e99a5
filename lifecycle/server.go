package lifecycle

import (
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/iggywire/iggywire/codec"
)

// Request is a command a Handler answers: a request of a logged-in
// connection that is neither a ping nor a logout nor a login. Header and Body
// alias the frame and are valid only during the call.
type Request struct {
	Header  codec.RequestHeader
	Body    []byte
	UserID  uint32 // the user the connection is logged in as
	Session uint64 // the connection's bound session
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
	// the usual one.
	Window codec.Window
	// Version is the server version text of the login reply: UTF-8, 1..255
	// bytes. Empty means Window.Max in text form.
	Version string
	// Auth checks credentials. Required.
	Auth Authenticator
	// Handler answers commands after login. Nil means Deny.
	Handler Handler
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
}

// Configuration errors of NewServer.
var (
	errWindow  = errors.New("lifecycle: config: window is not well-formed (1 <= min <= max)")
	errNoAuth  = errors.New("lifecycle: config: no Authenticator")
	errVersion = errors.New("lifecycle: config: server version must be UTF-8 of 1..255 bytes")
)

// NewServer checks cfg and returns a Server.
func NewServer(cfg Config) (*Server, error) {
	if !cfg.Window.Valid() {
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
	if cfg.Handler == nil {
		cfg.Handler = Deny
	}
	return &Server{window: cfg.Window, version: probe.ServerVersion, auth: cfg.Auth, handler: cfg.Handler}, nil
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

// NewConn returns the state machine of one new connection.
func (s *Server) NewConn() *Conn { return &Conn{srv: s} }

// nextSession returns a session higher than every one handed out before.
func (s *Server) nextSession() uint64 { return s.sessions.Add(1) }
