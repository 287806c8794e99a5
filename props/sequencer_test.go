package props

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Sequencer property: random sequences of stamps, answers (matching,
// for another request or client id, evictions, with statuses 0, 3, 57 and
// 58), replays, binds and resets against a lifecycle.Sequencer, each
// compared with a model of WIRE.md section 7, point 9 (request numbers) and
// the fence: the error each call returns, the header each stamp writes, and
// the whole state after it.

// seqPhase is the model's phase of the sequencer.
type seqPhase uint8

const (
	seqIdle seqPhase = iota
	seqInFlight
	seqTransient
	seqClosed
)

// seqModel is the model state. It is a value: NextState returns a copy.
type seqModel struct {
	client    codec.Uint128
	session   uint64
	next      uint64
	phase     seqPhase
	request   uint64
	op        codec.Operation
	code      codec.Code
	transient codec.Status
	// want is what the last command must have returned.
	want seqWant
}

// seqWant is the outcome the model predicts for one call.
type seqWant struct {
	err     error                // the sentinel the error must match, nil for none
	value   uint64               // the request number (Stamp, Replay)
	status  codec.Status         // Receive's status
	header  *codec.RequestHeader // the header a successful stamp writes
	checked bool                 // Receive: Check was called first and must agree
}

// state is what lifecycle.Sequencer.State must report for m.
func (m *seqModel) state() lifecycle.SequencerState {
	st := lifecycle.SequencerState{Client: m.client, Session: m.session, Next: m.next,
		Closed: m.phase == seqClosed, Pending: m.phase == seqInFlight}
	if m.phase == seqInFlight || m.phase == seqTransient {
		st.Request, st.Operation, st.Code, st.Transient = m.request, m.op, m.code, m.transient
	}
	return st
}

// seqStart is every sequence's first state: client 1, not logged in.
var seqStart = seqModel{client: codec.Uint128{Lo: 1}, next: 1}

// seqSUT is the sequencer under test. replayRestamps plants a bug: Replay
// stamps the request anew, as a client that rebuilds its request after a
// transient answer would.
type seqSUT struct {
	s              *lifecycle.Sequencer
	replayRestamps bool
	last           codec.Code
	replayed       bool // the request in flight is a replay
	seen           *seqSeen
}

// seqSeen tallies what the sequences reached, so that the property is not
// vacuous: replays that were accepted, and answers to them.
type seqSeen struct{ replays, replayAnswers, binds, stamped int }

// seqResult is what one command observed.
type seqResult struct {
	value    uint64
	status   codec.Status
	err      error
	checkErr error
	frame    []byte
	state    lifecycle.SequencerState
}

// seqPayload is the body behind every stamped header: a stamp never
// touches it.
const seqPayload = "payload"

// seqStamp stamps a request of Code.
type seqStamp struct{ Code codec.Code }

func (c seqStamp) String() string { return fmt.Sprintf("Stamp(%d)", c.Code) }

func (c seqStamp) Run(sut commands.SystemUnderTest) commands.Result {
	u := sut.(*seqSUT)
	frame := append(make([]byte, codec.HeaderSize), seqPayload...)
	v, err := u.s.Stamp(frame, c.Code)
	if err == nil {
		u.last = c.Code
		u.seen.stamped++
	}
	return seqResult{value: v, err: err, frame: frame, state: u.s.State()}
}

func (c seqStamp) NextState(s commands.State) commands.State {
	m := *s.(*seqModel)
	m.want = seqWant{}
	op := codec.OperationForCode(c.Code)
	switch {
	case m.phase == seqClosed:
		m.want.err = lifecycle.ErrClosed
		return &m
	case m.phase == seqInFlight:
		m.want.err = lifecycle.ErrPending
		return &m
	case op != codec.OperationRegister && op != codec.OperationNonReplicated && m.session == 0:
		m.want.err = lifecycle.ErrNoSession
		return &m
	}
	h := codec.RequestHeader{Size: uint32(codec.HeaderSize + len(seqPayload)), Client: m.client, Operation: op}
	switch op {
	case codec.OperationRegister:
		m.session = 0
	case codec.OperationNonReplicated:
		h.Code, h.Request, h.Session = c.Code, m.next, m.session
	default:
		h.Request, h.Session = m.next, m.session
		if !op.IsPartition() {
			m.next++
		}
	}
	m.phase, m.request, m.op, m.code, m.transient = seqInFlight, h.Request, op, h.Code, 0
	m.want.value, m.want.header = h.Request, &h
	return &m
}

// seqReceive answers the request in flight: Kind says how the answer is
// addressed, Status what it says (for a login, in the result section).
type seqReceive struct {
	Kind   seqAnswer
	Status codec.Status
}

// seqAnswer is how a seqReceive's answer is addressed.
type seqAnswer uint8

const (
	seqMatch seqAnswer = iota
	seqOtherRequest
	seqOtherClient
	seqEvict
	seqAnswerKinds
)

var seqAnswerNames = [seqAnswerKinds]string{"match", "other-request", "other-client", "evict"}

func (k seqAnswer) String() string { return seqAnswerNames[k] }

func (c seqReceive) String() string { return fmt.Sprintf("Receive(%v, %d)", c.Kind, c.Status) }

// frame is the answer's header and body for the sequencer's state st.
func (c seqReceive) frame(st lifecycle.SequencerState) (*codec.Header, []byte) {
	var h codec.Header
	if c.Kind == seqEvict {
		e := codec.Eviction{Client: codec.Uint128{Lo: 0xE}, Reason: codec.ReasonSessionTooLow}
		_, _ = e.AppendBinary(h[:0])
		return &h, nil
	}
	r := codec.ReplyHeader{Size: codec.HeaderSize, Client: st.Client, Request: st.Request, Operation: st.Operation, Status: c.Status}
	if r.Operation == codec.OperationReserved {
		r.Operation = codec.OperationNonReplicated
	}
	switch c.Kind {
	case seqOtherRequest:
		r.Request++
	case seqOtherClient:
		r.Client.Hi ^= 0x8000
	}
	var body []byte
	if st.Operation == codec.OperationRegister && c.Status != codec.StatusOK {
		// a login's result code travels in the result section
		body = []byte{1, 0, 0, 0, 0, 0, 0, 0, byte(c.Status), 0, 0, 0}
		r.Status, r.Size = codec.StatusOK, uint32(codec.HeaderSize+len(body))
	}
	if _, err := r.AppendBinary(h[:0]); err != nil {
		panic(err)
	}
	return &h, body
}

func (c seqReceive) Run(sut commands.SystemUnderTest) commands.Result {
	u := sut.(*seqSUT)
	before := u.s.State()
	h, body := c.frame(before)
	checkErr := u.s.Check(h)
	status, err := u.s.Receive(h, body)
	if err == nil && before.Pending && u.replayed {
		u.seen.replayAnswers++
	}
	u.replayed = false
	return seqResult{status: status, err: err, checkErr: checkErr, state: u.s.State()}
}

func (c seqReceive) NextState(s commands.State) commands.State {
	m := *s.(*seqModel)
	m.want = seqWant{checked: true}
	closeIt := func(err error) {
		m.want.err = err
		m.phase, m.session, m.transient = seqClosed, 0, 0
	}
	switch {
	case m.phase == seqClosed:
		m.want.err = lifecycle.ErrClosed
	case c.Kind == seqEvict:
		closeIt(lifecycle.ErrEvicted)
		m.want.status = codec.ReasonSessionTooLow.Status()
	case m.phase != seqInFlight || c.Kind != seqMatch:
		closeIt(lifecycle.ErrMismatch)
	default:
		m.want.status = c.Status
		switch c.Status {
		case codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted:
			m.phase, m.transient = seqTransient, c.Status
			return &m
		case codec.StatusOK:
			if m.op == codec.OperationLogout {
				m.session = 0
			}
		}
		m.phase = seqIdle
	}
	return &m
}

// seqReplay replays the request a transient status answered.
type seqReplay struct{}

func (seqReplay) String() string { return "Replay" }

func (seqReplay) Run(sut commands.SystemUnderTest) commands.Result {
	u := sut.(*seqSUT)
	if u.replayRestamps && u.s.State().Transient != 0 {
		// the planted bug: the request is built again instead
		v, err := u.s.Stamp(append(make([]byte, codec.HeaderSize), seqPayload...), u.last)
		return seqResult{value: v, err: err, state: u.s.State()}
	}
	v, err := u.s.Replay()
	if err == nil {
		u.seen.replays++
		u.replayed = true
	}
	return seqResult{value: v, err: err, state: u.s.State()}
}

func (seqReplay) NextState(s commands.State) commands.State {
	m := *s.(*seqModel)
	m.want = seqWant{}
	switch m.phase {
	case seqTransient:
		m.phase, m.transient = seqInFlight, 0
		m.want.value = m.request
	case seqClosed:
		m.want.err = lifecycle.ErrClosed
	default:
		m.want.err = lifecycle.ErrNoReplay
	}
	return &m
}

// seqBind binds a session read from a login reply.
type seqBind struct{ Session uint64 }

func (c seqBind) String() string { return fmt.Sprintf("Bind(%d)", c.Session) }

func (c seqBind) Run(sut commands.SystemUnderTest) commands.Result {
	u := sut.(*seqSUT)
	err := u.s.Bind(c.Session)
	if err == nil {
		u.seen.binds++
	}
	return seqResult{err: err, state: u.s.State()}
}

func (c seqBind) NextState(s commands.State) commands.State {
	m := *s.(*seqModel)
	m.want = seqWant{}
	switch {
	case c.Session == 0:
		m.want.err = lifecycle.ErrState
	case m.phase == seqClosed:
		m.want.err = lifecycle.ErrClosed
	case m.phase == seqInFlight:
		m.want.err = lifecycle.ErrPending
	case m.session != 0:
		m.want.err = lifecycle.ErrBound
	default:
		m.session = c.Session
	}
	return &m
}

// seqReset starts over with client id Lo (0: refused).
type seqReset struct{ Lo uint64 }

func (c seqReset) String() string { return fmt.Sprintf("Reset(%d)", c.Lo) }

func (c seqReset) Run(sut commands.SystemUnderTest) commands.Result {
	u := sut.(*seqSUT)
	return seqResult{err: u.s.Reset(codec.Uint128{Lo: c.Lo}), state: u.s.State()}
}

func (c seqReset) NextState(s commands.State) commands.State {
	m := *s.(*seqModel)
	if c.Lo == 0 {
		m.want = seqWant{err: lifecycle.ErrState}
		return &m
	}
	m = seqModel{client: codec.Uint128{Lo: c.Lo}, next: 1}
	return &m
}

// seqPost is every command's postcondition: the error, value and status
// the model predicts, the header a stamp writes, and the whole state.
func seqPost(s commands.State, res commands.Result) *gopter.PropResult {
	m, r := s.(*seqModel), res.(seqResult)
	var msg string
	switch {
	case m.want.err == nil && r.err != nil, m.want.err != nil && !errors.Is(r.err, m.want.err):
		msg = fmt.Sprintf("error %v, want %v", r.err, m.want.err)
	case m.want.checked && (m.want.err == nil) != (r.checkErr == nil) && !errors.Is(m.want.err, lifecycle.ErrEvicted):
		msg = fmt.Sprintf("Check said %v where Receive says %v", r.checkErr, r.err)
	case r.value != m.want.value:
		msg = fmt.Sprintf("request number %d, want %d", r.value, m.want.value)
	case r.status != m.want.status:
		msg = fmt.Sprintf("status %v, want %v", r.status, m.want.status)
	case r.state != m.state():
		msg = fmt.Sprintf("state %+v, want %+v", r.state, m.state())
	case m.want.header != nil:
		msg = checkStamped(r.frame, *m.want.header)
	}
	if msg != "" {
		return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{msg}}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

// checkStamped says what is wrong with a stamped frame, or "".
func checkStamped(frame []byte, want codec.RequestHeader) string {
	h, err := codec.DecodeRequestHeader(frame)
	switch {
	case err != nil:
		return fmt.Sprintf("stamped an invalid header: %v", err)
	case h != want:
		return fmt.Sprintf("stamped %s, want %s", Describe(h), Describe(want))
	case string(frame[codec.HeaderSize:]) != seqPayload:
		return "the stamp touched the payload"
	}
	return ""
}

// Every command of the property shares its postcondition and needs no
// precondition: refusals are part of what is checked.
func (seqStamp) PreCondition(commands.State) bool   { return true }
func (seqReceive) PreCondition(commands.State) bool { return true }
func (seqReplay) PreCondition(commands.State) bool  { return true }
func (seqBind) PreCondition(commands.State) bool    { return true }
func (seqReset) PreCondition(commands.State) bool   { return true }
func (seqStamp) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return seqPost(s, r)
}
func (seqReceive) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return seqPost(s, r)
}
func (seqReplay) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return seqPost(s, r)
}
func (seqBind) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return seqPost(s, r)
}
func (seqReset) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return seqPost(s, r)
}

// genSeqCommand draws one command. Every field shrinks towards the value
// listed first: a ping, a matching OK answer, session 1, client 2.
func genSeqCommand(commands.State) gopter.Gen {
	return gen.Weighted([]gen.WeightedGen{
		{Weight: 5, Gen: asCommand(gen.Struct(reflect.TypeFor[seqStamp](), map[string]gopter.Gen{
			"Code": oneOf[codec.Code](codec.CodePing, 202, 101, 39, 40, codec.CodeBindSession),
		}))},
		{Weight: 5, Gen: asCommand(gen.Struct(reflect.TypeFor[seqReceive](), map[string]gopter.Gen{
			"Kind": oneOf(seqMatch, seqMatch, seqMatch, seqMatch, seqOtherRequest, seqOtherClient, seqEvict),
			"Status": oneOf(codec.StatusOK, codec.StatusInvalidCommand, codec.StatusTransientNotCommitted,
				codec.StatusTransientNotAccepted),
		}))},
		{Weight: 2, Gen: asCommand(gen.Const(seqReplay{}))},
		{Weight: 2, Gen: asCommand(gen.Struct(reflect.TypeFor[seqBind](), map[string]gopter.Gen{
			"Session": oneOf[uint64](1, 2, 0),
		}))},
		{Weight: 1, Gen: asCommand(gen.Struct(reflect.TypeFor[seqReset](), map[string]gopter.Gen{
			"Lo": oneOf[uint64](2, 3, 0),
		}))},
	})
}

// seqCommands runs each sequence on a fresh Sequencer in seqStart's state.
func seqCommands(replayRestamps bool, seen *seqSeen) commands.Commands {
	return &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(commands.State) commands.SystemUnderTest {
			s, err := lifecycle.NewSequencer(seqStart.client, seqStart.session, seqStart.next)
			if err != nil {
				panic(err)
			}
			return &seqSUT{s: s, replayRestamps: replayRestamps, seen: seen}
		},
		InitialStateGen: gen.Const(&seqStart),
		GenCommandFunc:  genSeqCommand,
	}
}

// TestSequencer: every call of a Sequencer, in any order, does what the
// model says.
func TestSequencer(t *testing.T) {
	t.Parallel()
	var seen seqSeen
	property(t, 4, "a Sequencer numbers, fences and replays requests as WIRE.md section 7 says", commands.Prop(seqCommands(false, &seen)))
	t.Logf("reached: %+v", seen)
	assert.Positive(t, seen.replays, "no replay was accepted")
	assert.Positive(t, seen.replayAnswers, "no answer after a replay")
	assert.Positive(t, seen.binds, "no bind")
}

// TestSequencerShrinks plants a bug (a replay builds the request anew, as
// lifecycle.Client did before the Sequencer) and checks that gopter
// shrinks the failing sequence to the four commands that show it, each
// field at its simplest: bind a session, stamp a request that consumes its
// number, answer it 57, replay.
func TestSequencerShrinks(t *testing.T) {
	t.Parallel()
	p := params(t, 4)
	p.MinSize = 20
	res := commands.Prop(seqCommands(true, &seqSeen{})).Check(p)
	require.False(t, res.Passed(), "the planted bug must be found")
	require.NotEmpty(t, res.Args)
	arg := res.Args[0]
	t.Logf("shrank %d times to %s\nfrom %s", arg.Shrinks, arg.ArgFormatted, arg.OrigArgFormatted)
	seq := arg.ArgFormatted[strings.Index(arg.ArgFormatted, "sequential="):]
	assert.Equal(t, "sequential=[Bind(1) Stamp(202) Receive(match, 57) Replay]", seq)
}
