package props

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
)

// lcUserID is the active user of the server every sequence runs against.
const lcUserID = 7

// lcWindow is that server's window, [0.11.0, 0.11.0].
func lcWindow() codec.Window { return codec.DefaultWindow(codec.MustPack(0, 11, 0)) }

func newLifecycleServer() *lifecycle.Server {
	srv, err := lifecycle.NewServer(lifecycle.Config{
		Window: lcWindow(),
		Auth: lifecycle.StaticAuth{
			Users: []lifecycle.User{
				{ID: lcUserID, Name: "iggy", Password: codec.NewSecret([]byte("iggy-pw"))},
				{ID: 8, Name: "sleepy", Password: codec.NewSecret([]byte("zzz-pw")), Inactive: true},
			},
			Tokens: []lifecycle.Token{
				{Value: codec.NewSecret([]byte("good-token")), User: "iggy"},
				{Value: codec.NewSecret([]byte("sleepy-token")), User: "sleepy"},
			},
		},
	})
	if err != nil {
		panic(err) // a fixed, valid configuration
	}
	return srv
}

// lcModel is WIRE.md section 7 for one connection: logged out, logged in
// (as a client id), or closed. want is what the last command must have
// produced, computed from the state before it.
type lcModel struct {
	closed, loggedIn bool
	bound            codec.Uint128
	logins           int // successful logins so far: the bound session is at least this
	want             lcAnswer
}

func (m *lcModel) String() string {
	switch {
	case m.closed:
		return "closed"
	case m.loggedIn:
		return "logged in as " + m.bound.String()
	}
	return "logged out"
}

// lcAnswer is an answer reduced to what the model decides: its kind, and
// the eviction reason and window, or the reply's operation and status.
type lcAnswer struct {
	kind      string // "reply", "eviction", "dropped", "size", "closed"
	reason    codec.EvictionReason
	window    codec.Window
	operation codec.Operation
	status    codec.Status
	login     bool // a successful login: a fresh, higher session
}

func (a lcAnswer) String() string {
	switch a.kind {
	case "reply":
		return fmt.Sprintf("reply(%v, %v, login=%v)", a.operation, a.status.String(), a.login)
	case "eviction":
		return fmt.Sprintf("eviction(%v, %v)", a.reason, a.window)
	}
	return a.kind
}

// lcSUT is the connection under test plus what a client knows: the client
// id and session of the last successful login, and every session seen.
type lcSUT struct {
	conn       *lifecycle.Conn
	seen       map[string]int // answers observed, to show the property is not vacuous
	client     codec.Uint128
	session    uint64
	maxSession uint64
}

// lcResult is what one command observed.
type lcResult struct {
	got        lcAnswer
	sent       codec.RequestHeader
	reply      codec.ReplyHeader
	evict      codec.Eviction
	loginBody  codec.LoginReply
	prevMax    uint64
	decodeFail string
}

// lcCommand is one step: it builds a frame from the client's knowledge,
// and says what the model expects of it.
type lcCommand interface {
	String() string
	frame(s *lcSUT) []byte
	expect(m lcModel) (lcAnswer, lcModel)
	allowed(m lcModel) bool
}

func run(c lcCommand, sut commands.SystemUnderTest) commands.Result {
	s := sut.(*lcSUT)
	frame := c.frame(s)
	h, _ := codec.DecodeRequestHeader(frame)
	res := lcResult{sent: h, prevMax: s.maxSession}
	out, err := s.conn.Handle(frame, nil)
	switch {
	case errors.Is(err, lifecycle.ErrClosed):
		res.got.kind = "closed"
	case errors.Is(err, lifecycle.ErrDropped):
		res.got.kind = "dropped"
	case errors.Is(err, lifecycle.ErrFrameSize):
		res.got.kind = "size"
	case err != nil:
		res.decodeFail = err.Error()
	default:
		res.read(out, s)
	}
	s.seen[res.got.String()]++
	return res
}

// read decodes the answer frame and, after a login, updates the client.
func (r *lcResult) read(out []byte, s *lcSUT) {
	cmd, _ := codec.PeekCommand(out)
	if cmd == codec.CommandEviction {
		e, err := codec.DecodeEviction(out)
		r.evict, r.got = e, lcAnswer{kind: "eviction", reason: e.Reason, window: e.Window}
		if err != nil || len(out) != codec.HeaderSize {
			r.decodeFail = fmt.Sprintf("eviction: %v, %d bytes", err, len(out))
		}
		return
	}
	h, err := codec.DecodeReplyHeader(out)
	r.reply, r.got = h, lcAnswer{kind: "reply", operation: h.Operation, status: h.Status}
	if err != nil || int(h.Size) != len(out) {
		r.decodeFail = fmt.Sprintf("reply: %v", err)
		return
	}
	if h.Operation != codec.OperationRegister || h.Status != 0 {
		if len(out) != codec.HeaderSize {
			r.decodeFail = "a reply other than a login carries a body"
		}
		return
	}
	payload, code, err := codec.SplitResult(out[codec.HeaderSize:])
	l, perr := codec.ParseLoginReply(payload)
	if err != nil || code != 0 || perr != nil {
		r.decodeFail = fmt.Sprintf("login reply: %v, %d, %v", err, code, perr)
		return
	}
	r.got.login, r.loginBody = true, l
	s.client, s.session = h.Client, l.Session
	s.maxSession = max(s.maxSession, l.Session)
}

// postCondition compares the observed answer with the model's, and checks
// what the model leaves to the server: echoes, sessions, the login reply.
func postCondition(state commands.State, result commands.Result) *gopter.PropResult {
	m, r := state.(*lcModel), result.(lcResult)
	msg := r.decodeFail
	switch {
	case msg != "":
	case r.got != m.want:
		msg = fmt.Sprintf("got %v, want %v", r.got, m.want)
	case r.got.kind == "eviction" && r.evict.Client != r.sent.Client:
		msg = "eviction does not carry the request's client id"
	case r.got.kind == "reply" && (r.reply.Client != r.sent.Client || r.reply.Request != r.sent.Request):
		msg = "reply does not echo client id and request number"
	case r.got.login && (r.loginBody.Session <= r.prevMax || r.loginBody.UserID != lcUserID || r.loginBody.ServerProtocol != lcWindow().Max):
		msg = fmt.Sprintf("login reply %s after sessions up to %d", Describe(r.loginBody), r.prevMax)
	}
	if msg != "" {
		return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{msg}}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

// step wires an lcCommand into gopter: NextState records the expectation.
type step struct{ lcCommand }

func (s step) Run(sut commands.SystemUnderTest) commands.Result { return run(s.lcCommand, sut) }
func (s step) NextState(state commands.State) commands.State {
	m := *state.(*lcModel)
	if m.closed {
		m.want = lcAnswer{kind: "closed"}
		return &m
	}
	want, next := s.expect(m)
	next.want = want
	return &next
}
func (s step) PreCondition(state commands.State) bool { return s.allowed(*state.(*lcModel)) }
func (step) PostCondition(state commands.State, result commands.Result) *gopter.PropResult {
	return postCondition(state, result)
}

func evicted(m lcModel, reason codec.EvictionReason) (lcAnswer, lcModel) {
	w := codec.Window{}
	if reason == codec.ReasonIncompatibleProtocol {
		w = lcWindow()
	}
	m.closed, m.loggedIn = true, false
	return lcAnswer{kind: "eviction", reason: reason, window: w}, m
}

// requestFrame encodes h and body; the commands only build valid headers.
func requestFrame(h codec.RequestHeader, body []byte) []byte {
	b, err := codec.AppendRequestFrame(nil, h, body)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", Describe(h), err))
	}
	return b
}

// genLifecycleCommand draws one step; logins are frequent enough that most
// sequences spend time logged in.
func genLifecycleCommand(state commands.State) gopter.Gen {
	toCmd := func(c lcCommand) commands.Command { return step{c} }
	m := state.(*lcModel)
	kinds := []uint8{0, 0, 0, 1, 1}
	if m.loggedIn { // a second login, so that older sessions exist
		kinds = []uint8{0, 1}
	}
	logins := derive(
		func(kind uint8, client codec.Uint128, ctx bool) login { return login{loginKind(kind), client, ctx} },
		func(l login) (uint8, codec.Uint128, bool) { return uint8(l.kind), l.client, l.ctx },
		pick[uint8](0, uint8(loginKinds-1), kinds...), GenClient(), genBool(),
	).Map(func(l login) commands.Command { return toCmd(l) })
	codes := []codec.Code{codec.CodePing, codec.CodePing, codec.CodeGetClusterMetadata, codec.CodeLoginUser,
		codec.CodeLogoutUser, codec.CodeLoginRegister, codec.CodeLoginWithPAT, codec.CodeLoginRegisterWithPAT, 1000}
	nonRep := gopter.CombineGens(pick[uint8](0, uint8(len(codes)-1)), genBool(), pick[uint64](0, 5)).
		Map(func(v []interface{}) commands.Command {
			return toCmd(nonReplicated{codes[v[0].(uint8)], v[1].(bool) && v[0].(uint8) > 1, v[2].(uint64)})
		})
	ops := []codec.Operation{codec.OperationLogout, codec.OperationLogout, codec.OperationMetadataFirst,
		codec.OperationMetadataLast, codec.OperationPartitionFirst, 64}
	rep := gopter.CombineGens(pick[uint8](0, uint8(len(ops)-1)), pick[uint8](0, uint8(fences-1), 0, 0, 0, 2)).
		Map(func(v []interface{}) commands.Command {
			return toCmd(replicated{ops[v[0].(uint8)], fence(v[1].(uint8))})
		})
	junk := pick[uint8](0, uint8(garbageKinds-1), 0, 1, 2).
		Map(func(k uint8) commands.Command { return toCmd(garbage{garbageKind(k)}) })
	if !m.loggedIn {
		return gen.Weighted([]gen.WeightedGen{{Weight: 6, Gen: logins}, {Weight: 3, Gen: nonRep}, {Weight: 1, Gen: rep}, {Weight: 1, Gen: junk}})
	}
	return gen.Weighted([]gen.WeightedGen{{Weight: 2, Gen: logins}, {Weight: 3, Gen: nonRep}, {Weight: 6, Gen: rep}, {Weight: 1, Gen: junk}})
}

// lifecycleCommands drives a fresh server connection per sequence.
// seen tallies the answers observed across all sequences.
func lifecycleCommands(seen map[string]int) commands.Commands {
	return &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(commands.State) commands.SystemUnderTest {
			return &lcSUT{conn: newLifecycleServer().NewConn(), seen: seen, client: codec.Uint128{Lo: 0xC1}}
		},
		InitialStateGen: gen.Const(&lcModel{}),
		GenCommandFunc:  genLifecycleCommand,
	}
}

// TestLifecycle runs random sequences of logins, pings, other commands,
// replicated requests, logouts and garbage against a lifecycle.Conn and
// compares every answer (kind, eviction reason and window, reply operation
// and status, login session) with the model of WIRE.md section 7.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	property(t, 8, "a connection follows WIRE.md section 7", commands.Prop(lifecycleCommands(seen)))
	t.Logf("answers: %v", seen)
	for _, want := range []lcAnswer{
		{kind: "reply", operation: codec.OperationRegister, login: true},
		{kind: "reply", operation: codec.OperationNonReplicated},
		{kind: "reply", operation: codec.OperationNonReplicated, status: codec.StatusUnauthenticated},
		{kind: "reply", operation: codec.OperationNonReplicated, status: codec.StatusInvalidCommand},
		{kind: "reply", operation: codec.OperationLogout},
		{kind: "reply", operation: codec.OperationMetadataFirst, status: codec.StatusInvalidCommand},
		{kind: "dropped"}, {kind: "size"}, {kind: "closed"},
	} {
		if seen[want.String()] == 0 {
			t.Errorf("no sequence produced %v", want)
		}
	}
	for _, r := range []codec.EvictionReason{1, 7, 9, 10, 11, 14, 15} {
		w := codec.Window{}
		if r == codec.ReasonIncompatibleProtocol {
			w = lcWindow()
		}
		if a := (lcAnswer{kind: "eviction", reason: r, window: w}); seen[a.String()] == 0 {
			t.Errorf("no sequence produced %v", a)
		}
	}
}
