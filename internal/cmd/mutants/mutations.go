package main

// mutation is one deliberate bug, keyed by the function it lives in and by
// the code it breaks there, never by line, so that an edit elsewhere in
// the file leaves it applying as before (see apply). File is the file in
// codec/; Func the function: "name", "T.name" or "(*T).name". Why says
// what rule the bug breaks. Find is the code, as gofmt prints it, which
// must occur exactly once in Func; Repl replaces it ("" deletes it).
type mutation struct {
	Name, File, Func, Why, Find, Repl string
}

// mutations lists the bugs the property suite must catch.
var mutations = []mutation{
	{"skip-eviction-reserved", "layout.go", "checkEvictionReserved", "an eviction's reserved bytes 152..255 are never checked",
		`reservedFrame(h)|evReserved(h) == 0`, `reservedFrame(h) == 0`},
	{"skip-utf8", "reader.go", "(*reader).text", "decoded text fields are not checked for UTF-8",
		`i >= 0`, `i > len(b)`},
	{"need-off-by-one", "reader.go", "(*reader).need", "a field may claim one byte more than is present",
		`n > int64(r.left())`, `n > int64(r.left())+1`},
	{"text-min-off-by-one", "reader.go", "(*reader).text8", "an empty sdk_name, username or server_version decodes",
		`int(n) < f.minLen`, `int(n) < f.minLen-1`},
	{"window-patch-at-0x-bound", "version.go", "Window.Accepts", "under 0.x the upper bound compares the patch too",
		`v>>versionBits <= w.Max>>versionBits`, `v <= w.Max`},
	{"swap-eviction-reserved-order", "layout.go", "checkEvictionReserved", "reserved is checked before reserved_frame, against the reference's order",
		`if reservedFrame(h) != 0 {
	return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)
}
return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)`, `if evReserved(h) != 0 {
	return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)
}
return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)`},
	{"secret-format-leaks", "secret.go", "Secret.Format", "Secret.Format prints the bytes under %s, %v, %x, %q",
		`[]byte(redacted)`, `s.Bytes()`},
	{"eviction-window-ignores-min", "eviction.go", "reasonOK", "a non-14 eviction with only min set is accepted",
		`w == (Window{})`, `w.Max == 0`},
	{"default-window-1x-keeps-minor", "version.go", "DefaultWindow", "DefaultWindow past 1.0.0 zeroes only the patch",
		`lowBits = 1<<(2*versionBits) - 1`, `lowBits = versionMaxPart`},
	{"nonreplicated-code-reserved", "request.go", "(*RequestHeader).Decode", "a NonReplicated code is also checked as reserved",
		`reserved += sizeReqCode`, ``},
	{"login-reply-session-zero", "loginreply.go", "(*reader).loginReply", "a login reply with session 0 decodes",
		`r.err == nil && l.Session == 0`, `r.err == nil && l.Session == 0 && false`},
	{"fast-ascii-ignores-high-bit", "fast.go", "ascii", "the fast path takes a non-ASCII byte in the last place of a word as ASCII",
		`acc&0x8080808080808080 == 0`, `acc&0x0080808080808080 == 0`},
	{"fast-text-min-ignored", "fast.go", "(*scan).text8", "the fast path accepts an empty sdk_name, username or server_version",
		`n < minLen`, `false`},
	{"fast-reply-session-zero", "loginreply.go", "fastLoginReply", "the fast path accepts a login reply with session 0",
		`end == text || end > len(src) || whole && end != len(src) || session == 0`, `end == text || end > len(src) || whole && end != len(src)`},
	{"fast-whole-ignores-trailing", "fast.go", "(*scan).done", "a fast whole-body parse accepts trailing bytes",
		`s.ok && (!whole || s.p == len(s.src)) && ascii(s.src[text:s.p])`, `s.ok && ascii(s.src[text:s.p])`},
	{"request-reserved-error-skips-frame", "layout.go", "requestReservedError", "a request's non-zero reserved_frame is reported as its reserved area",
		`case reservedFrame(h) != 0:
	return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleReqReservedFrame)`, ``},
	{"encode-request-skips-zeroing", "request.go", "(*RequestHeader).AppendBinary", "the request encoder leaves the garbage of dst's capacity in its padding and reserved area",
		`*(*[HeaderSize - offReqOperation]byte)(b[offReqOperation:]) = [HeaderSize - offReqOperation]byte{}`, ``},
	{"fast-reply-short-version-mask-off-by-one", "fast.go", "asciiTop", "the reply fast path misses a high bit in the first byte of a short server_version",
		`8-n`, `9-n`},
	// | is left-associative: the first four terms are one node.
	{"fast-request-skips-reserved-frame", "layout.go", "requestReservedBits", "the request fast path never looks at reserved_frame",
		`le64(h, 56)>>48 | or32(h, 64) | or32(h, 96) | le64(h, offReqOperation)>>8`, `le64(h, offReqOperation)>>8`},
	{"fast-reply-denial-with-body", "reply.go", "(*ReplyHeader).wellFormed", "the reply fast path accepts a denial that carries a body",
		`(h.Status == StatusOK || h.Size == HeaderSize)`, `true`},
	{"fast-eviction-window-ignored", "eviction.go", "reasonOK", "reason 14 is accepted with an ill-formed window",
		`r == ReasonIncompatibleProtocol && w.IsValid()`, `r == ReasonIncompatibleProtocol`},
	{"request-decode-keeps-stale-code", "request.go", "(*RequestHeader).Decode", "decoding a Register request in place keeps the code of the header decoded before it",
		`h.Code = code`, `h.Code |= code`},
	{"eviction-decode-error-keeps-value", "eviction.go", "(*Eviction).Decode", "a failed in-place eviction decode leaves the fields it read",
		"err = evictionError(b, size, e)\n*e = Eviction{}", "err = evictionError(b, size, e)"},
	{"parse-ignores-one-trailing-byte", "text.go", "trailing", "Parse accepts one byte after the last field",
		`n < len(src)`, `n < len(src)-1`},
}
