package lifecycle

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"

	"github.com/iggywire/iggywire/codec"
)

// ClientConfig configures a Client.
type ClientConfig struct {
	// SDKName and SDKVersion identify the SDK in every login body: UTF-8,
	// 1..255 bytes each (e.g. "go-sdk", "0.1.0").
	SDKName, SDKVersion string
	// Protocol is the protocol version the client speaks, which also
	// selects the layout of its login bodies (codec.RevisionOf, WIRE.md
	// section 10.1). Zero means 0.11.0, the seed's protocol. 0.11.1
	// (codec.Protocol0111) sends the bind-secret layout, with a fresh
	// 32-byte secret per logical session, and lets BindSession resume the
	// session on a new connection.
	Protocol codec.Version
	// Rand is the source of client ids and bind secrets. Nil means
	// crypto/rand.Reader; tests pass a deterministic reader.
	Rand io.Reader
}

// Client is the client side of the connection lifecycle: it builds request
// frames with the right client id, session and request number, and reads
// the Reply or Eviction that answers each. It never touches a socket. A
// Client is not safe for concurrent use, and it allows one outstanding
// request at a time, as the SDKs do.
//
// It is built on a Sequencer, which keeps the client id, the session, the
// request numbers and the fence; the Client adds the login bodies, the
// decoding of whole frames and what each answer means. Request numbers
// follow WIRE.md section 7, point 9: the watermark starts at 1 for each
// client id; a Register carries 0; NonReplicated requests and partition
// operations carry the watermark without consuming it; every other
// replicated operation (metadata, DeleteSegments, Logout) consumes it (1,
// 2, 3, ...).
//
// Against a real Iggy server the Client reads the wire as the reference
// writes it (WIRE.md section 7, points 9 and 10): it correlates a reply by
// request number and client id, not by operation, and accepts an eviction
// whatever non-zero client id it carries.
//
// A request answered with a transient status (57 or 58) stays the
// Client's: Replay lets the identical bytes be resent and their answer be
// read; building another request instead abandons it.
//
// At protocol 0.11.1 (ClientConfig.Protocol) each login starts a logical
// session with its own bind secret, which outlives the connection:
// BindSession resumes it on a new connection (WIRE.md section 10).
//
// The zero Client is not usable; get one from NewClient.
type Client struct {
	info   codec.ClientVersionInfo
	rev    codec.Revision // the layout of the login bodies, by info.Protocol
	rand   io.Reader
	seq    Sequencer
	idUsed bool // a Register was built with the id, or the connection ended: the next login mints a new id
	userID uint32
	// The logical session of protocol 0.11.1, which outlives a connection
	// (WIRE.md section 10.3): the bind secret of the last login (minted
	// with each new client id; a Secret, so that no print of a Client
	// shows it), and the session that login or a bind got.
	secret  codec.Secret
	resume  bool   // a bind-secret login was sent and its logical session has not ended
	logical uint64 // the logical session's session, 0 until a reply said it
	// waits counts the transient answers (57, 58) in a row to binds of
	// session 0 since the login; at maxSessionZeroWaits the Client gives
	// the logical session up (BindSession).
	waits int
}

// ClientState is a snapshot of a Client, for tests and models.
type ClientState struct {
	Closed    bool          // an eviction or a bad frame ended the connection
	Client    codec.Uint128 // the current client id
	Session   uint64        // the session of the current login, 0 when not logged in
	UserID    uint32        // the logged-in user, 0 when not logged in
	Watermark uint64        // the request number the next non-login request carries
	Pending   bool          // a request awaits its answer
	// Replay: the last request was answered with a transient status (57 or
	// 58), and Replay may resend it.
	Replay bool
	// Resumable: BindSession can resume the logical session on a new
	// connection (protocol 0.11.1): a login with a bind secret was sent
	// (its reply may have been lost) and no logout, eviction, refusal or
	// new login ended that session since, nor did the Client give up
	// waiting for it (MaxSessionZeroWaits).
	Resumable bool
}

// defaultProtocol is 0.11.0, the seed's protocol.
const defaultProtocol = codec.Protocol0110

// NewClient checks cfg and returns a Client with a freshly minted client id.
func NewClient(cfg ClientConfig) (*Client, error) {
	if cfg.Protocol == 0 {
		cfg.Protocol = defaultProtocol
	}
	if cfg.Rand == nil {
		cfg.Rand = rand.Reader
	}
	info := codec.ClientVersionInfo{Protocol: cfg.Protocol, SDKName: []byte(cfg.SDKName), SDKVersion: []byte(cfg.SDKVersion)}
	if err := info.Validate(); err != nil {
		return nil, err
	}
	c := &Client{info: info, rev: codec.RevisionOf(info.Protocol), rand: cfg.Rand}
	id, err := NewClientID(c.rand)
	if err != nil {
		return nil, err
	}
	_ = c.seq.restore(id, 0, 1) // id is not zero
	return c, nil
}

// State returns a snapshot of c.
func (c *Client) State() ClientState {
	s := c.seq.State()
	return ClientState{Closed: s.Closed, Client: s.Client, Session: s.Session, UserID: c.userID,
		Watermark: s.Next, Pending: s.Pending, Replay: s.Transient != 0, Resumable: c.resume}
}

// ID returns the current client id.
func (c *Client) ID() codec.Uint128 { return c.seq.client }

// Session returns the session of the current login, or 0.
func (c *Client) Session() uint64 { return c.seq.session }

// Closed reports whether the connection has ended: the transport must
// close it, and only a login or, at 0.11.1, a BindSession (on a new
// connection) opens the client again.
func (c *Client) Closed() bool { return c.seq.phase == phaseClosed }

// Login appends a LOGIN_REGISTER request (operation Register, request 0,
// session 0) to dst, in the layout of the client's protocol (WIRE.md
// sections 3 and 10.2). The first login uses the client id the client was
// created with, unless the client was closed; every later one mints a new
// id, since a re-login is a new client (after a transient 57 it keeps it:
// see TransientError.Replay). At 0.11.1 each new client id starts a new
// logical session with a fresh bind secret; the same id keeps its secret,
// so that a login retried after 57 is the same bytes. Login also opens a
// closed client. On error dst is unchanged.
func (c *Client) Login(dst, username []byte, password codec.Secret) ([]byte, error) {
	return c.register(dst, func(b []byte, secret codec.Secret) ([]byte, error) {
		return codec.LoginRegister{Info: c.info, Revision: c.rev, BindSecret: secret, Username: username, Password: password}.AppendBinary(b)
	})
}

// LoginPAT appends a LOGIN_REGISTER_WITH_PAT request; see Login.
func (c *Client) LoginPAT(dst []byte, token codec.Secret) ([]byte, error) {
	return c.register(dst, func(b []byte, secret codec.Secret) ([]byte, error) {
		return codec.LoginRegisterPAT{Info: c.info, Revision: c.rev, BindSecret: secret, Token: token}.AppendBinary(b)
	})
}

// register appends a Register request whose body is written by
// appendBody with the bind secret of the login's logical session (none
// before 0.11.1), which validates it; on any error dst and the client are
// unchanged.
func (c *Client) register(dst []byte, appendBody func([]byte, codec.Secret) ([]byte, error)) ([]byte, error) {
	if c.seq.phase == phaseInFlight {
		return dst, ErrPending
	}
	id := c.seq.client
	if c.idUsed {
		var err error
		if id, err = NewClientID(c.rand); err != nil {
			return dst, err
		}
	}
	secret := c.secret
	if c.rev == codec.RevisionBindSecret && (id != c.seq.client || secret.IsZero()) {
		var err error
		if secret, err = newBindSecret(c.rand); err != nil {
			return dst, err
		}
	}
	out, err := appendBody(append(dst, zeroHeader[:]...), secret)
	if err != nil {
		return dst, err
	}
	seq := c.seq
	if id != seq.client {
		_ = seq.restore(id, 0, 1) // id is not zero
	} else if seq.phase == phaseClosed {
		_ = seq.restore(id, seq.session, seq.next)
	}
	if _, err := seq.stampHeader((*codec.Header)(out[len(dst):]), codec.OperationRegister, 0, len(out)-len(dst)-codec.HeaderSize); err != nil {
		return dst, err
	}
	c.seq, c.idUsed, c.userID = seq, true, 0
	c.secret, c.resume, c.logical, c.waits = secret, c.rev == codec.RevisionBindSecret, 0, 0
	return out, nil
}

// zeroHeader is the room a request's header takes before it is stamped.
var zeroHeader [codec.HeaderSize]byte

// Ping appends a PING request (NonReplicated, code 1). It is the one
// command served before login.
func (c *Client) Ping(dst []byte) ([]byte, error) {
	return c.Request(dst, codec.CodePing, nil)
}

// Request appends a request for code with body, on the operation
// codec.OperationForCode gives (WIRE.md section 6):
//
//   - a replicated client command (CreateStream 202, SendMessages 101, ...)
//     rides its own operation, as Replicated builds it: it needs a session
//     (ErrNoSession) and its code does not travel in the header;
//   - logout (39) is Logout, whose body is empty (ErrOperation otherwise);
//   - the logins (40, 45) are ErrOperation: Login and LoginPAT build
//     them;
//   - every other code rides NonReplicated with the code in the header, the
//     current session (0 before login) and the watermark, not consumed.
//
// On error dst is unchanged.
func (c *Client) Request(dst []byte, code codec.Code, body []byte) ([]byte, error) {
	switch op := codec.OperationForCode(code); op {
	case codec.OperationNonReplicated:
		return c.build(dst, op, code, body)
	case codec.OperationRegister:
		return dst, wrap(ErrOperation, errLoginCode)
	case codec.OperationLogout:
		if len(body) != 0 {
			return dst, wrap(ErrOperation, errLogoutBody)
		}
		return c.Logout(dst)
	default:
		return c.Replicated(dst, op, body)
	}
}

// Causes of an ErrOperation from Request.
var (
	errLoginCode  = errors.New("a login is built by Login or LoginPAT")
	errLogoutBody = errors.New("a logout carries no body")
)

// Logout appends a LOGOUT_USER request (operation Logout, empty body),
// consuming the watermark. It needs a session (ErrNoSession).
func (c *Client) Logout(dst []byte) ([]byte, error) {
	if err := c.needSession(); err != nil {
		return dst, err
	}
	return c.build(dst, codec.OperationLogout, 0, nil)
}

// Replicated appends a request for the operation of a replicated client
// command (128..149 and 160..162, WIRE.md section 6): a partition operation
// carries the watermark without consuming it, every other one (DeleteSegments
// included) consumes it. It needs a session (ErrNoSession); any other
// operation (Register, NonReplicated, Logout, the internal ones) is
// ErrOperation.
func (c *Client) Replicated(dst []byte, op codec.Operation, body []byte) ([]byte, error) {
	if !clientReplicated(op) {
		return dst, ErrOperation
	}
	if err := c.needSession(); err != nil {
		return dst, err
	}
	return c.build(dst, op, 0, body)
}

// clientReplicated reports whether op is the operation of a replicated
// client command: one that stands for a code, other than Logout.
func clientReplicated(op codec.Operation) bool {
	_, ok := op.Code()
	return ok && op != codec.OperationLogout
}

// needSession is the check of every replicated request: a closed client
// builds nothing, and one without a session no replicated request.
func (c *Client) needSession() error {
	switch {
	case c.seq.phase == phaseClosed:
		return ErrClosed
	case c.seq.session == 0:
		return ErrNoSession
	}
	return nil
}

// build appends a non-login request: a header stamped by the sequencer in
// front of body.
func (c *Client) build(dst []byte, op codec.Operation, code codec.Code, body []byte) ([]byte, error) {
	switch c.seq.phase {
	case phaseClosed:
		return dst, ErrClosed
	case phaseInFlight:
		return dst, ErrPending
	}
	if len(body) > codec.MaxFrameSize-codec.HeaderSize {
		// refused before the copy, with the error the header's own size
		// rule gives
		_, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: c.seq.client, Operation: op, Code: code,
			Request: c.seq.next, Session: c.seq.session}, body)
		return dst, err
	}
	out := append(append(dst, zeroHeader[:]...), body...)
	if _, err := c.seq.stampHeader((*codec.Header)(out[len(dst):]), op, code, len(body)); err != nil {
		return dst, err
	}
	return out, nil
}

// Replay re-arms the request whose answer was transient (57 or 58: a
// denial, or a login's result code), so that the transport may resend the
// identical bytes it sent, on the same connection, and Receive accept their
// answer: the server deduplicates the request by its number. Anything else
// is ErrNoReplay (ErrClosed on a closed client).
func (c *Client) Replay() error {
	_, err := c.seq.Replay()
	return err
}

// Response is what Receive read from a Reply.
type Response struct {
	// Operation is the operation the reply carries. It may differ from the
	// request's: the reference answers DeleteSegments (138) under
	// TruncatePartition (68), for one (WIRE.md section 7, point 9).
	Operation codec.Operation
	Request   uint64       // the echoed request number
	Status    codec.Status // 0, or the status of a denial
	// Body is the reply body; for a login, the login reply after the
	// result section. It aliases the frame.
	Body []byte
	// Login is the decoded login reply of a successful login (its
	// ServerVersion aliases the frame), zero otherwise.
	Login codec.LoginReply
}

// Receive reads the frame that answers the outstanding request: a Reply or
// an Eviction. A Reply answers the outstanding request when its client id
// and request number match; its operation may differ (WIRE.md section 7,
// point 9), and the request sent, not the reply's operation, decides what
// the reply means. It returns:
//
//   - nil after a successful Reply; after a login the client stores the
//     session and user id, after a logout it forgets them.
//   - the *codec.IggyError of a denial Reply's status (status != 0) or of
//     a non-zero result of a login reply (Response.Status says it too); the
//     client stays open. A transient result of a login (57 or 58) is a
//     *TransientError saying how the login may be retried. After a
//     transient status (57 or 58), of a login or of any denial, the
//     request may be replayed (Replay).
//   - for an Eviction, whatever non-zero client id it carries (the
//     reference puts its own id for the connection on evictions 1 and 13,
//     WIRE.md section 7, point 10), what it means (codec.Eviction.Err: a
//     *codec.IggyError, or a *codec.IncompatibleProtocolError carrying the
//     server's window and the version this client sent; reason 14 with an
//     ill-formed window is codec.StatusUnauthenticated as WIRE.md section 8
//     says); the client is closed until the next login.
//   - an error matching ErrMismatch (another client id or request number,
//     or nothing outstanding), ErrMalformed (a frame that does not decode,
//     a login reply without a valid session included) or codec.ErrSize; the
//     client is closed, and the transport must drop the connection.
//   - ErrClosed on a closed client.
//
// The answer to a BIND_SESSION is read as BindSession says.
func (c *Client) Receive(frame []byte) (Response, error) {
	if c.Closed() {
		return Response{}, ErrClosed
	}
	if err := checkFrame(frame); err != nil {
		return Response{}, c.fail(err)
	}
	hdr := (*codec.Header)(frame)
	switch cmd := hdr.Command(); cmd {
	case codec.CommandEviction:
		return Response{}, c.evicted(frame)
	case codec.CommandReply:
		return c.reply(hdr, frame)
	default:
		return Response{}, c.fail(&malformedError{errors.New(errNotAnswer.Error() + ": " + cmd.String())})
	}
}

// evicted reads an eviction. Its client id is not checked against ours:
// the eviction ends the connection whoever it names, and the reference
// names its own id for the connection on evictions 1 and 13.
func (c *Client) evicted(frame []byte) error {
	e, err := codec.DecodeEvictionLenient(frame)
	if err != nil && !(e.Reason == codec.ReasonIncompatibleProtocol && errors.Is(err, codec.ErrWindow)) {
		// reason 14 with an ill-formed window still has a meaning
		// (WIRE.md section 8); any other broken rule is a malformed frame
		return c.fail(&malformedError{err})
	}
	c.fail(nil)
	c.resume = false                 // an eviction is session-terminal (WIRE.md section 5)
	return e.ErrFor(c.info.Protocol) // the version every login of c sends
}

func (c *Client) reply(hdr *codec.Header, frame []byte) (Response, error) {
	var h codec.ReplyHeader // decoded in place: no copy of the value
	if err := h.Decode(frame); err != nil {
		return Response{}, c.fail(&malformedError{err})
	}
	sent, code := c.seq.operation, c.seq.code
	body := frame[codec.HeaderSize:]
	if _, err := c.seq.Receive(hdr, body); err != nil {
		return Response{}, c.fail(err)
	}
	r := Response{Operation: h.Operation, Request: h.Request, Status: h.Status}
	if len(body) > 0 {
		r.Body = body
	}
	if sent == codec.OperationNonReplicated && code == codec.CodeBindSession {
		return c.bound(r)
	}
	if h.Status != codec.StatusOK {
		r.Body = nil
		if sent == codec.OperationRegister && h.Status != codec.StatusTransientNotCommitted {
			c.resume = false // the login was refused, or not accepted: no logical session
		}
		return r, h.Status.Err()
	}
	switch sent {
	case codec.OperationRegister:
		return c.loggedIn(r)
	case codec.OperationLogout:
		// the sequencer has unbound the session; the logical session has
		// ended for every connection (WIRE.md section 10.4)
		c.userID, c.resume = 0, false
	}
	return r, nil
}

// loggedIn strips the result section of a login reply and stores the
// session.
func (c *Client) loggedIn(r Response) (Response, error) {
	payload, code, err := codec.SplitResult(r.Body)
	if err != nil {
		return Response{}, c.fail(&malformedError{err})
	}
	if code != codec.StatusOK {
		r.Body, r.Status = nil, code
		return r, c.loginRefused(code)
	}
	// Strict, as the conformance vectors decide (WIRE.md sections 3 and 4):
	// a byte after the login reply makes the reply malformed.
	login, err := codec.ParseLoginReply(payload)
	if err != nil {
		return Response{}, c.fail(&malformedError{err})
	}
	if err := c.seq.Bind(login.Session); err != nil { // ParseLoginReply refuses a session 0
		return Response{}, c.fail(&malformedError{err})
	}
	r.Body, r.Login = payload, login
	c.userID = login.UserID
	c.logical = login.Session
	return r, nil
}

// loginRefused is what a login reply with a non-zero result code means. The
// transient codes of WIRE.md section 8 are a *TransientError; after 57 the
// next login keeps the client id, so that it is the same request, replayed.
func (c *Client) loginRefused(code codec.Status) error {
	switch code {
	case codec.StatusTransientNotCommitted:
		c.idUsed = false
		return &TransientError{Status: code}
	case codec.StatusTransientNotAccepted:
		// nothing was committed: no logical session to resume
		c.resume = false
		return &TransientError{Status: code}
	}
	c.resume = false
	return code.Err()
}

// fail closes the client and returns err. The logical session outlives
// the connection: BindSession may resume it on a new one.
func (c *Client) fail(err error) error {
	c.seq.close()
	c.idUsed, c.userID = true, 0
	return err
}

// malformedError is a frame from the server that does not decode. It
// matches ErrMalformed and codec.StatusInvalidCommand (what an SDK maps a
// malformed reply to), and unwraps to the cause.
type malformedError struct{ cause error }

// Error returns "lifecycle: malformed frame: CAUSE".
func (e *malformedError) Error() string { return ErrMalformed.Error() + ": " + e.cause.Error() }

// Is reports whether target is ErrMalformed or the *codec.IggyError of
// StatusInvalidCommand.
func (e *malformedError) Is(target error) bool {
	if t, ok := target.(*codec.IggyError); ok {
		return t.Status == codec.StatusInvalidCommand
	}
	return target == ErrMalformed
}

// Unwrap returns the decoding error.
func (e *malformedError) Unwrap() error { return e.cause }

// Format implements fmt.Formatter: every verb prints the client id, the
// protocol, the session and whether the logical session can be resumed,
// never the bind secret nor the randomness source, which fmt would
// otherwise reach through the unexported fields. It has a value receiver,
// so that a Client printed by value is covered too.
func (c Client) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "lifecycle.Client{client %v, protocol %v, session %d, watermark %d, resumable %t}",
		c.seq.client, c.info.Protocol, c.seq.session, c.seq.next, c.resume)
}

// String is Format's summary, for callers that ask for a Stringer.
func (c Client) String() string { return fmt.Sprint(c) }
