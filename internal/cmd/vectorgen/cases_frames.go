package main

import (
	"fmt"
	"maps"
)

func (g *gen) resultCases() {
	k, p := KindResult, "result-section/"
	ok := func(name, note string, in []byte, code uint32, payload []byte, rule string) {
		g.ok(k, p+name, "4", note, in, map[string]any{"result_code": code, "payload": fmt.Sprintf("%x", payload)}, rule)
	}
	login := replyBody(1, 42, 0x2C00, "0.6.0")
	entry := func(index, result uint32) []byte { return cat(u32b(index), u32b(result)) }
	ok("golden/empty-section", "count 0: success, the payload is what follows", cat(u32b(0), login), 0, login, "result.count")
	ok("count-0-no-payload", "count 0 and nothing after it: success with an empty payload", u32b(0), 0, nil, "result.count")
	ok("count-1-result-0", "one entry whose result is 0: success, payload after the section", cat(u32b(1), entry(0, 0), login), 0, login, "result.entries")
	ok("count-2-first-0", "only the first entry's result counts", cat(u32b(2), entry(0, 0), entry(1, 57), login), 0, login, "result.entries")
	ok("count-1-result-40", "a non-zero result is an error code and there is no payload", cat(u32b(1), entry(0, 40), login), 40, nil, "result.entries")
	ok("count-1-result-57", "result 57 (TransientNotCommitted)", cat(u32b(1), entry(0, 57)), 57, nil, "result.entries")
	ok("count-2-first-58", "result 58 in the first of two entries", cat(u32b(2), entry(0, 58), entry(1, 0)), 58, nil, "result.entries")
	g.bad(k, p+"empty", "an empty body: a terminal failure", nil, "result.count", "result_count", 0)
	g.bad(k, p+"three-bytes", "fewer than 4 bytes", []byte{0, 0, 0}, "result.count", "result_count", 0)
	g.bad(k, p+"count-1-no-entry", "count 1 and no entry", u32b(1), "result.entries", "result_entries", 4)
	g.bad(k, p+"count-2-one-entry", "count 2 and one entry", cat(u32b(2), entry(0, 0)), "result.entries", "result_entries", 4)
	g.bad(k, p+"count-max", "count 0xffffffff: a claim, never an allocation size", cat(u32b(0xFFFF_FFFF), entry(0, 0)), "result.entries", "result_entries", 4)
}

// loginFrame is a Reply frame answering a Register to client 5 with body.
func loginFrame(body []byte) []byte { return frame(reply(opRegister), body) }

// okLoginFrame adds a successful login reply frame of user 1.
func (g *gen) okLoginFrame(name, note string, session uint64, version string, rules ...string) *Case {
	in := loginFrame(cat(u32b(0), replyBody(1, session, 0x2C00, version)))
	f := headerFields(cmdReply, in)
	f["result_code"] = uint32(0)
	maps.Copy(f, replyF(1, session, 0x2C00, version))
	return g.ok(KindLoginFrame, "login-reply-frame/"+name, "4", note, in, f, rules...).sdk(codeOK)
}

// resultFrame adds a Register reply whose result section carries code.
func (g *gen) resultFrame(name, note string, code uint32, rules ...string) *Case {
	in := loginFrame(cat(u32b(1), u32b(0), u32b(code)))
	f := headerFields(cmdReply, in)
	f["result_code"] = code
	return g.ok(KindLoginFrame, "login-reply-frame/"+name, "8", note, in, f, rules...).sdk(code)
}

// badLoginFrame adds a login reply frame that an SDK must refuse as a
// malformed reply (InvalidCommand, 3).
func (g *gen) badLoginFrame(name, note string, body []byte, rule, field string, offset int) *Case {
	c := g.bad(KindLoginFrame, "login-reply-frame/"+name, note, loginFrame(body), rule, field, offset, "sdk.3")
	return c.sdk(codeInvalidCommand)
}

func (g *gen) loginFrameCases() {
	g.okLoginFrame("golden", "Reply header, then 00 00 00 00, then the login reply (user 1, session 42)", 42, "0.6.0", "lifecycle.1.reply")
	g.okLoginFrame("session-1", "session 1", 1, "0.11.0", "login_reply.session")
	g.okLoginFrame("session-max", "session 2^64-1", ^uint64(0), "0.11.0", "login_reply.session")
	deny := reply(opRegister).u32(216, 40)
	f := headerFields(cmdReply, deny)
	g.ok(KindLoginFrame, "login-reply-frame/denied-40", "8", "a Register denied before commit: status 40, no body", deny, f, "reply.status", "sdk.40").sdk(40)
	g.resultFrame("result-40", "a committed Register whose result is 40", 40, "result.entries", "sdk.40")
	g.badLoginFrame("count-0-no-payload", "an empty result section and no login reply", u32b(0), "login_reply.truncated", "user_id", 260)
	g.badLoginFrame("count-1-no-entry", "count 1 and no entry", u32b(1), "result.entries", "result_entries", 260)
	g.badLoginFrame("session-zero", "a login reply with session 0", cat(u32b(0), replyBody(1, 0, 0x2C00, "0.6.0")), "login_reply.session", "session", 264)
	g.badLoginFrame("after-entry/server-version-empty", "count 1, result 0, then a login reply with an empty server version: offsets count the entry",
		cat(u32b(1), u32b(0), u32b(0), replyBody(1, 3, 0x2C00, "")), "login_reply.server_version.length", "server_version_len", 256+12+16)
	// The size is read first, from a header of any kind, to find the body:
	// one outside 256..64 MiB breaks the frame's rule, not the Reply's.
	g.bad(KindLoginFrame, "login-reply-frame/size-above-cap", "size 64 MiB + 1: the body cannot be found, so the frame is refused before its header is decoded",
		cat(reply(opRegister).u32(48, 64<<20+1), u32b(0), replyBody(1, 42, 0x2C00, "0.6.0")), "frame.size", "size", 48, "sdk.3").sdk(codeInvalidCommand)
	g.bad(KindLoginFrame, "login-reply-frame/header-reserved", "the reply header breaks a rule: a malformed reply",
		cat(reply(opRegister).u32(48, 282).u8(220, 1), u32b(0), replyBody(1, 42, 0x2C00, "0.6.0")), "reply.reserved", "reserved", 220, "sdk.3").sdk(codeInvalidCommand)
}

// discrepancyCases: one case for each point on which the SDKs disagreed,
// decided by WIRE.md. The README's table lists them by id.
func (g *gen) discrepancyCases() {
	p := "discrepancy/"
	g.badLoginFrame(p+"D1/empty-server-version", "an empty server_version: section 4 says 1..255 bytes, so the reply is malformed (3)",
		cat(u32b(0), replyBody(1, 42, 0x2C00, "")), "login_reply.server_version.length", "server_version_len", 276).disc("D1")
	g.badLoginFrame(p+"D2/server-version-not-utf8", "server_version with a 0xff byte: section 4 says UTF-8, so the reply is rejected, neither kept raw nor repaired",
		cat(u32b(0), replyBody(1, 42, 0x2C00, "0.\xff")), "login_reply.server_version.utf8", "server_version", 279).disc("D2")
	g.header(evK, p+"D3/reason-16", "a reason byte above 15 is not a valid eviction (section 5); an SDK surfaces InvalidCommand (3, section 8), not Unauthenticated",
		eviction(9).u8(255, 16), []string{"eviction.reason"}).disc("D3").Rules = []string{"eviction.reason", "sdk.3"}
	g.okLoginFrame(p+"D4/session-2^63", "session 2^63 is a valid u64 session: compare it unsigned", 1<<63, "0.11.0", "login_reply.session").disc("D4")
	g.badLoginFrame(p+"D5a/empty-body", "a Register reply with status 0 and no body: the result section is truncated, a terminal failure (3)",
		nil, "result.count", "result_count", 256).disc("D5a")
	g.badLoginFrame(p+"D5b/short-body", "a Register reply body of 2 bytes: the result section is truncated (3)",
		[]byte{0, 0}, "result.count", "result_count", 256).disc("D5b")
	g.header(evK, p+"D6a/window-on-reason-9", "eviction 9 with a non-zero window: only reason 14 carries one (section 5); malformed (3)",
		eviction(9).u32(144, 0x2C00), []string{"eviction.window.zero"}).disc("D6a")
	g.header(evK, p+"D6b/reserved-byte", "eviction 9 with a non-zero reserved byte at 200 (section 5); malformed (3)",
		eviction(9).u8(200, 7), []string{"eviction.reserved"}).disc("D6b")
	g.header(evK, p+"D6c/client-zero", "eviction 9 with client id 0 (section 5); malformed (3)",
		eviction(9).u64(128, 0), []string{"eviction.client"}).disc("D6c")
	g.badLoginFrame(p+"D7/trailing-after-login-reply", "one byte after the login reply: the reply is the rest of the frame, and a strict parse of a whole body rejects trailing bytes (sections 3 and 4)",
		cat(u32b(0), replyBody(1, 42, 0x2C00, "0.6.0"), []byte{0}), "login_reply.trailing", "body", 282).disc("D7")
	g.resultFrame(p+"D8a/result-57", "result 57 TransientNotCommitted (section 8): replay the same request on the same connection with the same client id",
		codeTransientNotCommitted, "sdk.57").disc("D8a")
	g.resultFrame(p+"D8b/result-58", "result 58 TransientNotAccepted (section 8): the login may be re-issued anywhere, even under a fresh client id",
		codeTransientNotAccepted, "sdk.58").disc("D8b")
}
