package main

func (g *gen) clientInfoCases() {
	k, p := KindClientInfo, "client-version-info/"
	golden := func(name, note string, proto uint32, sdk, ver string, rule string) {
		g.ok(k, p+name, "2", note, cvi(proto, sdk, ver), infoF(proto, sdk, ver), rule)
	}
	golden("golden/go-sdk", "0.11.0, go-sdk, 0.1.0", 0x2C00, "go-sdk", "0.1.0", "cvi.sdk_name.length")
	golden("golden/rust-sdk-utf8", "1.2.3, rust-sdk, a version with a two-byte character", pack(1, 2, 3), "rust-sdk", "0.7.0-ß", "cvi.sdk_version.utf8")
	golden("golden/long-reserved", "reserved bits set (a plain u32 on the wire), 255-byte fields", 0xC000_0000, repeat("é", 127)+"x", repeat("v", 255), "cvi.sdk_name.length")
	golden("boundary/sdk-name-1", "sdk_name of 1 byte", 0x2C00, "g", "0.1.0", "cvi.sdk_name.length")
	golden("boundary/sdk-name-255", "sdk_name of 255 bytes", 0x2C00, repeat("n", 255), "0.1.0", "cvi.sdk_name.length")
	golden("boundary/sdk-version-1", "sdk_version of 1 byte", 0x2C00, "go-sdk", "1", "cvi.sdk_version.length")
	golden("boundary/sdk-version-255", "sdk_version of 255 bytes", 0x2C00, "go-sdk", repeat("9", 255), "cvi.sdk_version.length")
	golden("boundary/protocol-0.0.0", "protocol 0.0.0 decodes (the window decides)", 0, "go-sdk", "0.1.0", "version.reserved_bits")
	golden("boundary/protocol-max", "protocol 1023.1023.1023", pack(1023, 1023, 1023), "go-sdk", "0.1.0", "version.reserved_bits")
	golden("boundary/protocol-all-ones", "protocol 0xffffffff decodes as a u32", 0xFFFF_FFFF, "go-sdk", "0.1.0", "version.reserved_bits")

	info := goInfo() // 17 bytes: 4 + 1+6 + 1+5
	g.bad(k, p+"truncated/empty", "no bytes at all", nil, "cvi.truncated", "protocol_version", 0)
	g.bad(k, p+"truncated/protocol", "3 of the 4 protocol bytes", info[:3], "cvi.truncated", "protocol_version", 0)
	g.bad(k, p+"truncated/sdk-name-len", "no sdk_name_len", info[:4], "cvi.truncated", "sdk_name_len", 4)
	g.bad(k, p+"truncated/sdk-name", "sdk_name claims 6 bytes, 3 present", info[:8], "cvi.truncated", "sdk_name", 5)
	g.bad(k, p+"truncated/sdk-version-len", "no sdk_version_len", info[:11], "cvi.truncated", "sdk_version_len", 11)
	g.bad(k, p+"truncated/sdk-version", "sdk_version claims 5 bytes, 4 present", info[:16], "cvi.truncated", "sdk_version", 12)
	g.bad(k, p+"sdk-name/empty", "sdk_name of length 0", cvi(0x2C00, "", "0.1.0"), "cvi.sdk_name.length", "sdk_name_len", 4)
	g.bad(k, p+"sdk-version/empty", "sdk_version of length 0", cvi(0x2C00, "go-sdk", ""), "cvi.sdk_version.length", "sdk_version_len", 11)
	// Bad UTF-8 sequences, each with the index of the first bad byte.
	for _, b := range []struct {
		name, text string
		at         int
	}{
		{"ff", "go\xffsdk", 2},
		{"lone-continuation", "\x80", 0},
		{"overlong", "a\xc0\xaf", 1},
		{"surrogate", "\xed\xa0\x80", 0},
		{"cut-sequence", "ab\xe6\x97", 2},
	} {
		g.bad(k, p+"sdk-name/utf8-"+b.name, "sdk_name is not UTF-8", cvi(0x2C00, b.text, "0.1.0"), "cvi.sdk_name.utf8", "sdk_name", 5+b.at)
	}
	g.bad(k, p+"sdk-version/utf8-ff", "sdk_version is not UTF-8", cvi(0x2C00, "go-sdk", "0.1\xff"), "cvi.sdk_version.utf8", "sdk_version", 12+3)
	g.bad(k, p+"trailing", "one byte after sdk_version (strict parse)", cat(info, []byte{0}), "body.trailing", "body", 17)
	g.ok(k, p+"prefix/trailing-ignored", "2", "the prefix decode reads 17 bytes and leaves the rest, as a server reading a login body does",
		cat(info, []byte("xyz")), infoF(0x2C00, "go-sdk", "0.1.0"), "body.trailing").prefix(17)
}

func (g *gen) loginCases() {
	k, p := KindLogin, "login-register/"
	info := goInfo()
	rust := cvi(pack(1, 2, 3), "rust-sdk", "0.7.0-ß")
	ok := func(name, note string, in []byte, proto uint32, sdk, ver, user, pass, ctx, rule string) *Case {
		return g.ok(k, p+name, "3", note, in, loginF(proto, sdk, ver, user, pass, ctx), rule)
	}
	okGo := func(name, note, user, pass, ctx, rule string) {
		ok(name, note, loginBody(info, user, pass, ctx), 0x2C00, "go-sdk", "0.1.0", user, pass, ctx, rule)
	}
	okGo("golden/iggy", "user iggy, password iggy (4 bytes, shown as its length only), no context", "iggy", "iggy", "", "login.username.length")
	ok("golden/utf8", "jürgen, pässwörd, context 日本", loginBody(rust, "jürgen", "pässwörd", "日本"), pack(1, 2, 3), "rust-sdk", "0.7.0-ß", "jürgen", "pässwörd", "日本", "login.context.utf8")
	okGo("golden/long-user-empty-password", "255-byte username, empty password (allowed), no context", repeat("a", 255), "", "", "login.username.length")
	okGo("boundary/username-1", "username of 1 byte", "u", "iggy", "", "login.username.length")
	okGo("boundary/password-1", "password of 1 byte", "iggy", "p", "", "login.password.utf8")
	okGo("boundary/password-255", "password of 255 bytes", "iggy", repeat("p", 255), "", "login.password.utf8")
	okGo("boundary/context-1", "context of 1 byte", "iggy", "iggy", "c", "login.context.claim")
	okGo("boundary/context-255", "context of 255 bytes", "iggy", "iggy", repeat("c", 255), "login.context.claim")

	body := loginBody(info, "iggy", "iggy", "") // 17 | 1+4 | 1+4 | 4 = 31 bytes
	g.bad(k, p+"truncated/username-len", "the body ends after ClientVersionInfo", body[:17], "login.truncated", "username_len", 17)
	g.bad(k, p+"truncated/username", "username claims 4 bytes, 2 present", body[:20], "login.truncated", "username", 18)
	g.bad(k, p+"truncated/password-len", "no password_len", body[:22], "login.truncated", "password_len", 22)
	g.bad(k, p+"truncated/password", "password claims 4 bytes, 1 present", body[:24], "login.truncated", "password", 23)
	g.bad(k, p+"truncated/context-len", "3 of the 4 context_len bytes", body[:30], "login.truncated", "context_len", 27)
	g.bad(k, p+"context/claim-short", "context_len 5, 3 bytes present", cat(body[:27], u32b(5), []byte("abc")), "login.context.claim", "context", 31)
	g.bad(k, p+"context/claim-4gib", "context_len 0xffffffff, nothing present: a claim, never an allocation size", cat(body[:27], u32b(0xFFFF_FFFF)), "login.context.claim", "context", 31)
	g.bad(k, p+"username/empty", "username of length 0", loginBody(info, "", "iggy", ""), "login.username.length", "username_len", 17)
	g.bad(k, p+"username/utf8", "username is not UTF-8", loginBody(info, "ig\xffgy", "iggy", ""), "login.username.utf8", "username", 20)
	g.bad(k, p+"password/utf8", "password is not UTF-8 (the error names the offset, never the bytes)", loginBody(info, "iggy", "\xc3", ""), "login.password.utf8", "password", 23)
	g.bad(k, p+"context/utf8", "context is not UTF-8", loginBody(info, "iggy", "iggy", "ok\x80"), "login.context.utf8", "context", 33)
	g.bad(k, p+"sdk-name/empty", "a ClientVersionInfo rule inside a login body", loginBody(cvi(0x2C00, "", "0.1.0"), "iggy", "iggy", ""), "cvi.sdk_name.length", "sdk_name_len", 4)
	g.bad(k, p+"trailing", "one byte after the context (strict parse)", cat(body, []byte{0}), "body.trailing", "body", 31)
	ok("prefix/trailing-ignored", "the reference server's prefix decode ignores bytes after the last field",
		cat(body, []byte("zz")), 0x2C00, "go-sdk", "0.1.0", "iggy", "iggy", "", "body.trailing").prefix(31)
}

func (g *gen) patCases() {
	k, p := KindLoginPAT, "login-register-pat/"
	info := goInfo()
	ok := func(name, note string, in []byte, proto uint32, sdk, ver, token, ctx, rule string) *Case {
		return g.ok(k, p+name, "3", note, in, patF(proto, sdk, ver, token, ctx), rule)
	}
	okGo := func(name, note, token, ctx, rule string) {
		ok(name, note, patBody(info, token, ctx), 0x2C00, "go-sdk", "0.1.0", token, ctx, rule)
	}
	okGo("golden/tok", "token tok (3 bytes, shown as its length only), context ctx", "tok", "ctx", "pat.token.utf8")
	long := cvi(0xC000_0000, repeat("é", 127)+"x", repeat("v", 255))
	ok("golden/long", "255-byte fields everywhere, reserved protocol bits", patBody(long, repeat("T", 255), ""), 0xC000_0000, repeat("é", 127)+"x", repeat("v", 255), repeat("T", 255), "", "pat.token.utf8")
	rust := cvi(pack(1, 2, 3), "rust-sdk", "0.7.0-ß")
	ok("golden/empty-token", "an empty token is allowed on the wire", patBody(rust, "", ""), pack(1, 2, 3), "rust-sdk", "0.7.0-ß", "", "", "pat.token.utf8")
	okGo("boundary/token-1", "token of 1 byte", "t", "", "pat.token.utf8")
	okGo("boundary/context-1", "context of 1 byte", "tok", "c", "pat.context.claim")
	okGo("boundary/context-255", "context of 255 bytes", "tok", repeat("c", 255), "pat.context.claim")

	body := patBody(info, "tok", "") // 17 | 1+3 | 4 = 25 bytes
	g.bad(k, p+"truncated/token-len", "the body ends after ClientVersionInfo", body[:17], "pat.truncated", "token_len", 17)
	g.bad(k, p+"truncated/token", "token claims 3 bytes, 1 present", body[:19], "pat.truncated", "token", 18)
	g.bad(k, p+"truncated/context-len", "2 of the 4 context_len bytes", body[:23], "pat.truncated", "context_len", 21)
	g.bad(k, p+"context/claim-short", "context_len 9, 1 byte present", cat(body[:21], u32b(9), []byte("x")), "pat.context.claim", "context", 25)
	g.bad(k, p+"token/utf8", "token is not UTF-8 (the error names the token's offset, not its bad byte's)", patBody(info, "t\xfeok", ""), "pat.token.utf8", "token", 18)
	g.bad(k, p+"context/utf8", "context is not UTF-8", patBody(info, "tok", "\xed\xa0\x80"), "pat.context.utf8", "context", 25)
	g.bad(k, p+"sdk-version/empty", "a ClientVersionInfo rule inside a token body", patBody(cvi(0x2C00, "go-sdk", ""), "tok", ""), "cvi.sdk_version.length", "sdk_version_len", 11)
	g.bad(k, p+"trailing", "one byte after the context (strict parse)", cat(body, []byte{0}), "body.trailing", "body", 25)
	// WIRE.md section 7 point 1: a password body with an empty password and
	// no context also reads as a token body, the username as the token.
	pw := loginBody(info, "iggy", "", "")
	ok("prefix/password-body-reads-as-token", "a LOGIN_REGISTER body (iggy, empty password, no context) read as a token body: token = the username, one byte left over",
		pw, 0x2C00, "go-sdk", "0.1.0", "iggy", "", "pat.context.claim").prefix(len(pw) - 1)
	g.bad(k, p+"strict/password-body-reads-as-token", "the same body parsed strictly as a token body has one byte left over", pw, "body.trailing", "body", len(pw)-1)
}

func (g *gen) loginReplyCases() {
	k, p := KindLoginReply, "login-reply/"
	ok := func(name, note string, user uint32, session uint64, proto uint32, version, rule string) *Case {
		return g.ok(k, p+name, "4", note, replyBody(user, session, proto, version), replyF(user, session, proto, version), rule)
	}
	ok("golden/iggy", "user 1, session 42, 0.11.0, server version 0.6.0", 1, 42, 0x2C00, "0.6.0", "login_reply.session")
	ok("golden/utf8", "every byte of the numbers differs; server version ü", 0xdeadbeef, 0x0102030405060708, pack(1, 2, 3), "ü", "login_reply.server_version.utf8")
	ok("golden/long", "session 2^64-1, 255-byte server version", 0, ^uint64(0), 0, repeat("9", 255), "login_reply.server_version.length")
	ok("boundary/session-1", "the lowest session", 1, 1, 0x2C00, "0.11.0", "login_reply.session")
	ok("boundary/session-2^63", "session 2^63: an unsigned u64, not a negative number", 1, 1<<63, 0x2C00, "0.11.0", "login_reply.session")
	ok("boundary/session-max", "session 2^64-1", 1, ^uint64(0), 0x2C00, "0.11.0", "login_reply.session")
	ok("boundary/server-version-1", "server version of 1 byte", 1, 7, 0x2C00, "1", "login_reply.server_version.length")
	ok("boundary/server-protocol-reserved", "a server protocol with reserved bits decodes as a u32", 1, 7, 0xC000_2C00, "0.11.0", "version.reserved_bits")

	body := replyBody(1, 42, 0x2C00, "0.6.0") // 4 | 8 | 4 | 1+5 = 22 bytes
	g.bad(k, p+"truncated/empty", "no bytes", nil, "login_reply.truncated", "user_id", 0)
	g.bad(k, p+"truncated/session", "the body ends after user_id", body[:4], "login_reply.truncated", "session", 4)
	g.bad(k, p+"truncated/server-protocol", "the body ends after session", body[:12], "login_reply.truncated", "server_protocol_version", 12)
	g.bad(k, p+"truncated/server-version-len", "no server_version_len", body[:16], "login_reply.truncated", "server_version_len", 16)
	g.bad(k, p+"truncated/server-version", "server_version claims 5 bytes, 2 present", body[:19], "login_reply.truncated", "server_version", 17)
	g.bad(k, p+"session/zero", "session 0 means no session and cannot be echoed", replyBody(1, 0, 0x2C00, "0.6.0"), "login_reply.session", "session", 4)
	g.bad(k, p+"server-version/utf8-ff", "server_version is not UTF-8", replyBody(1, 42, 0x2C00, "0.\xff"), "login_reply.server_version.utf8", "server_version", 19)
	g.bad(k, p+"trailing", "one byte after server_version (strict parse)", cat(body, []byte{0}), "login_reply.trailing", "body", 22)
}
