package props

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
)

// loginKind is the flavour of a Register request.
type loginKind uint8

const (
	loginGood loginKind = iota
	loginGoodToken
	loginWrongPassword
	loginInactivePassword
	loginBadToken
	loginInactiveToken
	loginIncompatible
	loginMalformedPrefix
	loginMalformedTail
	loginKinds
)

var loginNames = [loginKinds]string{"good", "good-token", "wrong-password", "inactive-password",
	"bad-token", "inactive-token", "incompatible", "malformed-prefix", "malformed-tail"}

func (k loginKind) String() string { return loginNames[k] }

// login is a Register request with a fresh client id. Its fields are
// exported so that gen.Struct can build and shrink it.
type login struct {
	Kind   loginKind
	Client codec.Uint128
	Ctx    bool // a password login carries a context
}

func (c login) String() string {
	return fmt.Sprintf("Login(%v, client=%v, ctx=%v)", c.Kind, c.Client, c.Ctx)
}

func (c login) Run(sut commands.SystemUnderTest) commands.Result {
	return send(sut.(*connUnderTest), c.frame())
}
func (c login) NextState(s commands.State) commands.State { return advance(s, c.expect) }
func (login) PreCondition(commands.State) bool            { return true }
func (login) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return postCondition(s, r)
}

func (c login) body() []byte {
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("props"), SDKVersion: []byte("0.1.0")}
	var ctx []byte
	if c.Ctx {
		ctx = []byte(`{"app":"props"}`)
	}
	pw := func(user, pass string) []byte {
		b, _ := codec.LoginRegister{Info: info, Username: []byte(user), Password: codec.NewSecret([]byte(pass)), Context: ctx}.AppendBinary(nil)
		return b
	}
	tok := func(t string) []byte {
		b, _ := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte(t))}.AppendBinary(nil)
		return b
	}
	switch c.Kind {
	case loginGood:
		return pw("iggy", "iggy-pw")
	case loginGoodToken:
		return tok("good-token")
	case loginWrongPassword:
		return pw("iggy", "wrong-pw")
	case loginInactivePassword:
		return pw("sleepy", "zzz-pw")
	case loginBadToken:
		return tok("nope-token")
	case loginInactiveToken:
		return tok("sleepy-token")
	case loginIncompatible:
		info.Protocol = codec.MustPack(0, 12, 0)
		b, _ := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy-pw"))}.AppendBinary(nil)
		return b
	case loginMalformedPrefix:
		return []byte{0, 0x2C}
	}
	b, _ := info.AppendBinary(nil)
	return append(b, 200) // a username claiming 200 bytes that are not there
}

func (c login) frame() []byte {
	return requestFrame(codec.RequestHeader{Client: c.Client, Operation: codec.OperationRegister}, c.body())
}

func (c login) expect(m connModel) (answer, connModel) {
	switch c.Kind {
	case loginGood, loginGoodToken:
		m.loggedIn, m.bound, m.logins = true, c.Client, m.logins+1
		return answer{kind: answerReply, operation: codec.OperationRegister, login: true}, m
	case loginWrongPassword, loginInactivePassword:
		return evicted(m, codec.ReasonInvalidCredentials)
	case loginBadToken:
		return evicted(m, codec.ReasonInvalidToken)
	case loginInactiveToken:
		return evicted(m, codec.ReasonUserInactive)
	case loginIncompatible:
		return evicted(m, codec.ReasonIncompatibleProtocol)
	}
	return evicted(m, codec.ReasonMalformedLogin)
}

// nonReplicated is a NonReplicated request with a code, from the client's
// current id (or another one) carrying its current session.
type nonReplicated struct {
	Code    codec.Code
	Foreign bool
	Request uint64
}

func (c nonReplicated) String() string {
	return fmt.Sprintf("NonReplicated(%v, foreign=%v, request=%d)", c.Code, c.Foreign, c.Request)
}

func (c nonReplicated) Run(sut commands.SystemUnderTest) commands.Result {
	s := sut.(*connUnderTest)
	return send(s, c.frame(s))
}
func (c nonReplicated) NextState(s commands.State) commands.State { return advance(s, c.expect) }
func (nonReplicated) PreCondition(commands.State) bool            { return true }
func (nonReplicated) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return postCondition(s, r)
}

func (c nonReplicated) frame(s *connUnderTest) []byte {
	h := codec.RequestHeader{Client: s.clientID(c.Foreign), Operation: codec.OperationNonReplicated,
		Code: c.Code, Session: s.session, Request: c.Request}
	var body []byte
	if c.Code == codec.CodeLoginUser || c.Code == codec.CodeLoginPAT {
		body = login{Kind: loginGood}.body()
	}
	return requestFrame(h, body)
}

func (c nonReplicated) expect(m connModel) (answer, connModel) {
	switch {
	case c.Code == codec.CodeLoginUser || c.Code == codec.CodeLoginPAT:
		return evicted(m, codec.ReasonMalformedLogin)
	case c.Code == codec.CodePing:
		return answer{kind: answerReply, operation: codec.OperationNonReplicated}, m
	case !m.loggedIn:
		return answer{kind: answerReply, operation: codec.OperationNonReplicated, status: codec.StatusUnauthenticated}, m
	}
	// After login the default handler denies every other command.
	return answer{kind: answerReply, operation: codec.OperationNonReplicated, status: codec.StatusInvalidCommand}, m
}

// fence says which session and client id a replicated request carries.
type fence uint8

const (
	fenceBound   fence = iota // the bound client and session
	fenceLower                // the bound client, a session below the bound one
	fenceHigher               // the bound client, a session above the bound one
	fenceForeign              // another client id
	fences
)

var fenceNames = [fences]string{"bound", "lower", "higher", "foreign"}

func (f fence) String() string { return fenceNames[f] }

// replicated is a replicated request: a metadata or partition operation,
// or Logout.
type replicated struct {
	Op    codec.Operation
	Fence fence
}

func (c replicated) String() string { return fmt.Sprintf("Replicated(%v, %v)", c.Op, c.Fence) }

func (c replicated) Run(sut commands.SystemUnderTest) commands.Result {
	s := sut.(*connUnderTest)
	return send(s, c.frame(s))
}
func (c replicated) NextState(s commands.State) commands.State { return advance(s, c.expect) }

// PreCondition: a lower session exists for sure only after two logins,
// since sessions start at 1 and grow with every login.
func (c replicated) PreCondition(s commands.State) bool {
	return c.Fence != fenceLower || s.(*connModel).logins >= 2
}
func (replicated) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return postCondition(s, r)
}

func (c replicated) frame(s *connUnderTest) []byte {
	session := max(s.session, 1)
	switch c.Fence {
	case fenceLower:
		session = max(s.session-1, 1)
	case fenceHigher:
		session = s.session + 1
	}
	return requestFrame(codec.RequestHeader{Client: s.clientID(c.Fence == fenceForeign), Operation: c.Op,
		Session: session, Request: 1}, nil)
}

func (c replicated) expect(m connModel) (answer, connModel) {
	switch {
	case !m.loggedIn || c.Fence == fenceForeign:
		return evicted(m, codec.ReasonNoSession)
	case c.Fence == fenceLower:
		return evicted(m, codec.ReasonSessionTooLow)
	case c.Fence == fenceHigher:
		return answer{kind: answerDropped}, m
	case c.Op == codec.OperationLogout:
		m.loggedIn, m.bound = false, codec.Uint128{}
		return answer{kind: answerReply, operation: codec.OperationLogout}, m
	}
	return answer{kind: answerReply, operation: c.Op, status: codec.StatusInvalidCommand}, m
}

// garbage is a damaged ping the server must not answer.
type garbage uint8

const (
	garbageCommand  garbage = iota // byte 60 is not Request: dropped
	garbageReserved                // a reserved byte set: dropped
	garbageRule                    // a Register with a session: dropped
	garbageSize                    // size below 256: the connection ends
	garbageLength                  // size does not match the frame: the connection ends
	garbageKinds
)

var garbageNames = [garbageKinds]string{"command", "reserved", "rule", "size", "length"}

func (c garbage) String() string { return "Garbage(" + garbageNames[c] + ")" }

func (c garbage) Run(sut commands.SystemUnderTest) commands.Result {
	s := sut.(*connUnderTest)
	return send(s, c.damage(nonReplicated{Code: codec.CodePing, Request: 1}.frame(s)))
}
func (c garbage) NextState(s commands.State) commands.State { return advance(s, c.expect) }
func (garbage) PreCondition(commands.State) bool            { return true }
func (garbage) PostCondition(s commands.State, r commands.Result) *gopter.PropResult {
	return postCondition(s, r)
}

func (c garbage) damage(b []byte) []byte {
	f := func(name string) int { return headerField(codec.CommandRequest, name).Offset }
	switch c {
	case garbageCommand:
		b[f("command")] = byte(codec.CommandReply)
	case garbageReserved:
		b[f("reserved_frame")+3] = 1
	case garbageRule:
		b[f("operation")] = byte(codec.OperationRegister)
		binary.LittleEndian.PutUint64(b[f("session"):], 5)
		code := layout.RequestCode()
		clear(b[code.Offset:code.End()])
	case garbageSize:
		binary.LittleEndian.PutUint32(b[f("size"):], 100)
	case garbageLength:
		b = append(b, 0)
	}
	return b
}

func (c garbage) expect(m connModel) (answer, connModel) {
	if c == garbageSize || c == garbageLength {
		m.closed, m.loggedIn = true, false
		return answer{kind: answerFrameSize}, m
	}
	return answer{kind: answerDropped}, m
}

// advance is every command's NextState: a closed connection answers
// nothing more; otherwise the command's expectation decides.
func advance(state commands.State, expect func(connModel) (answer, connModel)) commands.State {
	m := *state.(*connModel)
	if m.closed {
		m.want = answer{kind: answerClosed}
		return &m
	}
	want, next := expect(m)
	next.want = want
	return &next
}

func evicted(m connModel, reason codec.EvictionReason) (answer, connModel) {
	m.closed, m.loggedIn = true, false
	return evictionOf(reason), m
}

// evictionOf is the eviction answer for reason: only an incompatible
// protocol carries the server's window.
func evictionOf(reason codec.EvictionReason) answer {
	a := answer{kind: answerEviction, reason: reason}
	if reason == codec.ReasonIncompatibleProtocol {
		a.window = serverWindow()
	}
	return a
}

// requestFrame encodes h and body; the commands only build valid headers.
func requestFrame(h codec.RequestHeader, body []byte) []byte {
	b, err := codec.AppendRequestFrame(nil, h, body)
	if err != nil {
		panic(fmt.Sprintf("%s: %v", Describe(h), err))
	}
	return b
}

// oneOf draws one of vals (list a value twice to draw it twice as often)
// and shrinks towards the values listed before it.
func oneOf[T comparable](vals ...T) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		return gopter.NewGenResult(vals[p.Rng.Intn(len(vals))], func(v interface{}) gopter.Shrink {
			var earlier []T
			for _, e := range vals {
				if e == v.(T) {
					break
				}
				if !slices.Contains(earlier, e) {
					earlier = append(earlier, e)
				}
			}
			return shrinkList(earlier)
		})
	}
}

// asCommand widens a generator of one command type to commands.Command.
// gopter's Map keeps a shrinker only when the type does not change, so
// this changes only the declared type and keeps the shrinker: its
// candidates are still commands.
func asCommand(g gopter.Gen) gopter.Gen {
	command := reflect.TypeFor[commands.Command]()
	return g.MapResult(func(r *gopter.GenResult) *gopter.GenResult {
		r.ResultType = command
		return r
	})
}

// genLogin draws a login; kinds are the kinds drawn half the time.
func genLogin(kinds ...loginKind) gopter.Gen {
	return gen.Struct(reflect.TypeFor[login](), map[string]gopter.Gen{
		"Kind":   pick(0, loginKinds-1, kinds...),
		"Client": GenClient(),
		"Ctx":    genBool(),
	})
}

func genNonReplicated() gopter.Gen {
	return gen.Struct(reflect.TypeFor[nonReplicated](), map[string]gopter.Gen{
		"Code": oneOf(codec.CodePing, codec.CodePing, codec.CodeGetClusterMetadata, codec.CodeLoginUser,
			codec.CodeLogoutUser, codec.CodeLoginRegister, codec.CodeLoginPAT, codec.CodeLoginRegisterPAT, 1000),
		"Foreign": genBool(),
		"Request": pick[uint64](0, 5),
	})
}

func genReplicated() gopter.Gen {
	return gen.Struct(reflect.TypeFor[replicated](), map[string]gopter.Gen{
		"Op": oneOf(codec.OperationLogout, codec.OperationLogout, codec.OperationCreateStream,
			codec.OperationLeaveConsumerGroup, codec.OperationSendMessages, 64),
		"Fence": pick(0, fences-1, fenceBound, fenceBound, fenceBound, fenceHigher),
	})
}

func genGarbage() gopter.Gen {
	return pick(0, garbageKinds-1, garbageCommand, garbageReserved, garbageRule)
}

// genCommand draws one command for state; logins are frequent enough
// that most sequences spend time logged in, and once logged in a second
// login is often good, so that older sessions exist.
func genCommand(state commands.State) gopter.Gen {
	if !state.(*connModel).loggedIn {
		return gen.Weighted([]gen.WeightedGen{
			{Weight: 6, Gen: asCommand(genLogin(loginGood, loginGood, loginGood, loginGoodToken, loginGoodToken))},
			{Weight: 3, Gen: asCommand(genNonReplicated())},
			{Weight: 1, Gen: asCommand(genReplicated())},
			{Weight: 1, Gen: asCommand(genGarbage())},
		})
	}
	return gen.Weighted([]gen.WeightedGen{
		{Weight: 2, Gen: asCommand(genLogin(loginGood, loginGoodToken))},
		{Weight: 3, Gen: asCommand(genNonReplicated())},
		{Weight: 6, Gen: asCommand(genReplicated())},
		{Weight: 1, Gen: asCommand(genGarbage())},
	})
}
