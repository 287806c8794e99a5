package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
)

// The servers of the lifecycle cases, stated in lifecycle.json.
func lifecycleServers() map[string]ServerConfig {
	users := []UserConfig{{ID: 1, Name: "iggy", Password: "iggy"}, {ID: 2, Name: "bob", Password: "secret", Inactive: true}}
	tokens := []TokenConfig{{Token: "tok", User: "iggy"}, {Token: "bobtok", User: "bob"}}
	return map[string]ServerConfig{
		"default": {Window: TextRange{Min: "0.11.0", Max: "0.11.0"}, Version: "0.11.0", Users: users, Tokens: tokens, Handler: "deny"},
		"wide":    {Window: TextRange{Min: "0.10.0", Max: "0.11.3"}, Version: "iggy-server 0.11.3", Users: users, Tokens: tokens, Handler: "deny"},
		"v1":      {Window: TextRange{Min: "1.0.0", Max: "1.2.3"}, Version: "1.2.3", Users: users, Tokens: tokens, Handler: "deny"},
		// Protocol 0.11.1 (WIRE.md section 10.5): upstream's gate, and a
		// server of both revisions; both count patch.
		"v0111": {Window: TextRange{Min: "0.11.1", Max: "0.11.1", CountPatch: true}, Version: "0.11.1", Users: users, Tokens: tokens, Handler: "deny"},
		"both":  {Window: TextRange{Min: "0.11.0", Max: "0.11.1", CountPatch: true}, Version: "0.11.1", Users: users, Tokens: tokens, Handler: "deny"},
	}
}

// script builds one lifecycle case step by step. It tracks what the
// server must hand out next (sessions start at 1 and only grow) so that
// the expected login replies are exact.
type script struct {
	c       *Case
	srv     ServerConfig
	session uint64
	window  [2]uint32 // max, min as packed versions
	conn    int       // the connection the next steps go to
}

func (g *gen) life(name, server, note string, rules ...string) *script {
	srv := lifecycleServers()[server]
	w, _ := parseWindow(srv.Window) // a window that does not parse fails the case's replay
	// The section is the first rule's: 7, or 10.4 and 10.5 for protocol 0.11.1.
	c := g.add(Case{Name: "lifecycle/" + name, Kind: KindLifecycle, Section: g.rules[rules[0]].Section, Rules: rules,
		Note: note, Server: server})
	return &script{c: c, srv: srv, window: [2]uint32{uint32(w.Max), uint32(w.Min)}}
}

func (s *script) step(in []byte, out, then, note string) *script {
	s.c.Steps = append(s.c.Steps, Step{In: hex.EncodeToString(in), Out: out, Then: then, Note: note, Conn: s.conn})
	return s
}

// on sends the next steps on connection k of the case (0 is the first).
func (s *script) on(k int) *script {
	s.conn = k
	return s
}

// answer expects an answer after which the connection stays open.
func (s *script) answer(in, out []byte, note string) *script {
	return s.step(in, hex.EncodeToString(out), StateOpen, note)
}

// evicted expects an eviction, after which the server closes.
func (s *script) evicted(in, out []byte, note string) *script {
	return s.step(in, hex.EncodeToString(out), OutClosed, note)
}

func (s *script) dropped(in []byte, note string) *script {
	return s.step(in, OutDropped, StateOpen, note)
}

func (s *script) closed(in []byte, note string) *script {
	return s.step(in, OutClosed, OutClosed, note)
}

// afterLogin starts a case on the default server whose first step is a
// password login of client A (session 1).
func (g *gen) afterLogin(name, note string, rules ...string) *script {
	return g.life(name, "default", note, rules...).loggedIn(passwordLogin(cA, "iggy", "iggy"), "session 1")
}

// loggedIn expects the Register in to log in user 1, every server's one active user.
func (s *script) loggedIn(in []byte, note string) *script {
	s.session++
	out := echo(in, opRegister, cat(u32b(0), replyBody(1, s.session, s.window[0], s.srv.Version)))
	hdr(out).u64(176, s.session).u64(184, s.session) // op and commit
	return s.answer(in, out, note)
}

// echo is the Reply to the request in under op, carrying body: the
// request's checksum, client and request number echoed.
func echo(in []byte, op byte, body []byte) []byte {
	h := in[:256]
	return frame(newHdr(cmdReply).u64(128, le.Uint64(h[144:])).u64(136, le.Uint64(h[152:])).
		u64(160, le.Uint64(h[128:])).u64(168, le.Uint64(h[136:])).u64(200, le.Uint64(h[168:])).u8(208, op), body)
}

// Request frames. Clients are u64 values in the low half.

func frame(h hdr, body []byte) []byte { return cat(h.u32(48, uint32(256+len(body))), body) }

func register(client uint64, body []byte) []byte {
	return frame(request(opRegister).u64(128, client), body)
}

func passwordLogin(client uint64, user, pass string) []byte {
	return register(client, loginBody(goInfo(), user, pass, ""))
}

func tokenLogin(client uint64, token string) []byte {
	return register(client, patBody(goInfo(), token, ""))
}

func nonReplicated(client, req, session uint64, code uint32) []byte {
	return frame(request(opNonReplicated).u64(128, client).u64(168, req).u64(184, session).u32(196, code), nil)
}

func replicatedReq(client uint64, op byte, req, session uint64) []byte {
	return frame(request(op).u64(128, client).u64(168, req).u64(184, session), nil)
}

// Answers.

func evictFrame(client uint64, reason byte) hdr {
	return newHdr(cmdEviction).u64(128, client).u8(255, reason)
}

func (s *script) incompatible(client uint64) []byte {
	return evictFrame(client, 14).u32(144, s.window[0]).u32(148, s.window[1])
}

func replyFrame(client, req uint64, op byte, status uint32) []byte {
	return newHdr(cmdReply).u64(160, client).u64(200, req).u8(208, op).u32(216, status)
}

const (
	cA = 0x1111
	cB = 0x2222
	cC = 0x3333
)

func (g *gen) loginLifecycle() {
	g.life("1a/empty-body", "default", "a Register with no body", "lifecycle.1a", "lifecycle.1.evict").
		evicted(register(cA, nil), evictFrame(cA, 15), "eviction 15, window zero")
	g.life("1a/empty-sdk-name", "default", "a ClientVersionInfo whose sdk_name is empty", "lifecycle.1a").
		evicted(register(cA, loginBody(cvi(0x2C00, "", "0.1.0"), "iggy", "iggy", "")), evictFrame(cA, 15), "eviction 15")
	g.life("1a/truncated-info", "default", "a body cut inside sdk_version", "lifecycle.1a").
		evicted(register(cA, goInfo()[:14]), evictFrame(cA, 15), "eviction 15")
	g.life("1a/before-version", "default", "a malformed prefix is reported before the version is looked at", "lifecycle.1a").
		evicted(register(cA, cvi(pack(9, 0, 0), "go-sdk", "\xff")), evictFrame(cA, 15), "eviction 15, not 14")
	for _, v := range []struct {
		name, server string
		proto        uint32
		note         string
	}{
		{"next-minor", "default", pack(0, 12, 0), "0.12.0 against a 0.11.0 server"},
		{"older", "default", pack(0, 10, 9), "0.10.9 is below min 0.11.0"},
		{"zero", "default", 0, "0.0.0"},
		{"reserved-bits", "default", 0xC000_2C00, "reserved bits set: 14, not 15"},
		{"wide-next-minor", "wide", pack(0, 12, 0), "the window {min 0.10.0, max 0.11.3} travels as max at 144, min at 148"},
		{"v1-major", "v1", pack(2, 0, 0), "a major bump under strict semver"},
		{"v1-old-major", "v1", pack(0, 11, 0), "0.11.0 against a 1.x server"},
	} {
		s := g.life("1b/"+v.name, v.server, v.note, "lifecycle.1b", "version.reserved_bits")
		if v.name != "reserved-bits" {
			s.c.Rules = s.c.Rules[:1]
		}
		s.evicted(register(cA, loginBody(cvi(v.proto, "go-sdk", "0.1.0"), "iggy", "iggy", "")), s.incompatible(cA), "eviction 14 with the server's window")
	}
	s := g.life("1c/password", "default", "a password login, then a ping", "lifecycle.1c", "lifecycle.1.reply", "lifecycle.3")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), "Reply: Register, request 0, status 0, body 00 00 00 00 + login reply (session 1)").
		answer(nonReplicated(cA, 1, 1, 1), replyFrame(cA, 1, opNonReplicated, 0), "a ping after login")
	s = g.life("1c/patch-above-max", "wide", "0.11.1023 against max 0.11.3: the upper bound ignores patch", "lifecycle.1c", "window.0x")
	s.loggedIn(register(cA, loginBody(cvi(pack(0, 11, 1023), "go-sdk", "0.1.0"), "iggy", "iggy", "")), "logged in")
	s = g.life("1c/v1-minor-above-max", "v1", "1.5.0 against max 1.2.3: strict semver accepts any minor of the major", "lifecycle.1c", "window.1x")
	s.loggedIn(register(cA, loginBody(cvi(pack(1, 5, 0), "go-sdk", "0.1.0"), "iggy", "iggy", "")), "logged in")
	s = g.life("1c/trailing-bytes", "default", "bytes after the context are ignored by the prefix decode", "lifecycle.1c", "body.trailing")
	s.loggedIn(register(cA, cat(loginBody(goInfo(), "iggy", "iggy", ""), []byte("junk"))), "logged in")
	s = g.life("1c/echo", "default", "the login reply echoes the request checksum and a client id with both halves set", "lifecycle.1.reply")
	in := passwordLogin(cA, "iggy", "iggy")
	hdr(in).u64(136, 0x0123456789abcdef).u64(144, 0xabc)
	s.loggedIn(in, "client and request_checksum echoed")
	for _, f := range []struct{ name, user, pass, note string }{
		{"wrong-password", "iggy", "wrong", "a wrong password (the rest does not read as a token body)"},
		{"unknown-user", "nobody", "nothing", "an unknown user: the same answer"},
		{"inactive-user", "bob", "secret", "an inactive user with the right password: the same answer"},
		{"long-password", "iggy", repeat("x", 255), "a 255-byte wrong password"},
	} {
		g.life("1e/"+f.name, "default", f.note, "lifecycle.1e", "lifecycle.1c").
			evicted(passwordLogin(cA, f.user, f.pass), evictFrame(cA, 9), "eviction 9 (InvalidCredentials)")
	}
	g.life("1e/nothing-after-info", "default", "ClientVersionInfo and nothing more: neither body decodes", "lifecycle.1e").
		evicted(register(cA, goInfo()), evictFrame(cA, 15), "eviction 15")
	g.life("1e/short-after-info", "default", "a username claiming 5 bytes, 1 present: neither body decodes", "lifecycle.1e").
		evicted(register(cA, cat(goInfo(), []byte{5, 'a'})), evictFrame(cA, 15), "eviction 15")
	g.life("1.prefix/empty-wrong-password", "default", "iggy with an empty password and no context also reads as token \"iggy\", which is unknown", "lifecycle.1.prefix").
		evicted(passwordLogin(cA, "iggy", ""), evictFrame(cA, 10), "eviction 10, not 9")
}

func (g *gen) tokenLifecycle() {
	s := g.life("1d/token", "default", "a token login", "lifecycle.1d", "lifecycle.1.reply")
	s.loggedIn(tokenLogin(cA, "tok"), "logged in as user 1")
	g.life("1d/unknown-token", "default", "an unknown token", "lifecycle.1d").
		evicted(tokenLogin(cA, "nope"), evictFrame(cA, 10), "eviction 10 (InvalidToken)")
	g.life("1d/inactive-user", "default", "a token of an inactive user", "lifecycle.1d").
		evicted(tokenLogin(cA, "bobtok"), evictFrame(cA, 11), "eviction 11 (UserInactive)")
	g.life("1d/empty-token", "default", "an empty token is well-formed and unknown", "lifecycle.1d").
		evicted(tokenLogin(cA, ""), evictFrame(cA, 10), "eviction 10")
	g.afterLogin("1.sessions/three-logins", "sessions grow across logins on one server: a re-login on the same connection, then another client id", "lifecycle.1.sessions", "lifecycle.7.relogin").
		loggedIn(tokenLogin(cA, "tok"), "session 2 replaces the binding").
		loggedIn(passwordLogin(cB, "iggy", "iggy"), "session 3 under a new client id")
	g.life("1.evict/closed-after", "default", "every eviction carries the request's client id; the connection is closed after it", "lifecycle.1.evict").
		evicted(tokenLogin(0x0123456789abcdef, "nope"), evictFrame(0x0123456789abcdef, 10), "eviction 10 to the request's client id").
		closed(nonReplicated(cA, 1, 0, 1), "a closed connection answers nothing")
}

func (g *gen) beforeLoginLifecycle() {
	for _, code := range []uint32{38, 44} {
		g.life(fmt.Sprintf("2/legacy-%d", code), "default", "a legacy login command", "lifecycle.2").
			evicted(nonReplicated(cA, 1, 0, code), evictFrame(cA, 15), "eviction 15")
	}
	g.life("3/ping-before-login", "default", "PING before login, then again with another request number", "lifecycle.3", "lifecycle.9").
		answer(nonReplicated(cA, 1, 0, 1), replyFrame(cA, 1, opNonReplicated, 0), "status 0, request 1 echoed").
		answer(nonReplicated(cA, 5, 0, 1), replyFrame(cA, 5, opNonReplicated, 0), "request 5 echoed").
		answer(nonReplicated(cA, 2, 0, 1), replyFrame(cA, 2, opNonReplicated, 0), "request numbers need not increase")
	s := g.life("4/denied-before-login", "default", "every other NonReplicated code before login is denied with 40 and the connection lives on", "lifecycle.4", "sdk.40")
	for i, code := range []uint32{39, 40, 45, 12, 0xFFFF_FFFF} {
		s.answer(nonReplicated(cA, uint64(i+1), 0, code), replyFrame(cA, uint64(i+1), opNonReplicated, 40), fmt.Sprintf("code %d: status 40", code))
	}
	s.answer(nonReplicated(cA, 9, 0, 1), replyFrame(cA, 9, opNonReplicated, 0), "a ping still works")
	for _, r := range []struct {
		name string
		op   byte
	}{{"metadata", opCreateStream}, {"partition", opSendMessages}, {"logout", opLogout}, {"internal", 64}} {
		g.life("5/"+r.name+"-before-login", "default", "a replicated request before login", "lifecycle.5").
			evicted(replicatedReq(cA, r.op, 1, 3), evictFrame(cA, 1), "eviction 1 (NoSession)")
	}
	s = g.life("2/legacy-after-login", "default", "a legacy login after a login", "lifecycle.2")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), "logged in").
		evicted(nonReplicated(cA, 1, 1, 38), evictFrame(cA, 15), "eviction 15")
}

func (g *gen) afterLoginLifecycle() {
	g.afterLogin("6/logout-and-relogin", "logout, then a ping, then a new login under a new client id", "lifecycle.6", "lifecycle.1.sessions").
		answer(replicatedReq(cA, opLogout, 1, 1), replyFrame(cA, 1, opLogout, 0), "Logout answered: status 0, operation 3, request 1").
		answer(nonReplicated(cA, 2, 0, 1), replyFrame(cA, 2, opNonReplicated, 0), "ping").
		answer(nonReplicated(cA, 2, 0, 12), replyFrame(cA, 2, opNonReplicated, 40), "logged out: denied with 40 again").
		loggedIn(passwordLogin(cB, "iggy", "iggy"), "session 2")
	g.afterLogin("6/logged-out-replicated", "after logout a replicated request has no session", "lifecycle.6", "lifecycle.5").
		answer(replicatedReq(cA, opLogout, 1, 1), replyFrame(cA, 1, opLogout, 0), "logged out").
		evicted(replicatedReq(cA, opCreateStream, 2, 1), evictFrame(cA, 1), "eviction 1")
	g.afterLogin("7/too-low", "a re-login with the same client id fences the old session", "lifecycle.7.too_low", "lifecycle.7.relogin").
		loggedIn(passwordLogin(cA, "iggy", "iggy"), "session 2, same client id").
		evicted(replicatedReq(cA, opCreateStream, 1, 1), evictFrame(cA, 7), "session 1 < 2: eviction 7 (SessionTooLow)")
	g.afterLogin("7/too-low-logout", "Logout is fenced too", "lifecycle.7.too_low").
		loggedIn(tokenLogin(cA, "tok"), "session 2").
		evicted(replicatedReq(cA, opLogout, 1, 1), evictFrame(cA, 7), "eviction 7")
	g.afterLogin("7/ahead", "a session above the bound one is dropped, and nothing changes", "lifecycle.7.ahead", "lifecycle.7.deny").
		dropped(replicatedReq(cA, opCreateStream, 1, 2), "session 2 > 1: dropped").
		answer(replicatedReq(cA, opCreateStream, 1, 1), replyFrame(cA, 1, opCreateStream, 3), "the right session reaches the handler: denied with 3")
	g.afterLogin("7/other-client", "a replicated request from another client id", "lifecycle.7.other_client").
		evicted(replicatedReq(cB, opCreateStream, 1, 1), evictFrame(cB, 1), "eviction 1 to client B")
	s := g.life("7/relogin-other-client", "default", "a login under client B replaces client A's binding", "lifecycle.7.relogin", "lifecycle.7.other_client")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), "A, session 1").
		loggedIn(passwordLogin(cB, "iggy", "iggy"), "B, session 2").
		evicted(replicatedReq(cA, opCreateStream, 1, 1), evictFrame(cA, 1), "A is no longer bound: eviction 1")
	g.afterLogin("7/deny", "after login, other commands are the application's: this server denies them with 3", "lifecycle.7.deny", "lifecycle.9").
		answer(nonReplicated(cA, 7, 1, 12), replyFrame(cA, 7, opNonReplicated, 3), "GetClusterMetadata: status 3, request 7 echoed").
		answer(replicatedReq(cA, opCreateStream, 1, 1), replyFrame(cA, 1, opCreateStream, 3), "CreateStream: status 3, operation 128 echoed").
		answer(replicatedReq(cA, opSendMessages, 1, 1), replyFrame(cA, 1, opSendMessages, 3), "SendMessages: status 3").
		answer(nonReplicated(cA, 1, 1, 1), replyFrame(cA, 1, opNonReplicated, 0), "ping")
	g.afterLogin("7/failed-relogin", "a failed login on a logged-in connection is an eviction like any other", "lifecycle.1e").
		evicted(passwordLogin(cA, "iggy", "bad"), evictFrame(cA, 9), "eviction 9")
}

func (g *gen) droppedLifecycle() {
	bad := map[string][]byte{}
	order := []string{}
	add := func(name string, f []byte) { bad[name], order = f, append(order, name) }
	add("reply-frame", frame(reply(opNonReplicated), nil))
	add("eviction-frame", eviction(9))
	add("client-zero", frame(request(opNonReplicated).u64(128, 0), nil))
	add("operation-unknown", frame(request(opNonReplicated).u8(176, 4), nil))
	add("operation-zero", frame(request(opRegister).u8(176, 0), loginBody(goInfo(), "iggy", "iggy", "")))
	add("register-session", frame(request(opRegister).u64(184, 1), loginBody(goInfo(), "iggy", "iggy", "")))
	add("code-zero", frame(request(opNonReplicated).u32(196, 0), nil))
	add("replicated-request-zero", frame(request(opCreateStream).u64(168, 0), nil))
	add("reserved-frame", frame(request(opNonReplicated).u8(100, 1), nil))
	add("padding", frame(request(opNonReplicated).u8(180, 1), nil))
	add("logout-code", frame(request(opLogout).u64(128, cA).u64(184, 1).u64(168, 1).u32(196, 39), nil))
	for _, name := range order {
		g.life("8/dropped-"+name, "default", "a frame whose header is not a valid Request is dropped; a ping after it is answered", "lifecycle.8.dropped").
			dropped(bad[name], "dropped").
			answer(nonReplicated(cA, 1, 0, 1), replyFrame(cA, 1, opNonReplicated, 0), "still open")
	}
	g.afterLogin("8/dropped-after-login", "dropped frames change nothing after login either", "lifecycle.8.dropped").
		dropped(bad["register-session"], "a Register with a session: dropped, no new login").
		dropped(bad["logout-code"], "a Logout with a code: dropped, still logged in").
		answer(replicatedReq(cA, opLogout, 1, 1), replyFrame(cA, 1, opLogout, 0), "the binding is intact")
	for _, sz := range []struct {
		name string
		in   []byte
	}{
		{"size-255", request(opNonReplicated).u32(48, 255)},
		{"size-zero", request(opNonReplicated).u32(48, 0)},
		{"size-above-64MiB", request(opNonReplicated).u32(48, maxFrame+1)},
		{"short-frame", request(opNonReplicated)[:100]},
	} {
		g.life("8/"+sz.name, "default", "a frame whose size cannot be used ends the connection without an answer", "lifecycle.8.size").
			closed(sz.in, "closed").
			closed(nonReplicated(cA, 1, 0, 1), "nothing more is answered")
	}
	g.afterLogin("8/size-after-login", "an unusable size after login closes the connection too", "lifecycle.8.size").
		closed(request(opNonReplicated).u32(48, 0xFFFF_FFFF), "closed")
}

// Sequences first written as hostile cases of the conformance kit's client
// mode (cmd/conform), kept here so that every runner plays them. A runner
// may write the steps of the last two at once, as the kit does: the
// answers are the same.
func (g *gen) sequenceLifecycle() {
	// A usable size: the frame is whole, its header not a valid Request.
	garbage := hdr(bytes.Repeat([]byte{0xa5}, 256)).u32(48, 256).u8(60, cmdRequest)
	g.life("8/dropped-garbage-header", "default", "a header of 0xa5 bytes with a usable size and the Request command is dropped; a ping after it is answered", "lifecycle.8.dropped").
		dropped(garbage, "dropped").
		answer(nonReplicated(cA, 1, 0, 1), replyFrame(cA, 1, opNonReplicated, 0), "still open")
	g.afterLogin("7/unknown-code-after-login", "a NonReplicated code no command has, after login, is the application's: denied with 3", "lifecycle.7.deny").
		answer(nonReplicated(cA, 1, 1, 9999), replyFrame(cA, 1, opNonReplicated, 3), "code 9999: status 3, request 1 echoed")
	g.life("9/ping-request-zero", "default", "a ping with request number 0 is answered, the number echoed", "lifecycle.9", "lifecycle.3").
		answer(nonReplicated(cA, 0, 0, 1), replyFrame(cA, 0, opNonReplicated, 0), "status 0, request 0 echoed")
	g.afterLogin("1.sessions/two-logins-at-once", "a login, then a second under another client id right behind it (a runner may write both at once)", "lifecycle.1.sessions", "lifecycle.7.relogin").
		loggedIn(passwordLogin(cB, "iggy", "iggy"), "session 2 under the second client id")
	g.life("8/dropped-register-request", "default", "a Register with request number 5 is not a valid Request: dropped, no login", "lifecycle.8.dropped", "request.register.request").
		dropped(frame(request(opRegister).u64(128, cA).u64(168, 5), loginBody(goInfo(), "iggy", "iggy", "")), "dropped").
		answer(nonReplicated(cA, 1, 0, 1), replyFrame(cA, 1, opNonReplicated, 0), "still open, not logged in")
	g.life("3/ping-with-body", "default", "a ping carrying a body is still a ping: answered with status 0 and an empty body", "lifecycle.3").
		answer(frame(request(opNonReplicated).u64(128, cA), []byte("body")), replyFrame(cA, 1, opNonReplicated, 0), "status 0, empty body")
	g.afterLogin("1.evict/frames-behind-eviction", "frames right behind one that evicts are never answered (a runner may write all three at once)", "lifecycle.1.evict", "lifecycle.2").
		evicted(nonReplicated(cA, 1, 0, 38), evictFrame(cA, 15), "a legacy login: eviction 15").
		closed(nonReplicated(cA, 1, 1, 1), "the ping behind it is not answered")
}
