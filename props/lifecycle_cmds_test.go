package props

import (
	"encoding/binary"
	"fmt"

	"github.com/iggywire/iggywire/codec"
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

// login is a Register request with a fresh client id.
type login struct {
	kind   loginKind
	client codec.Uint128
	ctx    bool // a password login carries a context
}

func (c login) String() string {
	return fmt.Sprintf("Login(%s, client=%v, ctx=%v)", loginNames[c.kind], c.client, c.ctx)
}

func (login) allowed(lcModel) bool { return true }

func (c login) body() []byte {
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("props"), SDKVersion: []byte("0.1.0")}
	var ctx []byte
	if c.ctx {
		ctx = []byte(`{"app":"props"}`)
	}
	pw := func(user, pass string) []byte {
		b, _ := codec.LoginRegister{Info: info, Username: []byte(user), Password: codec.NewSecret([]byte(pass)), Context: ctx}.AppendTo(nil)
		return b
	}
	tok := func(t string) []byte {
		b, _ := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte(t))}.AppendTo(nil)
		return b
	}
	switch c.kind {
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
		b, _ := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy-pw"))}.AppendTo(nil)
		return b
	case loginMalformedPrefix:
		return []byte{0, 0x2C}
	}
	b, _ := info.AppendTo(nil)
	return append(b, 200) // a username claiming 200 bytes that are not there
}

func (c login) frame(*lcSUT) []byte {
	return requestFrame(codec.RequestHeader{Client: c.client, Operation: codec.OperationRegister}, c.body())
}

func (c login) expect(m lcModel) (lcAnswer, lcModel) {
	switch c.kind {
	case loginGood, loginGoodToken:
		m.loggedIn, m.bound, m.logins = true, c.client, m.logins+1
		return lcAnswer{kind: "reply", operation: codec.OperationRegister, login: true}, m
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
	code    codec.Code
	foreign bool
	request uint64
}

func (c nonReplicated) String() string {
	return fmt.Sprintf("NonReplicated(%v, foreign=%v, request=%d)", c.code, c.foreign, c.request)
}

func (nonReplicated) allowed(lcModel) bool { return true }

func (c nonReplicated) frame(s *lcSUT) []byte {
	h := codec.RequestHeader{Client: clientOf(s, c.foreign), Operation: codec.OperationNonReplicated,
		Code: c.code, Session: s.session, Request: c.request}
	var body []byte
	if c.code == codec.CodeLoginUser || c.code == codec.CodeLoginWithPAT {
		body = login{kind: loginGood}.body()
	}
	return requestFrame(h, body)
}

func (c nonReplicated) expect(m lcModel) (lcAnswer, lcModel) {
	switch {
	case c.code == codec.CodeLoginUser || c.code == codec.CodeLoginWithPAT:
		return evicted(m, codec.ReasonMalformedLogin)
	case c.code == codec.CodePing:
		return lcAnswer{kind: "reply", operation: codec.OperationNonReplicated}, m
	case !m.loggedIn:
		return lcAnswer{kind: "reply", operation: codec.OperationNonReplicated, status: codec.StatusUnauthenticated}, m
	}
	// After login the default handler denies every other command.
	return lcAnswer{kind: "reply", operation: codec.OperationNonReplicated, status: codec.StatusInvalidCommand}, m
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

// replicated is a replicated request: a metadata or partition operation,
// or Logout.
type replicated struct {
	op    codec.Operation
	fence fence
}

func (c replicated) String() string {
	return fmt.Sprintf("Replicated(%v, %s)", c.op, fenceNames[c.fence])
}

// allowed: a lower session exists for sure only after two logins, since
// sessions start at 1 and grow with every login.
func (c replicated) allowed(m lcModel) bool { return c.fence != fenceLower || m.logins >= 2 }

func (c replicated) frame(s *lcSUT) []byte {
	session := max(s.session, 1)
	switch c.fence {
	case fenceLower:
		session = max(s.session-1, 1)
	case fenceHigher:
		session = s.session + 1
	}
	return requestFrame(codec.RequestHeader{Client: clientOf(s, c.fence == fenceForeign), Operation: c.op,
		Session: session, Request: 1}, nil)
}

func (c replicated) expect(m lcModel) (lcAnswer, lcModel) {
	switch {
	case !m.loggedIn || c.fence == fenceForeign:
		return evicted(m, codec.ReasonNoSession)
	case c.fence == fenceLower:
		return evicted(m, codec.ReasonSessionTooLow)
	case c.fence == fenceHigher:
		return lcAnswer{kind: "dropped"}, m
	case c.op == codec.OperationLogout:
		m.loggedIn, m.bound = false, codec.Uint128{}
		return lcAnswer{kind: "reply", operation: codec.OperationLogout}, m
	}
	return lcAnswer{kind: "reply", operation: c.op, status: codec.StatusInvalidCommand}, m
}

// garbageKind is a frame the server must not answer.
type garbageKind uint8

const (
	garbageCommand  garbageKind = iota // byte 60 is not Request: dropped
	garbageReserved                    // a reserved byte set: dropped
	garbageRule                        // a Register with a session: dropped
	garbageSize                        // size below 256: the connection ends
	garbageLength                      // size does not match the frame: the connection ends
	garbageKinds
)

var garbageNames = [garbageKinds]string{"command", "reserved", "rule", "size", "length"}

type garbage struct{ kind garbageKind }

func (c garbage) String() string     { return "Garbage(" + garbageNames[c.kind] + ")" }
func (garbage) allowed(lcModel) bool { return true }
func (c garbage) frame(s *lcSUT) []byte {
	return c.damage(nonReplicated{code: codec.CodePing, request: 1}.frame(s))
}

func (c garbage) damage(b []byte) []byte {
	f := func(name string) int { return headerField(codec.CommandRequest, name).Offset }
	switch c.kind {
	case garbageCommand:
		b[f("command")] = byte(codec.CommandReply)
	case garbageReserved:
		b[f("reserved_frame")+3] = 1
	case garbageRule:
		b[f("operation")] = byte(codec.OperationRegister)
		binary.LittleEndian.PutUint64(b[f("session"):], 5)
		code := codec.RequestCodeField()
		clear(b[code.Offset:code.End()])
	case garbageSize:
		binary.LittleEndian.PutUint32(b[f("size"):], 100)
	case garbageLength:
		b = append(b, 0)
	}
	return b
}

func (c garbage) expect(m lcModel) (lcAnswer, lcModel) {
	if c.kind == garbageSize || c.kind == garbageLength {
		m.closed, m.loggedIn = true, false
		return lcAnswer{kind: "size"}, m
	}
	return lcAnswer{kind: "dropped"}, m
}

// clientOf is the client's current id, or another one.
func clientOf(s *lcSUT, foreign bool) codec.Uint128 {
	c := s.client
	if foreign {
		c.Hi ^= 0x8000_0000_0000_0000
		if c.IsZero() {
			c.Lo = 1
		}
	}
	return c
}
