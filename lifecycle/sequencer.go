package lifecycle

import (
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"
	"math"

	"github.com/iggywire/iggywire/codec"
)

// Sentinels of the Sequencer. Like the others of the package, they match
// with errors.Is.
var (
	// ErrState: a Sequencer was built or bound with a value no state
	// allows (client id 0, request number 0, session 0).
	ErrState = errors.New("lifecycle: invalid sequencer state")
	// ErrNoReplay: Replay was called when the last answer was not a
	// transient one (57 or 58) to the request it would replay.
	ErrNoReplay = errors.New("lifecycle: no request to replay")
	// ErrBound: Bind was called while a session is bound already.
	ErrBound = errors.New("lifecycle: a session is bound already")
	// ErrExhausted: the request numbers of the client id ran out (the
	// next one would wrap to 0); only a new client id (Reset) goes on.
	ErrExhausted = errors.New("lifecycle: request numbers exhausted")
	// ErrEvicted: Sequencer.Receive read an Eviction. The connection has
	// ended; codec.DecodeEvictionLenient and Eviction.ErrFor say why.
	ErrEvicted = errors.New("lifecycle: evicted")
)

// Sequencer is the lower layer of the client side of the lifecycle: the
// client id, the session, the request numbers and the fence of one
// connection, and the replay of a request answered with a transient status.
// It writes request headers and correlates the headers of the answers; it
// never touches a payload, a body's bytes (but a login reply's result code)
// or a socket. An SDK transport drives it directly, and Client is built on
// it.
//
// Request numbers follow WIRE.md section 7, point 9: the watermark (Next)
// starts at 1 for each client id; a Register carries 0; NonReplicated
// requests and partition operations carry the watermark without consuming
// it; every other replicated operation (metadata, DeleteSegments, Logout)
// consumes it.
//
// The fence: one request is in flight at a time. Stamping another before
// the answer is ErrPending. An answer is correlated by client id and request
// number, never by operation (WIRE.md section 7, point 9). An answer with a
// transient status (57 TransientNotCommitted or 58 TransientNotAccepted, in
// the header or, for a login, in the result section) leaves the request
// replayable: Replay arms the fence again for the same request number, and
// the transport resends the identical bytes, which the server deduplicates
// by request number. Stamping a new request instead abandons it. A request
// that will never be answered (a timeout, a cancelled call) is dropped with
// Abandon.
//
// The fence holds for every operation, NonReplicated ones too, although
// WIRE.md does not forbid writing a request before the last one is
// answered: NonReplicated and partition requests all carry the watermark
// (point 9), so two of them in flight carry the same number, and a reply,
// correlated by client id and request number alone, cannot say which it
// answers; WIRE.md promises no order of answers, and a server drops some
// frames without any answer (section 7, points 7 and 8), after which
// matching answers by order would hand each caller another's reply. A
// transport that pipelines correlates by its own means (one connection,
// and so one Sequencer, per request in flight, or its own order-keeping
// over codec's headers); the Sequencer will not guess.
//
// A Sequencer is not safe for concurrent use. Its methods do not allocate
// but on the error paths. The zero Sequencer is not usable; get one from
// NewSequencer.
type Sequencer struct {
	client    codec.Uint128
	session   uint64
	next      uint64 // the watermark: the request number of the next non-login request
	request   uint64 // the in-flight (or replayable) request's number
	operation codec.Operation
	code      codec.Code
	phase     seqPhase
	transient codec.Status // 57 or 58 in phaseTransient
	// scratch is the header Stamp fills and hands to the codec; it is no
	// part of the state (State, restore and Reset ignore what it holds).
	scratch codec.RequestHeader
}

// seqPhase is where a Sequencer is between two requests.
type seqPhase uint8

const (
	phaseIdle      seqPhase = iota // nothing in flight
	phaseInFlight                  // a request awaits its answer
	phaseTransient                 // the answer was transient: Replay may re-arm the request
	phaseClosed                    // an eviction or a mismatch ended the connection: Reset
)

// SequencerState is a snapshot of a Sequencer, for tests, models and
// logs. It holds no secret.
type SequencerState struct {
	Client  codec.Uint128 // the client id every request carries
	Session uint64        // the bound session, 0 before Bind
	Next    uint64        // the watermark: the number the next non-login request carries
	Closed  bool          // an eviction or a mismatch ended the connection
	Pending bool          // a request awaits its answer
	// Request, Operation and Code describe the last request stamped while
	// it is pending or replayable (zero otherwise).
	Request   uint64
	Operation codec.Operation
	Code      codec.Code
	// Transient is 57 or 58 when the answer to the last request was
	// transient and Replay may resend it; 0 otherwise.
	Transient codec.Status
}

// NewSequencer returns a Sequencer of client id client (non-zero), with
// session bound (0 for none) and next as the watermark (>= 1; 1 for a new
// client id). Building one from an earlier State carries a logical session
// over to a new connection. A zero client or next is ErrState.
func NewSequencer(client codec.Uint128, session, next uint64) (*Sequencer, error) {
	s := new(Sequencer)
	if err := s.restore(client, session, next); err != nil {
		return nil, err
	}
	return s, nil
}

// restore sets s to a fresh connection of the given state.
func (s *Sequencer) restore(client codec.Uint128, session, next uint64) error {
	if client.IsZero() || next == 0 {
		return ErrState
	}
	*s = Sequencer{client: client, session: session, next: next}
	return nil
}

// NewClientID returns a random non-zero client id read from r, or from
// crypto/rand when r is nil. A source that fails, or that keeps returning
// zero, is ErrRandom.
func NewClientID(r io.Reader) (codec.Uint128, error) {
	if r == nil {
		r = rand.Reader
	}
	var b [16]byte
	for range maxMintTries {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return codec.Uint128{}, wrap(ErrRandom, err)
		}
		id := codec.Uint128{Lo: binary.LittleEndian.Uint64(b[:8]), Hi: binary.LittleEndian.Uint64(b[8:])}
		if !id.IsZero() {
			return id, nil
		}
	}
	return codec.Uint128{}, ErrRandom
}

// maxMintTries bounds the retries when the randomness source returns a zero
// id; crypto/rand makes a second try all but impossible.
const maxMintTries = 8

// State returns a snapshot of s.
func (s *Sequencer) State() SequencerState {
	st := SequencerState{Client: s.client, Session: s.session, Next: s.next,
		Closed: s.phase == phaseClosed, Pending: s.phase == phaseInFlight}
	if s.phase == phaseInFlight || s.phase == phaseTransient {
		st.Request, st.Operation, st.Code, st.Transient = s.request, s.operation, s.code, s.transient
	}
	return st
}

// Stamp writes the request header of code in front of a payload already in
// place: frame is the whole request, its first 256 bytes reserved for the
// header and the rest the body, which is never copied. The operation is
// codec.OperationForCode(code); the client id, session and request number
// are s's (WIRE.md section 7, point 9). It returns the request number
// stamped, which the answer echoes. The request is then in flight.
//
// It refuses, leaving frame and s unchanged: ErrClosed after an eviction or
// a mismatch (Reset first); ErrPending while a request is in flight;
// ErrNoSession for a replicated request (codec.Operation.IsReplicated: a
// metadata or partition operation, DeleteSegments, Logout) without a bound
// session; ErrExhausted when the watermark would wrap; a *codec.Error for
// a header the codec refuses (a frame shorter than a header or over
// 64 MiB, a NonReplicated code of 0).
func (s *Sequencer) Stamp(frame []byte, code codec.Code) (uint64, error) {
	h, err := s.header(codec.OperationForCode(code), code)
	if err != nil {
		return 0, err
	}
	if len(frame) < codec.HeaderSize || len(frame) > codec.MaxFrameSize {
		return 0, codec.PutRequestHeader(frame, *h) // the codec's own error for the length
	}
	// PutRequestHeader's work without its copy of h: h is s's scratch, so
	// its Size may be set here, and AppendBinary validates and writes.
	h.Size = uint32(len(frame))
	if _, err := h.AppendBinary(frame[:0:codec.HeaderSize]); err != nil {
		return 0, err
	}
	return s.sent(h), nil
}

// StampHeader is Stamp for a transport that keeps the header apart from
// the body: it writes the request header of code, for a body of bodyLen
// bytes, into hdr. A bodyLen below 0 or over 64 MiB less a header is a
// *codec.Error matching codec.ErrSize.
func (s *Sequencer) StampHeader(hdr *codec.Header, code codec.Code, bodyLen int) (uint64, error) {
	return s.stampHeader(hdr, codec.OperationForCode(code), code, bodyLen)
}

// stampHeader writes the header of op (with code for a NonReplicated
// request) into hdr.
func (s *Sequencer) stampHeader(hdr *codec.Header, op codec.Operation, code codec.Code, bodyLen int) (uint64, error) {
	if bodyLen < 0 || bodyLen > codec.MaxFrameSize-codec.HeaderSize {
		return 0, &codec.Error{Field: codec.FieldSize, Offset: 48, Want: "0 <= bodyLen <= 64 MiB - 256", Err: codec.ErrSize}
	}
	h, err := s.header(op, code)
	if err != nil {
		return 0, err
	}
	h.Size = uint32(codec.HeaderSize + bodyLen)
	if _, err := h.AppendBinary(hdr[:0]); err != nil {
		return 0, err
	}
	return s.sent(h), nil
}

// header fills s's scratch request header with the header of op that s
// would stamp now, Size unset, and returns it, or why s may not stamp it.
// The scratch lives in s, so that a stamp neither zeroes nor returns a
// RequestHeader (about 140 bytes) on each call: only the five fields a
// request varies in are written; the rest stay zero from the start.
func (s *Sequencer) header(op codec.Operation, code codec.Code) (*codec.RequestHeader, error) {
	switch s.phase {
	case phaseClosed:
		return nil, ErrClosed
	case phaseInFlight:
		return nil, ErrPending
	}
	h := &s.scratch
	h.Client, h.Operation, h.Code = s.client, op, 0
	switch op {
	case codec.OperationRegister:
		h.Request, h.Session = 0, 0
		return h, nil
	case codec.OperationNonReplicated:
		h.Code, h.Request, h.Session = code, s.next, s.session
		return h, nil
	}
	if s.session == 0 {
		return nil, ErrNoSession
	}
	if consumes(op) && s.next == math.MaxUint64 {
		return nil, ErrExhausted
	}
	h.Request, h.Session = s.next, s.session
	return h, nil
}

// consumes reports whether a request on op uses its request number up:
// every replicated operation but the partition ones.
func consumes(op codec.Operation) bool {
	switch op {
	case codec.OperationRegister, codec.OperationNonReplicated:
		return false
	}
	return !op.IsPartition()
}

// sent records h, just written, as the request in flight.
func (s *Sequencer) sent(h *codec.RequestHeader) uint64 {
	s.request, s.operation, s.code, s.transient = h.Request, h.Operation, h.Code, 0
	s.phase = phaseInFlight
	if h.Operation == codec.OperationRegister {
		s.session = 0 // a login replaces the binding, whatever it comes to
	} else if consumes(h.Operation) {
		s.next++
	}
	return h.Request
}

// Check reports, without changing s, whether hdr (a frame's header, read
// into a fixed array) answers the request in flight: nil for a Reply with
// its client id and request number, whatever its operation, and for an
// Eviction, whatever client id it carries (WIRE.md section 7, point 10).
// Otherwise an error matching ErrMismatch (another client id or request
// number, or nothing in flight), ErrMalformed (neither a Reply nor an
// Eviction), or ErrClosed.
func (s *Sequencer) Check(hdr *codec.Header) error {
	if s.phase == phaseClosed {
		return ErrClosed
	}
	switch hdr.Command() {
	case codec.CommandEviction:
		return nil
	case codec.CommandReply:
		return s.correlate(hdr.Reply())
	}
	return &malformedError{errNotAnswer}
}

// errNotAnswer is why a frame that is neither a Reply nor an Eviction is
// malformed for a client.
var errNotAnswer = errors.New("frame is neither a Reply nor an Eviction")

// Causes of an ErrMismatch.
var (
	errNothingPending = errors.New("no request is outstanding")
	errOtherClient    = errors.New("reply for another client id")
)

// correlate checks that r answers the request in flight.
func (s *Sequencer) correlate(r *codec.ReplyFields) error {
	switch {
	case s.phase != phaseInFlight:
		return wrap(ErrMismatch, errNothingPending)
	case r.Client() != s.client:
		return wrap(ErrMismatch, errOtherClient)
	case r.Request() != s.request:
		return mismatch("request", s.request, r.Request())
	}
	return nil
}

// Receive takes the answer to the request in flight: hdr is its header,
// read into a fixed array, and body its body, read apart (only a login
// reply's result section is looked at; nil will do for any other). It
// returns the answer's status: the header's, or for a login answered with
// status 0 the result code of its result section when that reads.
//
//   - For a Reply that Check accepts: status 0 or a denial ends the
//     request (an answered Logout unbinds the session); a transient status
//     (57 or 58) leaves it replayable (Replay). The error is nil: the
//     status is the server's answer, not a fault of the sequence.
//   - For an Eviction: ErrEvicted, with the status its reason maps to
//     (codec.EvictionReason.Status); s is closed.
//   - For anything Check refuses: its error; s is closed (but for
//     ErrClosed), and the transport must drop the connection.
func (s *Sequencer) Receive(hdr *codec.Header, body []byte) (codec.Status, error) {
	if err := s.Check(hdr); err != nil {
		if !errors.Is(err, ErrClosed) {
			s.close()
		}
		return 0, err
	}
	if hdr.Command() == codec.CommandEviction {
		s.close()
		return hdr.Eviction().Reason().Status(), ErrEvicted
	}
	status := hdr.Reply().Status()
	if status == codec.StatusOK && s.operation == codec.OperationRegister && len(body) > 0 {
		if _, code, err := codec.SplitResult(body); err == nil {
			status = code
		}
	}
	switch status {
	case codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted:
		s.phase, s.transient = phaseTransient, status
		return status, nil
	case codec.StatusOK:
		if s.operation == codec.OperationLogout {
			s.session = 0
		}
	}
	s.phase = phaseIdle
	return status, nil
}

// Replay arms the fence again for the request whose answer was transient
// (57 or 58), so that the answer to the identical bytes, resent by the
// transport, is accepted. It returns the request number, the one the
// bytes carry. Anything else is ErrNoReplay (ErrClosed on a closed s).
func (s *Sequencer) Replay() (uint64, error) {
	switch s.phase {
	case phaseTransient:
		s.phase, s.transient = phaseInFlight, 0
		return s.request, nil
	case phaseClosed:
		return 0, ErrClosed
	}
	return 0, ErrNoReplay
}

// Abandon forgets the request in flight, or the one waiting for Replay,
// for a transport that will never read its answer (a read timeout, a
// cancelled call): the next Stamp is no longer ErrPending. It returns the
// abandoned request's number and true, or 0 and false when nothing was in
// flight or replayable (a closed s included), so a transport's cleanup may
// call it whatever happened.
//
// The abandoned request's number stays used: no later request carries it.
// A request that consumed its number (metadata, DeleteSegments, Logout)
// already moved the watermark past it; a NonReplicated or partition
// request, which carries the watermark without consuming it, consumes it
// when abandoned in flight, so the next request carries the number after
// it. The server allows the gap: its client table executes any request
// number above the last one it saw ("watermark, not contiguity"). A late
// answer to the abandoned request, should the transport read one after
// all, then correlates with nothing: Receive reports ErrMismatch and
// closes s, and the transport drops the connection (WIRE.md section 7,
// point 9). Without that consumption, the late answer to an abandoned
// read would be taken for the answer to the next request carrying the
// same number.
//
// The server may still execute an abandoned request. A transport that
// goes on with the same client id on a new connection (NewSequencer with
// State's Client and Next) carries the consumed number over. When the
// watermark cannot move (it is at its maximum), s is closed instead, as
// for ErrExhausted: Reset.
func (s *Sequencer) Abandon() (uint64, bool) {
	switch s.phase {
	case phaseInFlight:
		if s.operation != codec.OperationRegister && !consumes(s.operation) && s.request == s.next {
			if s.next == math.MaxUint64 {
				request := s.request
				s.close()
				return request, true
			}
			s.next++
		}
	case phaseTransient:
		// The answer came (57 or 58): nothing is left to arrive, and the
		// number, never executed, need not be consumed.
	default:
		return 0, false
	}
	request := s.request
	s.phase, s.transient = phaseIdle, 0
	return request, true
}

// ConsumeRequest consumes a request number without stamping a request,
// as stamping a request that consumes one (a metadata operation) would: it
// returns the watermark and moves it on by one. It is for a transport that
// writes its headers itself and needs the number first (the Iggy Go SDK's
// NextRequestID); a transport that stamps through s never needs it. The
// server allows the gap a consumed number leaves unused (see Abandon). It
// is refused, leaving s unchanged, with ErrClosed on a closed s,
// ErrPending while a request is in flight (the fence: a number is taken
// for the next request, and there is one at a time), ErrNoSession without a
// bound session (a number is consumed only by replicated requests), and
// ErrExhausted when the watermark would wrap.
func (s *Sequencer) ConsumeRequest() (uint64, error) {
	switch {
	case s.phase == phaseClosed:
		return 0, ErrClosed
	case s.phase == phaseInFlight:
		return 0, ErrPending
	case s.session == 0:
		return 0, ErrNoSession
	case s.next == math.MaxUint64:
		return 0, ErrExhausted
	}
	n := s.next
	s.next++
	if s.phase == phaseTransient {
		s.phase, s.transient = phaseIdle, 0 // a new request abandons the replayable one, as Stamp does
	}
	return n, nil
}

// Bind binds session (non-zero; ErrState otherwise), read from the reply
// to a login or a BIND_SESSION, so that replicated requests carry it. It is
// refused with ErrClosed on a closed s, ErrPending while a request is in
// flight, and ErrBound while a session is bound (a login unbinds it when
// stamped, a Logout when answered).
func (s *Sequencer) Bind(session uint64) error {
	switch {
	case session == 0:
		return ErrState
	case s.phase == phaseClosed:
		return ErrClosed
	case s.phase == phaseInFlight:
		return ErrPending
	case s.session != 0:
		return ErrBound
	}
	s.session = session
	return nil
}

// Reset starts over with a new client id (non-zero; ErrState otherwise):
// no session, watermark 1, nothing in flight, open. It is what follows an
// eviction, a mismatch, or a login that must be re-issued with a new id.
func (s *Sequencer) Reset(client codec.Uint128) error {
	return s.restore(client, 0, 1)
}

// close ends the connection: nothing in flight, no session.
func (s *Sequencer) close() {
	s.phase, s.session, s.transient = phaseClosed, 0, 0
}
