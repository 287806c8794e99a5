package main

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
)

// expectKind is what a client must do after a case's scripted answer, read
// on the wire (WIRE.md sections 4, 5, 7 and 8).
type expectKind int

const (
	// expUse: the login reply is good; the client's next request on the
	// connection carries its session.
	expUse expectKind = iota + 1
	// expDrop: the frame is malformed, mismatched, cut, or an eviction:
	// the client sends nothing more on the connection (it closes, or waits
	// until the kit closes) and uses nothing from the frame.
	expDrop
	// expRefused: a well-formed refusal that leaves the connection open
	// (a denial status or result code): the client uses no session from it.
	expRefused
	// expReplay: result 57; the next frame on the connection is the same
	// Register, same client id and body.
	expReplay
	// expReissue: result 58; the client logs in again, on any connection,
	// under any client id.
	expReissue
	// expOneMore: a good login reply with a frame nobody asked for right
	// behind it. The client's next request reads that frame as its answer,
	// finds it does not match (WIRE.md section 7, point 9) and drops the
	// connection: at most one more request on it.
	expOneMore
	// expPingOK: the ping's answer is good (status 0 or a denial); the
	// client's next request goes on the same connection, same client id
	// and session.
	expPingOK
)

// expectText says an expectation in a report.
var expectText = map[expectKind]string{
	expUse:     "uses the login: its next request on the connection carries session %d",
	expDrop:    "sends nothing more on that connection (closes it, or waits) and uses nothing from the frame",
	expRefused: "takes the refusal: no request carrying a session from it",
	expReplay:  "replays the same Register (same client id, same body) on the same connection",
	expReissue: "logs in again (any connection, any client id)",
	expOneMore: "takes the frame behind the login reply as its next request's answer, finds it mismatched and sends nothing more on the connection",
	expPingOK:  "accepts the answer: its next request goes on the same connection, same client id and session",
}

// answer is how the kit writes a scripted frame.
type answer struct {
	frame        []byte
	patchClient  bool   // put the request's client id at 160 (a Reply)
	patchRequest bool   // put the request's number at 200 (a Reply)
	pad          bool   // pad the body up to the size field, when it is usable and small
	chunk        int    // write in pieces of this many bytes (0: at once)
	stall        bool   // stall after the header
	closeAfter   bool   // close the connection once written
	delay        bool   // wait before answering
	then         []byte // a frame written right behind, under the request's client id
}

// serverCase is one numbered case of server mode.
type serverCase struct {
	ID, Name, Rule string
	Vector         int
	// at is "login" when the first Register of the case gets the
	// scripted answer, "ping" when the first ping after a good login does.
	at      string
	answer  answer
	expect  expectKind
	session uint64 // expUse: the session the client must carry
	// noRetryVersion: after a well-formed eviction 14 the client must
	// not log in again with the same protocol version.
	noRetryVersion bool
	// refuseBinds: the kit answers every BIND_SESSION of the case with 40
	// (otherwise as a server does, WIRE.md section 10.4).
	refuseBinds bool
	// aboutBind says what the case expects of a client that binds its
	// session on a new connection, "" when the case says nothing.
	aboutBind string
	// surface is what the SDK must surface to its caller (WIRE.md
	// section 8), when a driver reports it: "0" for a login that
	// succeeded, a status code, or "IncompatibleProtocolVersion"; "" when
	// the case does not say; surfaceError when any error will do but
	// success will not (a login the client had to drop).
	surface string
}

// expected says the case's expectation in words.
func (c serverCase) expected() string {
	s := expectText[c.expect]
	if c.expect == expUse {
		s = fmt.Sprintf(s, c.session)
	}
	if c.noRetryVersion {
		s += "; never logs in again with the same protocol version"
	}
	if c.aboutBind != "" {
		s += "; " + c.aboutBind
	}
	switch c.surface {
	case "":
	case surfaceError:
		s += "; reports the login failed to its caller"
	case transient57, transient58:
		s += "; surfaces " + c.surface + " to its caller (WIRE.md §8), or 0 when its own retry succeeded"
	default:
		s += "; surfaces " + c.surface + " to its caller (WIRE.md §8)"
	}
	return s
}

// surfaceError is the surface of a login the client must drop and that
// WIRE.md gives no code for: any error, not success.
const surfaceError = "error"

// padLimit bounds the zero body the kit adds to a scripted header whose
// size field claims more than the vector holds.
const padLimit = 1 << 20

// serverCases builds the server-mode catalogue: one case per vector of
// every kind whose file says a client decodes it (side "client"), then the
// kit's own cases. A client-side kind the kit has no way to serve is an
// error, so that a new kind is not silently left out.
func serverCases(vs *vectorSet, reg *registry) ([]serverCase, error) {
	return serverCasesAt(vs, reg, protocol0110)
}

// serverCasesAt is serverCases for a kit serving protocol: the version its
// own login replies announce.
func serverCasesAt(vs *vectorSet, reg *registry, protocol codec.Version) ([]serverCase, error) {
	var cs []serverCase
	for _, kind := range serveOrder(vs.side("client")) {
		build, ok := serverBuilders[kind]
		if !ok {
			return nil, fmt.Errorf("vectors: client-side kind %q: server mode has no way to send it", kind)
		}
		for _, v := range vs.kind(kind) {
			cs = append(cs, build(v))
		}
	}
	own, err := ownServerCases(reg, protocol)
	if err != nil {
		return nil, err
	}
	return append(cs, own...), nil
}

// serverBuilders turn a vector of a client-side kind into a case: how the
// kit sends it (as the login's answer or the ping's) and what the client
// must then do.
var serverBuilders = map[string]func(vectorCase) serverCase{
	"login_reply_frame": func(v vectorCase) serverCase {
		c := loginFrameCase(v)
		c.surface = vectorSurface(v)
		return c
	},
	"result_section": func(v vectorCase) serverCase {
		c := resultSectionCase(v)
		code, _ := v.Expect.uint("result_code")
		c.surface = surfaceOf(c, code)
		return c
	},
	"login_reply": func(v vectorCase) serverCase {
		c := loginReplyCase(v)
		c.surface = surfaceOf(c, 0)
		return c
	},
	"eviction":     evictionCase,
	"reply_header": replyHeaderCase,
}

// serveOrder puts the kinds in the order the report has always listed
// them (whole login answers first, then their parts, then headers), any
// other after them by name.
func serveOrder(kinds []string) []string {
	rank := map[string]int{"login_reply_frame": 1, "result_section": 2, "login_reply": 3, "eviction": 4, "reply_header": 5}
	sort.SliceStable(kinds, func(i, j int) bool {
		ri, rj := rank[kinds[i]], rank[kinds[j]]
		if ri == 0 || rj == 0 {
			return ri != 0 && rj == 0 || ri == rj && kinds[i] < kinds[j]
		}
		return ri < rj
	})
	return kinds
}

// fromVector fills what every vector-derived case shares.
func fromVector(v vectorCase, at string) serverCase {
	return serverCase{ID: "v" + strconv.Itoa(v.ID), Vector: v.ID, Name: v.Name, Rule: ruleText(v.Section, v.Rules), at: at}
}

// ruleText names a rule as WIRE.md §section and its rule ids.
func ruleText(section string, rules []string) string {
	s := "WIRE.md §" + section
	if len(rules) > 0 {
		s += " " + strings.Join(rules, ", ")
	}
	return s
}

// loginOutcome classifies a login answer a vector accepts by its result
// code: 0 is used, 57 replayed, 58 re-issued, any other refused.
func loginOutcome(c *serverCase, code uint64, session uint64) {
	switch code {
	case 0:
		c.expect, c.session = expUse, session
	case uint64(codec.StatusTransientNotCommitted):
		c.expect = expReplay
	case uint64(codec.StatusTransientNotAccepted):
		c.expect = expReissue
	default:
		c.expect = expRefused
	}
}

// vectorSurface is what a vector says an SDK surfaces.
func vectorSurface(v vectorCase) string {
	switch {
	case v.Expect.SDKError == "IncompatibleProtocolVersion":
		return v.Expect.SDKError
	case v.Expect.SDKCode != nil:
		return strconv.Itoa(*v.Expect.SDKCode)
	}
	return ""
}

// surfaceOf is what a login answer of the given outcome surfaces: a
// malformed frame is 3 (InvalidCommand, WIRE.md section 8).
func surfaceOf(c serverCase, code uint64) string {
	if c.expect == expDrop {
		return strconv.Itoa(int(codec.StatusInvalidCommand))
	}
	return strconv.FormatUint(code, 10)
}

func loginFrameCase(v vectorCase) serverCase {
	c := fromVector(v, "login")
	c.answer = answer{frame: unhex(v.Input), patchClient: true, pad: true}
	if v.Expect.Verdict != "ok" {
		c.expect = expDrop
		return c
	}
	code, status := uint64(0), uint64(0)
	if v.Expect.SDKCode != nil {
		code = uint64(*v.Expect.SDKCode)
	}
	status, _ = v.Expect.uint("status")
	session, _ := v.Expect.uint("session")
	if status != 0 {
		code = status
	}
	loginOutcome(&c, code, session)
	return c
}

// registerReply is a Reply header answering a login: operation Register,
// request 0, status 0, the body given.
func registerReply(body []byte) []byte {
	f, _ := codec.AppendReplyFrame(nil, codec.ReplyHeader{Operation: codec.OperationRegister}, body)
	return f
}

func resultSectionCase(v vectorCase) serverCase {
	c := fromVector(v, "login")
	body := unhex(v.Input)
	c.answer = answer{frame: registerReply(body), patchClient: true}
	code, _ := v.Expect.uint("result_code")
	if v.Expect.Verdict != "ok" {
		c.expect = expDrop
		return c
	}
	if code != 0 {
		loginOutcome(&c, code, 0)
		return c
	}
	// Result 0: what follows the section must be a login reply.
	payload, _ := v.Expect.Fields["payload"].(string)
	login, err := codec.ParseLoginReply(unhex(payload))
	if err != nil {
		c.expect = expDrop
		return c
	}
	loginOutcome(&c, 0, login.Session)
	return c
}

func loginReplyCase(v vectorCase) serverCase {
	c := fromVector(v, "login")
	c.answer = answer{frame: registerReply(append([]byte{0, 0, 0, 0}, unhex(v.Input)...)), patchClient: true}
	if v.Expect.Verdict != "ok" {
		c.expect = expDrop
		return c
	}
	session, _ := v.Expect.uint("session")
	loginOutcome(&c, 0, session)
	return c
}

// evictionCase sends the vector's frame (its header, and the body a
// reader would wait for) as the login's answer. A frame cut inside its
// header is followed by the kit's close.
func evictionCase(v vectorCase) serverCase {
	c := fromVector(v, "login")
	frame := headerFrame(v)
	c.answer = answer{frame: frame, closeAfter: len(frame) < codec.HeaderSize}
	c.expect, c.surface = expDrop, vectorSurface(v)
	if frameVerdict(v) == "ok" && len(frame) >= codec.HeaderSize && frame[255] == byte(codec.ReasonIncompatibleProtocol) {
		c.noRetryVersion = true
	}
	return c
}

// replyHeaderCase sends the vector's frame as the ping's answer, under the
// ping's client id and request number.
func replyHeaderCase(v vectorCase) serverCase {
	c := fromVector(v, "ping")
	frame := headerFrame(v)
	c.answer = answer{frame: frame, patchClient: true, patchRequest: true, closeAfter: len(frame) < codec.HeaderSize}
	c.expect = expDrop
	if frameVerdict(v) == "ok" && (v.Frame == nil || v.Frame.whole(padLimit)) {
		c.expect = expPingOK
	}
	return c
}

// headerFrame is what the kit writes for a header vector: its frame, or
// for a vector without one (an older file), its header padded to the size
// it claims.
func headerFrame(v vectorCase) []byte {
	if v.Frame != nil {
		return v.Frame.bytes(padLimit)
	}
	f := unhex(v.Input)
	if len(f) >= codec.HeaderSize {
		if size := int(binary.LittleEndian.Uint32(f[48:])); size > len(f) && size <= padLimit {
			f = append(f, make([]byte, size-len(f))...)
		}
	}
	return f
}

// frameVerdict is the verdict of reading the vector as a frame.
func frameVerdict(v vectorCase) string {
	if v.Frame != nil {
		return v.Frame.Expect.Verdict
	}
	return v.Expect.Verdict
}

// goodLoginReply is the login reply the kit sends when a case does not
// script the login: user 1, the session given, the kit's protocol.
func goodLoginReply(session uint64, protocol codec.Version) []byte {
	f, _ := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Operation: codec.OperationRegister}, codec.LoginReply{
		UserID: 1, Session: session, ServerProtocol: protocol, ServerVersion: []byte("conform"),
	})
	return f
}

// The protocols the kit serves in server mode (-protocol): the seed's
// 0.11.0 and 0.11.1, the bind-secret revision (WIRE.md section 10).
var (
	protocol0110 = codec.MustPack(0, 11, 0)
	protocol0111 = codec.MustPack(0, 11, 1)
)

// pingReply answers a ping: status 0, operation NonReplicated, empty body.
func pingReply(status codec.Status) []byte {
	f, _ := codec.AppendReplyFrame(nil, codec.ReplyHeader{Operation: codec.OperationNonReplicated, Status: status}, nil)
	return f
}

// withRequest sets a Reply's request number.
func withRequest(f []byte, n uint64) []byte {
	binary.LittleEndian.PutUint64(f[200:], n)
	return f
}

// withSize sets a header's size field.
func withSize(f []byte, n uint32) []byte {
	binary.LittleEndian.PutUint32(f[48:], n)
	return f
}

// ownSession is the session of the kit's own scripted login replies.
const ownSession = 7001

// ownServerCases are the behaviours no vector holds. Their ids come from
// the registry, which only grows.
func ownServerCases(reg *registry, protocol codec.Version) ([]serverCase, error) {
	good := goodLoginReply(ownSession, protocol)
	rule7 := "WIRE.md §7 lifecycle.9"
	defs := []serverCase{
		{Name: "login-reply/stall-after-header", Rule: "WIRE.md §5 frame", at: "login",
			answer: answer{frame: good, patchClient: true, stall: true}, expect: expUse, session: ownSession},
		{Name: "login-reply/split-across-writes", Rule: "WIRE.md §5 frame", at: "login",
			answer: answer{frame: good, patchClient: true, chunk: 7}, expect: expUse, session: ownSession},
		{Name: "login-reply/size-64MiB-claimed", Rule: "WIRE.md §5 frame size cap", at: "login",
			answer: answer{frame: withSize(goodLoginReply(ownSession, protocol), codec.MaxFrameSize), patchClient: true}, expect: expDrop},
		{Name: "login-reply/size-above-64MiB", Rule: "WIRE.md §5 frame size cap", at: "login",
			answer: answer{frame: withSize(goodLoginReply(ownSession, protocol), codec.MaxFrameSize+1), patchClient: true}, expect: expDrop},
		{Name: "login-reply/other-request-number", Rule: rule7, at: "login",
			answer: answer{frame: withRequest(goodLoginReply(ownSession, protocol), 7), patchClient: true}, expect: expDrop},
		{Name: "login-reply/other-client-id", Rule: rule7, at: "login",
			answer: answer{frame: goodLoginReply(ownSession, protocol)}, expect: expDrop},
		{Name: "login-reply/closed-mid-body", Rule: "WIRE.md §5 frame", at: "login",
			answer: answer{frame: good[:270], patchClient: true, closeAfter: true}, expect: expDrop},
		{Name: "login-reply/closed-mid-header", Rule: "WIRE.md §5 frame", at: "login",
			answer: answer{frame: good[:100], closeAfter: true}, expect: expDrop},
		{Name: "login-reply/unsolicited-frame-after", Rule: rule7, at: "login",
			answer: answer{frame: good, patchClient: true, then: withRequest(pingReply(codec.StatusUnauthenticated), 7)},
			expect: expOneMore, session: ownSession},
		{Name: "login-reply/duplicate-after", Rule: rule7, at: "login",
			answer: answer{frame: good, patchClient: true, then: good}, expect: expOneMore, session: ownSession},
		{Name: "ping-reply/other-request-number", Rule: rule7, at: "ping",
			answer: answer{frame: withRequest(pingReply(0), 99), patchClient: true}, expect: expDrop},
		{Name: "ping-reply/other-client-id", Rule: rule7, at: "ping",
			answer: answer{frame: pingReply(0), patchRequest: true}, expect: expDrop},
		{Name: "ping-reply/split-across-writes", Rule: "WIRE.md §5 frame", at: "ping",
			answer: answer{frame: pingReply(0), patchClient: true, patchRequest: true, chunk: 5}, expect: expPingOK},
		{Name: "ping-reply/delayed", Rule: "WIRE.md §7 lifecycle.3", at: "ping",
			answer: answer{frame: pingReply(0), patchClient: true, patchRequest: true, delay: true}, expect: expPingOK},
		{Name: "ping-reply/under-operation-register", Rule: rule7, at: "ping",
			answer: answer{frame: registerReply(nil), patchClient: true, patchRequest: true}, expect: expPingOK},
		{Name: "ping-reply/eviction-1-server-id", Rule: "WIRE.md §7 lifecycle.10", at: "ping",
			answer: answer{frame: mustEviction(codec.NewEviction(codec.Uint128{Lo: 0x5e1f}, codec.ReasonNoSession))}, expect: expDrop},
		{Name: "ping-reply/cut-then-closed", Rule: "WIRE.md §5 frame", at: "ping",
			answer: answer{frame: pingReply(0)[:200], closeAfter: true}, expect: expDrop},
		{Name: "login-eviction/14-then-no-retry", Rule: "WIRE.md §8 IncompatibleProtocolVersion", at: "login",
			answer: answer{frame: mustEviction(codec.NewIncompatibleProtocolEviction(codec.Uint128{Lo: 1}, codec.Window{Min: codec.MustPack(9, 0, 0), Max: codec.MustPack(9, 1, 0)}))},
			expect: expDrop, noRetryVersion: true, surface: "IncompatibleProtocolVersion"},
	}
	if protocol == protocol0111 {
		defs = append(defs, bindServerCases()...)
	}
	for i := range defs {
		if defs[i].at == "login" && defs[i].expect == expDrop && defs[i].surface == "" {
			defs[i].surface = surfaceError
		}
		id, err := reg.id("server", defs[i].Name)
		if err != nil {
			return nil, err
		}
		defs[i].ID = id
	}
	return defs, nil
}

// mustEviction encodes a built-in eviction, which is valid by
// construction (TestOwnCasesEncode holds that).
func mustEviction(e codec.Eviction) []byte {
	b, _ := e.AppendBinary(nil)
	return b
}

// bindServerCases are the cases of protocol 0.11.1 only (WIRE.md section
// 10.4): the first ping after a good login is answered by closing the
// connection, as a broken socket, so that a client that reconnects on its
// own may resume its session with BIND_SESSION. The kit refuses that bind
// with 40 in one case, where the client must log in again with a new
// client id and a new secret, and accepts it in the other, where the
// client carries the session on the new connection. A client that does not
// reconnect sends nothing more on the connection and passes both.
func bindServerCases() []serverCase {
	rule := "WIRE.md §10.4 lifecycle.10.bind"
	closed := answer{closeAfter: true}
	return []serverCase{
		{Name: "bind/refused-then-login-again", Rule: rule, at: "ping", answer: closed, expect: expDrop, refuseBinds: true,
			aboutBind: "if it binds its session on a new connection, the kit refuses with 40 and it logs in again, with a new client id and a new secret, before any other request"},
		{Name: "bind/resumed-after-close", Rule: rule, at: "ping", answer: closed, expect: expDrop,
			aboutBind: "if it binds its session on a new connection, the kit accepts (status 0, the same session) and it carries that session there"},
	}
}
