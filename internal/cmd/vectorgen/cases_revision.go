package main

import "bytes"

// The bodies of protocol 0.11.1's cases (WIRE.md section 10): a 0.11.1
// ClientVersionInfo of 17 bytes, so the bind secret lies at 17..49, and
// two secrets.
var (
	secret11 = bytes.Repeat([]byte{0x5a}, 32)
	wrong11  = bytes.Repeat([]byte{0xbb}, 32)
)

// info11 is that ClientVersionInfo and the bind secret after it: a login
// body of 0.11.1 is 0.11.0's with info11 for its ClientVersionInfo.
func info11(secret []byte) []byte { return cat(cvi(0x2C01, "go-sdk", "0.1.0"), secret) }

func bindBody(info []byte, client, session, watermark uint64, secret []byte) []byte {
	return cat(info, u64b(client), u64b(0), u64b(session), u64b(watermark), secret)
}

func loginSecretF(proto uint32, user, pass, ctx string) map[string]any {
	f := loginF(proto, "go-sdk", "0.1.0", user, pass, ctx)
	f["bind_secret_len"] = 32
	return f
}

func bindF(proto uint32, client, session, watermark uint64) map[string]any {
	f := infoF(proto, "go-sdk", "0.1.0")
	f["client_id"], f["session"], f["metadata_watermark"], f["bind_secret_len"] = u64(client), u64(session), u64(watermark), 32
	return f
}

func (g *gen) loginSecretCases() {
	k, p := KindLoginSecret, "login-register-bind-secret/"
	ok := func(name, note string, in []byte, f map[string]any, rules ...string) *Case {
		return g.ok(k, p+name, "10.2", note, in, f, rules...)
	}
	body := loginBody(info11(secret11), "iggy", "iggy", "") // 17 | 32 | 1+4 | 1+4 | 4 = 63 bytes
	ok("golden/iggy", "0.11.1, the bind secret 5a x 32 (shown as its length), user iggy, password iggy", body,
		loginSecretF(0x2C01, "iggy", "iggy", ""), "login.bind_secret.length", "revision.of")
	ok("golden/secret-above-0x7f", "a secret of bytes above 0x7f, as random ones have: raw bytes, not text",
		loginBody(info11(wrong11), "jürgen", "pässwörd", "日本"), loginSecretF(0x2C01, "jürgen", "pässwörd", "日本"), "login.bind_secret.length")
	g.bad(k, p+"truncated/bind-secret", "the body ends 12 bytes into the bind secret", body[:29], "login.truncated", "bind_secret", 17)
	g.bad(k, p+"truncated/username-len", "the body ends after the bind secret", body[:49], "login.truncated", "username_len", 49)
	g.bad(k, p+"username/utf8", "a username that is not UTF-8, after the secret", loginBody(info11(secret11), "ig\xffgy", "iggy", ""),
		"login.username.utf8", "username", 52)
	g.bad(k, p+"password/utf8", "a password that is not UTF-8", loginBody(info11(secret11), "iggy", "\xc3", ""), "login.password.utf8", "password", 55)
	g.bad(k, p+"trailing", "one byte after the context (strict parse)", cat(body, []byte{0}), "body.trailing", "body", 63)
	ok("prefix/trailing-ignored", "the prefix decode ignores bytes after the last field", cat(body, []byte("zz")),
		loginSecretF(0x2C01, "iggy", "iggy", ""), "body.trailing").prefix(63)
	// A 0.11.0 body read in the 0.11.1 layout: its username and password
	// become the first 10 of the secret's 32 bytes, and it runs out.
	g.bad(k, p+"layout/0.11.0-body", "a 0.11.0 body (iggy/iggy) read in the 0.11.1 layout runs out inside the bind secret: the layout is the caller's, never guessed",
		loginBody(goInfo(), "iggy", "iggy", ""), "login.truncated", "bind_secret", 17, "revision.of")
}

func (g *gen) patSecretCases() {
	k, p := KindLoginPATSecret, "login-register-pat-bind-secret/"
	body := patBody(info11(secret11), "tok", "") // 17 | 32 | 1+3 | 4 = 57 bytes
	f := patF(0x2C01, "go-sdk", "0.1.0", "tok", "")
	f["bind_secret_len"] = 32
	g.ok(k, p+"golden/tok", "10.2", "0.11.1, the bind secret, token tok (shown as its length)", body, f, "pat.bind_secret.length", "revision.of")
	g.bad(k, p+"truncated/bind-secret", "the body ends inside the bind secret", body[:48], "pat.truncated", "bind_secret", 17)
	g.bad(k, p+"truncated/token-len", "the body ends after the bind secret", body[:49], "pat.truncated", "token_len", 49)
	g.bad(k, p+"token/utf8", "a token that is not UTF-8", patBody(info11(secret11), "t\xfe", ""), "pat.token.utf8", "token", 50)
	g.bad(k, p+"trailing", "one byte after the context (strict parse)", cat(body, []byte{0}), "body.trailing", "body", 57)
}

func (g *gen) bindCases() {
	k, p := KindBind, "bind-session/"
	body := bindBody(info11(nil), cA, 7, 7, secret11) // 17 | 16 | 8 | 8 | 32 = 81 bytes
	g.ok(k, p+"golden/session-7", "10.3", "client 0x1111, session 7, metadata_watermark 7, the bind secret (shown as its length)",
		body, bindF(0x2C01, cA, 7, 7), "bind.truncated", "bind.bind_secret.length")
	g.ok(k, p+"golden/session-0", "10.3", "session 0 and watermark 0: the lost-login case",
		bindBody(info11(nil), cA, 0, 0, wrong11), bindF(0x2C01, cA, 0, 0), "bind.truncated")
	full := cat(info11(nil), u64b(1), u64b(1<<63), u64b(^uint64(0)), u64b(1<<63), secret11)
	f := bindF(0x2C01, 0, ^uint64(0), 1<<63)
	f["client_id"] = "170141183460469231731687303715884105729" // 2^127 + 1: Hi 2^63, Lo 1
	g.ok(k, p+"golden/wide-numbers", "10.3", "client_id with both halves set (2^127 + 1), session 2^64-1: no value is checked by the decoder",
		full, f, "bind.truncated")
	g.bad(k, p+"truncated/client-id", "the body ends 8 bytes into client_id", body[:25], "bind.truncated", "client_id", 17)
	g.bad(k, p+"truncated/session", "the body ends after client_id", body[:33], "bind.truncated", "session", 33)
	g.bad(k, p+"truncated/watermark", "the body ends inside metadata_watermark", body[:44], "bind.truncated", "metadata_watermark", 41)
	g.bad(k, p+"truncated/bind-secret", "31 of the secret's 32 bytes", body[:80], "bind.truncated", "bind_secret", 49)
	g.bad(k, p+"sdk-name/empty", "a ClientVersionInfo rule inside a BIND_SESSION body", bindBody(cvi(0x2C01, "", "0.1.0"), cA, 7, 7, secret11),
		"cvi.sdk_name.length", "sdk_name_len", 4)
	g.bad(k, p+"trailing", "one byte after the secret (strict parse)", cat(body, []byte{0}), "body.trailing", "body", 81)
	g.ok(k, p+"prefix/trailing-ignored", "10.3", "the reference server reads the body with a prefix decode: bytes after the secret are ignored",
		cat(body, []byte("zz")), bindF(0x2C01, cA, 7, 7), "body.trailing").prefix(81)
}

// Request frames of protocol 0.11.1.

func login11(client uint64, user, pass string, secret []byte) []byte {
	return register(client, loginBody(info11(secret), user, pass, ""))
}

// bindFrame is BIND_SESSION, request 1, from client for session of its
// logical session: header session 0, metadata_watermark 0.
func bindFrame(client, session uint64, proto uint32, secret []byte) []byte {
	return frame(request(opNonReplicated).u64(128, client).u64(168, 1).u32(196, 15),
		bindBody(cvi(proto, "go-sdk", "0.1.0"), client, session, 0, secret))
}

// bound expects a BIND_SESSION to bind the latest login's session (user 1).
func (s *script) bound(in []byte, note string) *script {
	return s.answer(in, echo(in, opNonReplicated, replyBody(1, s.session, s.window[0], s.srv.Version)), note)
}

// denied expects a Reply with status to a NonReplicated request.
func (s *script) denied(in []byte, status uint32, note string) *script {
	h := in[:256]
	return s.answer(in, replyFrame(le.Uint64(h[128:]), le.Uint64(h[168:]), opNonReplicated, status), note)
}

func (g *gen) revisionLifecycle() {
	// Logins by version (section 10.5).
	s := g.life("10/login/0.11.1", "v0111", "a 0.11.1 login (password, then token on a new connection) at a 0.11.1 server", "lifecycle.10.login", "revision.of")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in").
		on(1).loggedIn(register(cB, patBody(info11(wrong11), "tok", "")), "a token login on another connection")
	s = g.life("10/login/0.11.0-at-0.11.1", "v0111", "a 0.11.0 login at a 0.11.1 server: eviction 14 with the window, never a credential refusal", "lifecycle.10.login", "lifecycle.1b")
	s.evicted(passwordLogin(cA, "iggy", "iggy"), s.incompatible(cA), "eviction 14, window {max 0.11.1, min 0.11.1}")
	s = g.life("10/login/0.11.1-at-0.11.0", "default", "a 0.11.1 login at the 0.11.0 default window, which ignores patch at the top: read in the 0.11.1 layout, it logs in", "lifecycle.10.login", "revision.of")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in")
	s = g.life("10/login/both", "both", "a server of both revisions reads each login in its version's layout", "lifecycle.10.login", "revision.of")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), "0.11.0 logs in").
		on(1).loggedIn(login11(cB, "iggy", "iggy", secret11), "0.11.1 logs in on another connection")
	s = g.life("10/login/0.11.1-wrong-password", "v0111", "a wrong password in the 0.11.1 layout is the credential refusal it is", "lifecycle.10.login", "lifecycle.1e")
	s.evicted(login11(cA, "iggy", "wrong", secret11), evictFrame(cA, 9), "eviction 9")

	// BIND_SESSION (section 10.4).
	s = g.life("10/bind/reconnect", "v0111", "log in, then bind the session on a new connection with the login's secret: the new connection is logged in as that session",
		"lifecycle.10.bind.ok")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in on connection 0").
		on(1).bound(bindFrame(cA, 1, 0x2C01, secret11), "connection 1: status 0, the bare login reply of the same session").
		answer(replicatedReq(cA, 128, 1, 1), replyFrame(cA, 1, 128, 3), "a replicated request of that session passes the fence (the test handler denies it with 3)")
	s = g.life("10/bind/session-0", "v0111", "session 0 binds the session the login got, whose reply was lost", "lifecycle.10.bind.ok")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in (the client lost this reply)").
		on(1).bound(bindFrame(cA, 0, 0x2C01, secret11), "the reply names the session, never 0")
	s = g.life("10/bind/wrong-secret", "v0111", "a wrong secret is refused with 40 and the connection stays open, not logged in", "lifecycle.10.bind.refused")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in").
		on(1).denied(bindFrame(cA, 1, 0x2C01, wrong11), 40, "status 40").
		denied(bindFrame(cA, 0, 0x2C01, wrong11), 40, "session 0 with a wrong secret: 40 too").
		evicted(replicatedReq(cA, 128, 1, 1), evictFrame(cA, 1), "not logged in: a replicated request is eviction 1")
	s = g.life("10/bind/after-logout", "v0111", "a logout ends the logical session: binding it again is 40", "lifecycle.10.bind.refused", "lifecycle.6")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in").
		answer(replicatedReq(cA, opLogout, 1, 1), replyFrame(cA, 1, opLogout, 0), "logout").
		on(1).denied(bindFrame(cA, 1, 0x2C01, secret11), 40, "the right secret, after logout: 40")
	s = g.life("10/bind/logout-on-other-connection", "v0111", "a logout on the login's connection ends the session for a connection bound to it by BIND_SESSION: that one is logged out",
		"lifecycle.10.bind.logout", "lifecycle.6", "lifecycle.5")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in on connection 0").
		on(1).bound(bindFrame(cA, 1, 0x2C01, secret11), "connection 1 bound to the same session").
		on(0).answer(replicatedReq(cA, opLogout, 1, 1), replyFrame(cA, 1, opLogout, 0), "logout on connection 0").
		on(1).answer(nonReplicated(cA, 1, 1, 1), replyFrame(cA, 1, opNonReplicated, 0), "connection 1: a ping is still answered").
		denied(nonReplicated(cA, 1, 1, 12), 40, "connection 1: another command (GetClusterMetadata) is 40, as before any login").
		evicted(replicatedReq(cA, 128, 1, 1), evictFrame(cA, 1), "connection 1: a replicated request of the ended session is eviction 1 (NoSession)")
	s = g.life("10/bind/unknown-client", "v0111", "a client id with no logical session: 40, session 0 included (a login here is decided before its reply: an unknown client id stays unknown)", "lifecycle.10.bind.unknown")
	s.denied(bindFrame(cC, 0, 0x2C01, secret11), 40, "session 0: 40, not 58 (nothing to wait for)").
		denied(bindFrame(cC, 5, 0x2C01, secret11), 40, "session 5: 40")
	s = g.life("10/bind/0.11.0-login-has-none", "both", "a 0.11.0 login has no secret and makes no logical session to bind", "lifecycle.10.bind.unknown")
	s.loggedIn(passwordLogin(cA, "iggy", "iggy"), "a 0.11.0 login").
		on(1).denied(bindFrame(cA, 0, 0x2C01, secret11), 40, "nothing to bind: as for an unknown client")
	s = g.life("10/bind/other-session", "v0111", "a non-zero session that is not the logical session's: 14001 (InvalidSession)", "lifecycle.10.bind.session")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in").
		on(1).denied(bindFrame(cA, 2, 0x2C01, secret11), 14001, "session + 1: 14001")
	s = g.life("10/bind/malformed", "both", "BIND_SESSION that does not decode, or whose version has no BIND_SESSION: status 3, the connection lives on", "lifecycle.10.bind.malformed")
	short := bindFrame(cA, 0, 0x2C01, secret11)
	short = cat(hdr(short[:256]).u32(48, uint32(len(short)-1)), short[256:len(short)-1])
	s.denied(short, 3, "one byte of the secret missing: 3").
		denied(frame(request(opNonReplicated).u64(128, cA).u64(168, 1).u32(196, 15), cvi(0x2C01, "", "1")), 3, "an empty sdk_name: 3").
		denied(bindFrame(cA, 0, 0x2C00, secret11), 3, "version 0.11.0, inside this window, has no BIND_SESSION: 3")
	s = g.life("10/bind/after-eviction", "v0111", "an eviction ends the logical session of the connection it closes: binding it again is 40",
		"lifecycle.10.bind.evicted", "lifecycle.2")
	s.loggedIn(login11(cA, "iggy", "iggy", secret11), "logged in on connection 0").
		evicted(nonReplicated(cA, 1, 1, 38), evictFrame(cA, 15), "a legacy login code on the bound connection: eviction 15").
		on(1).denied(bindFrame(cA, 1, 0x2C01, secret11), 40, "the right secret, after the eviction: 40")
	s = g.life("10/bind/window", "v0111", "BIND_SESSION whose version is outside the window: a Reply with status 14003, not eviction 14", "lifecycle.10.bind.window")
	s.denied(bindFrame(cA, 0, 0x2C00, secret11), 14003, "0.11.0 at a 0.11.1 server: 14003").
		denied(bindFrame(cA, 0, 0x2C02, secret11), 14003, "0.11.2: 14003")
}
