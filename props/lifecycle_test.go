package props

import (
	"errors"
	"fmt"
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

// activeUser is the active user of the server every sequence runs against.
const activeUser = 7

// serverWindow is that server's window, [0.11.0, 0.11.0].
func serverWindow() codec.Window { return codec.DefaultWindow(codec.MustPack(0, 11, 0)) }

// newLoginServer is the server every sequence runs against: "iggy" is
// active and "sleepy" is not, unless sleepyActive plants that bug.
func newLoginServer(sleepyActive bool) *lifecycle.Server {
	srv, err := lifecycle.NewServer(lifecycle.Config{
		Window: serverWindow(),
		Auth: lifecycle.StaticAuth{
			Users: []lifecycle.User{
				{ID: activeUser, Name: "iggy", Password: codec.NewSecret([]byte("iggy-pw"))},
				{ID: 8, Name: "sleepy", Password: codec.NewSecret([]byte("zzz-pw")), Inactive: !sleepyActive},
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

// connModel is WIRE.md section 7 for one connection: logged out, logged
// in (as a client id), or closed. want is what the last command must have
// produced, computed from the state before it.
type connModel struct {
	closed, loggedIn bool
	bound            codec.Uint128
	logins           int // successful logins so far: the bound session is at least this
	want             answer
}

func (m *connModel) String() string {
	switch {
	case m.closed:
		return "closed"
	case m.loggedIn:
		return "logged in as " + m.bound.String()
	}
	return "logged out"
}

// answerKind is what a connection did with a frame.
type answerKind uint8

const (
	answerReply     answerKind = iota // a reply frame
	answerEviction                    // an eviction frame; the connection ends
	answerDropped                     // no answer (lifecycle.ErrDropped)
	answerFrameSize                   // the connection ends (codec.ErrSize)
	answerClosed                      // the connection had already ended (lifecycle.ErrClosed)
	answerKinds
)

var answerNames = [answerKinds]string{"reply", "eviction", "dropped", "size", "closed"}

func (k answerKind) String() string { return answerNames[k] }

// answer is an answer reduced to what the model decides: its kind, and
// the eviction reason and window, or the reply's operation and status.
type answer struct {
	kind      answerKind
	reason    codec.EvictionReason
	window    codec.Window
	operation codec.Operation
	status    codec.Status
	login     bool // a successful login: a fresh, higher session
}

func (a answer) String() string {
	switch a.kind {
	case answerReply:
		return fmt.Sprintf("reply(%v, %v, login=%v)", a.operation, a.status.String(), a.login)
	case answerEviction:
		return fmt.Sprintf("eviction(%v, %v)", a.reason, a.window)
	}
	return a.kind.String()
}

// connUnderTest is the connection under test plus what a client knows:
// the client id and session of the last successful login, and the highest
// session seen.
type connUnderTest struct {
	conn       *lifecycle.Conn
	seen       map[answer]int // answers observed, to show the property is not vacuous
	client     codec.Uint128
	session    uint64
	maxSession uint64
}

// clientID is the client's current id, or another one.
func (s *connUnderTest) clientID(foreign bool) codec.Uint128 {
	c := s.client
	if foreign {
		c.Hi ^= 0x8000_0000_0000_0000
		if c.IsZero() {
			c.Lo = 1
		}
	}
	return c
}

// observed is what one command saw.
type observed struct {
	got        answer
	sent       codec.RequestHeader
	reply      codec.ReplyHeader
	evict      codec.Eviction
	loginBody  codec.LoginReply
	prevMax    uint64
	decodeFail string
}

// send hands frame to the connection and reduces what comes back.
func send(s *connUnderTest, frame []byte) commands.Result {
	h, _ := codec.DecodeRequestHeader(frame)
	res := observed{sent: h, prevMax: s.maxSession}
	out, _, err := s.conn.Handle(frame, nil)
	switch {
	case errors.Is(err, lifecycle.ErrClosed):
		res.got.kind = answerClosed
	case errors.Is(err, lifecycle.ErrDropped):
		res.got.kind = answerDropped
	case errors.Is(err, codec.ErrSize):
		res.got.kind = answerFrameSize
	case err != nil:
		res.decodeFail = err.Error()
	default:
		res.read(out, s)
	}
	s.seen[res.got]++
	return res
}

// read decodes the answer frame and, after a login, updates the client.
func (r *observed) read(out []byte, s *connUnderTest) {
	cmd, _ := codec.PeekCommand(out)
	if cmd == codec.CommandEviction {
		e, err := codec.DecodeEviction(out)
		r.evict, r.got = e, answer{kind: answerEviction, reason: e.Reason, window: e.Window}
		if err != nil || len(out) != codec.HeaderSize {
			r.decodeFail = fmt.Sprintf("eviction: %v, %d bytes", err, len(out))
		}
		return
	}
	h, err := codec.DecodeReplyHeader(out)
	r.reply, r.got = h, answer{kind: answerReply, operation: h.Operation, status: h.Status}
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

// postCondition is every command's PostCondition: it compares the observed
// answer with the model's, and checks what the model leaves to the server:
// echoes, sessions, the login reply.
func postCondition(state commands.State, result commands.Result) *gopter.PropResult {
	m, r := state.(*connModel), result.(observed)
	msg := r.decodeFail
	switch {
	case msg != "":
	case r.got != m.want:
		msg = fmt.Sprintf("got %v, want %v", r.got, m.want)
	case r.got.kind == answerEviction && r.evict.Client != r.sent.Client:
		msg = "eviction does not carry the request's client id"
	case r.got.kind == answerReply && (r.reply.Client != r.sent.Client || r.reply.Request != r.sent.Request):
		msg = "reply does not echo client id and request number"
	case r.got.login && (r.loginBody.Session <= r.prevMax || r.loginBody.UserID != activeUser || r.loginBody.ServerProtocol != serverWindow().Max):
		msg = fmt.Sprintf("login reply %s after sessions up to %d", Describe(r.loginBody), r.prevMax)
	}
	if msg != "" {
		return &gopter.PropResult{Status: gopter.PropFalse, Labels: []string{msg}}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

// connCommands drives a fresh server connection per sequence; seen
// tallies the answers observed across all sequences.
func connCommands(seen map[answer]int, sleepyActive bool) commands.Commands {
	return &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(commands.State) commands.SystemUnderTest {
			return &connUnderTest{conn: newLoginServer(sleepyActive).NewConn(), seen: seen, client: codec.Uint128{Lo: 0xC1}}
		},
		InitialStateGen: gen.Const(&connModel{}),
		GenCommandFunc:  genCommand,
	}
}

// TestLifecycle runs random sequences of logins, pings, other commands,
// replicated requests, logouts and garbage against a lifecycle.Conn and
// compares every answer (kind, eviction reason and window, reply operation
// and status, login session) with the model of WIRE.md section 7.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	seen := map[answer]int{}
	property(t, 8, "a connection follows WIRE.md section 7", commands.Prop(connCommands(seen, false)))
	// Every answer below must have been produced, so that the property is
	// not vacuous for any of them. A small PROPS_COUNT (or an unlucky
	// seed) may not reach them all in one run: run more sequences, with
	// the next seeds, until it does or a bound is reached, and say so.
	p := params(t, 8)
	for extra := int64(1); extra <= 16 && len(missing(seen)) > 0; extra++ {
		more := gopter.DefaultTestParametersWithSeed(p.Seed() + extra)
		more.MinSuccessfulTests = max(p.MinSuccessfulTests, 50)
		props := gopter.NewProperties(more)
		props.Property("a connection follows WIRE.md section 7 (more sequences, for coverage)", commands.Prop(connCommands(seen, false)))
		check(t, props, more)
		t.Logf("seed %d left %v unseen: ran %d more sequences with seed %d", p.Seed(), missing(seen), more.MinSuccessfulTests, more.Seed())
	}
	t.Logf("answers: %v", seen)
	for _, want := range missing(seen) {
		t.Errorf("seed %d: no sequence produced %v, even after 16 more runs; rerun with PROPS_SEED=%d PROPS_COUNT=%d go test ./props -run '^TestLifecycle$'",
			p.Seed(), want, p.Seed(), 4*p.MinSuccessfulTests*8)
	}
}

// missing returns the answers of WIRE.md section 7 that seen has not
// counted yet.
func missing(seen map[answer]int) []answer {
	var out []answer
	for _, want := range []answer{
		{kind: answerReply, operation: codec.OperationRegister, login: true},
		{kind: answerReply, operation: codec.OperationNonReplicated},
		{kind: answerReply, operation: codec.OperationNonReplicated, status: codec.StatusUnauthenticated},
		{kind: answerReply, operation: codec.OperationNonReplicated, status: codec.StatusInvalidCommand},
		{kind: answerReply, operation: codec.OperationLogout},
		{kind: answerReply, operation: codec.OperationCreateStream, status: codec.StatusInvalidCommand},
		{kind: answerDropped}, {kind: answerFrameSize}, {kind: answerClosed},
		evictionOf(codec.ReasonInvalidCredentials), evictionOf(codec.ReasonNoSession),
		evictionOf(codec.ReasonSessionTooLow), evictionOf(codec.ReasonMalformedLogin),
		evictionOf(codec.ReasonInvalidToken), evictionOf(codec.ReasonIncompatibleProtocol),
		evictionOf(codec.ReasonUserInactive),
	} {
		if seen[want] == 0 {
			out = append(out, want)
		}
	}
	return out
}

// TestLifecycleShrinks plants a bug (the server takes the inactive user
// for active) and checks that gopter shrinks the failing sequence to the
// one command that shows it, with every field of that command at its
// simplest: the sequence shrinks, and so do the commands in it.
func TestLifecycleShrinks(t *testing.T) {
	t.Parallel()
	p := params(t, 8)
	p.MinSize = 20 // the first failing sequence is long
	res := commands.Prop(connCommands(map[answer]int{}, true)).Check(p)
	require.False(t, res.Passed(), "the planted bug must be found")
	require.NotEmpty(t, res.Args)
	arg := res.Args[0]
	t.Logf("shrank %d times to %s\nfrom %s", arg.Shrinks, arg.ArgFormatted, arg.OrigArgFormatted)
	require.Greater(t, strings.Count(arg.OrigArgFormatted, "("), 10, "the sequence found first is long")
	seq := arg.ArgFormatted[strings.Index(arg.ArgFormatted, "sequential="):]
	var minimal []string
	for _, k := range []loginKind{loginInactivePassword, loginInactiveToken} {
		for _, c := range []codec.Uint128{{Lo: 1}, {Hi: 1}} {
			minimal = append(minimal, "sequential=["+login{Kind: k, Client: c}.String()+"]")
		}
	}
	assert.Contains(t, minimal, seq)
}

// TestCommandsShrink: every command generator, once widened to
// commands.Command, still carries a shrinker, and each candidate it
// proposes is a command of the same type that differs from the original.
func TestCommandsShrink(t *testing.T) {
	t.Parallel()
	p := gopter.DefaultGenParameters().CloneWithSeed(params(t, 1).Seed())
	for name, g := range map[string]gopter.Gen{
		"login": genLogin(), "nonReplicated": genNonReplicated(), "replicated": genReplicated(), "garbage": genGarbage(),
	} {
		shrunk := 0
		for range 50 {
			r := asCommand(g)(p)
			v, ok := r.Retrieve()
			require.True(t, ok, name)
			require.Implements(t, (*commands.Command)(nil), v, name)
			for next := r.Shrinker(v); ; {
				c, ok := next()
				if !ok {
					break
				}
				shrunk++
				assert.IsType(t, v, c, name)
				assert.NotEqual(t, v, c, "%s: a candidate equal to the original", name)
			}
		}
		assert.Positive(t, shrunk, "%s: no candidate in 50 draws", name)
	}
}
