package main

// Body kinds and header kinds: the first byte of a structured input.
const (
	kindInfo, kindLogin, kindPAT, kindReply = 0, 1, 2, 3
	kindRequest, kindReplyHeader, kindEvict = 0, 1, 2
)

func buildBodySeeds() []Seed {
	info := func() tape { return tape{kindInfo} }
	login := func() tape { return tape{kindLogin}.info("rust-sdk", "0.11.0") }
	pat := func() tape { return tape{kindPAT}.info("go-sdk", "1.0.0") }
	reply := func() tape { return tape{kindReply}.u32(1) }
	seeds := []Seed{
		{"info-valid", info().info("rust-sdk", "0.11.0")},
		{"info-sdk-name-nil", info().version(0x2C00).mode(textNil).text("1")},
		{"info-sdk-name-empty", info().version(0x2C00).mode(textEmpty).text("1")},
		{"info-sdk-name-256-plus", info().version(0x2C00).mode(textTooLong).text("1")},
		{"info-sdk-name-255", info().version(0x2C00).mode(textMax).text("1")},
		{"info-sdk-version-bad-utf8", info().version(0x2C00).text("x").mode(textBadUTF8)},
		{"login-valid", login().text("iggy").text("iggy").mode(textNil)},
		{"login-valid-context", login().text("iggy").text("iggy").text("ctx")},
		{"login-info-invalid", tape{kindLogin}.version(1).mode(textEmpty).text("v").text("u").text("p").mode(textNil)},
		{"login-username-empty", login().mode(textEmpty).text("p").mode(textNil)},
		{"login-username-256-plus", login().mode(textTooLong).text("p").mode(textNil)},
		{"login-username-bad-utf8", login().mode(textBadUTF8).text("p").mode(textNil)},
		{"login-password-256-plus", login().text("iggy").mode(textTooLong).mode(textNil)},
		{"login-password-bad-utf8", login().text("iggy").mode(textBadUTF8).mode(textNil)},
		{"login-context-bad-utf8", login().text("iggy").text("p").mode(textBadUTF8)},
		{"pat-valid", pat().text("token").mode(textNil)},
		{"pat-valid-empty-token-and-context", pat().mode(textEmpty).text("ctx")},
		{"pat-info-invalid", tape{kindPAT}.version(1).text("n").mode(textBadUTF8).text("t").mode(textNil)},
		{"pat-token-256-plus", pat().mode(textTooLong).mode(textNil)},
		{"pat-token-bad-utf8", pat().mode(textBadUTF8).mode(textNil)},
		{"pat-context-bad-utf8", pat().text("t").mode(textBadUTF8)},
		{"reply-valid", reply().nonZero(7).version(0x2C00).text("0.11.0")},
		{"reply-session-0", reply().zero().version(0x2C00).text("0.11.0")},
		{"reply-server-version-empty", reply().nonZero(7).version(0x2C00).mode(textEmpty)},
		{"reply-server-version-256-plus", reply().nonZero(7).version(0x2C00).mode(textTooLong)},
		{"reply-server-version-bad-utf8", reply().nonZero(7).version(0x2C00).mode(textBadUTF8)},
	}
	return append(seeds, randomSeeds("random", []string{"info", "login", "pat", "reply"}, 1)[:4]...)
}

// requestTape writes a request header field by field.
func requestTape(size uint32, client bool, request uint64, op byte, session uint64, code uint64) tape {
	t := tape{kindRequest}.zero().zero().zero().size(size).u32(0).u32(0).b(0)
	if client {
		t = t.u128(1, 2)
	} else {
		t = t.zero()
	}
	t = t.zero().u64(0)
	t = maybe(t, request).op(op)
	t = maybe(t, session).u32(0)
	return maybe(t, code)
}

func maybe(t tape, v uint64) tape {
	if v == 0 {
		return t.zero()
	}
	return t.nonZero(v)
}

func replyTape(size uint32, op byte, status uint64) tape {
	t := tape{kindReplyHeader}.zero().zero().zero().size(size).u32(0).u32(0).b(0)
	t = t.zero().zero().u128(1, 2).u64(0).u64(0).u64(0).u64(1)
	return maybe(t.op(op), status)
}

func evictionTape(client bool, window func(tape) tape, reason byte) tape {
	t := tape{kindEvict}.zero().zero().zero().u32(0).u32(0).b(0)
	if client {
		t = t.u128(1, 2)
	} else {
		t = t.zero()
	}
	return window(t).b(reason)
}

func zeroWindow(t tape) tape { return t.b(0) }

func buildHeaderSeeds() []Seed {
	const reg, nonRep, logout = 1, 2, 3
	return []Seed{
		{"request-valid-ping", requestTape(256, true, 1, nonRep, 0, 1)},
		{"request-valid-register", requestTape(300, true, 0, reg, 0, 0)},
		{"request-valid-logout", requestTape(256, true, 2, logout, 7, 0)},
		{"request-size-255", requestTape(255, true, 1, nonRep, 0, 1)},
		{"request-size-above-64mib", requestTape(64<<20+1, true, 1, nonRep, 0, 1)},
		{"request-client-0", requestTape(256, false, 1, nonRep, 0, 1)},
		{"request-operation-0", requestTape(256, true, 1, 0, 0, 1)},
		{"request-operation-unknown-4", requestTape(256, true, 1, 4, 0, 1)},
		{"request-register-with-session", requestTape(256, true, 0, reg, 5, 0)},
		{"request-register-with-request", requestTape(256, true, 5, reg, 0, 0)},
		{"request-nonreplicated-code-0", requestTape(256, true, 1, nonRep, 0, 0)},
		{"request-logout-session-0", requestTape(256, true, 2, logout, 0, 0)},
		{"request-logout-request-0", requestTape(256, true, 0, logout, 7, 0)},
		{"request-logout-with-code", requestTape(256, true, 2, logout, 7, 39)},
		{"reply-valid-ping", replyTape(256, nonRep, 0)},
		{"reply-size-255", replyTape(255, nonRep, 0)},
		{"reply-operation-unknown-150", replyTape(256, 150, 0)},
		{"reply-denial-with-body", replyTape(300, nonRep, 40)},
		{"eviction-valid-reason1", evictionTape(true, zeroWindow, 1)},
		{"eviction-valid-reason14", evictionTape(true, func(t tape) tape { return t.windowPair(0x2C00, 0x2C05) }, 14)},
		{"eviction-reason14-window-ill-formed", evictionTape(true, func(t tape) tape { return t.windowPair(0x2C05, 0x2C00) }, 14)},
		{"eviction-reason1-window-nonzero", evictionTape(true, func(t tape) tape { return t.windowPair(0x2C00, 0x2C05) }, 1)},
		{"eviction-reason0", evictionTape(true, zeroWindow, 0)},
		{"eviction-reason16", evictionTape(true, zeroWindow, 16)},
		{"eviction-client-0", evictionTape(false, zeroWindow, 1)},
	}
}
