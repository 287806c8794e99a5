package main

// mutation is one deliberate bug: in codec/File, the text Old (which must
// occur exactly once) becomes New. Catch names the properties expected to
// fail, as a -run pattern, and Why says what rule the bug breaks.
type mutation struct {
	Name, File, Old, New, Catch, Why string
}

// mutations lists the bugs the property suite must catch.
func mutations() []mutation {
	return []mutation{
		{"skip-eviction-reserved", "layout.go",
			`if reservedFrame(h)|evReserved(h) == 0 {`, `if reservedFrame(h) == 0 {`,
			"Canonical|Reject|Differential|Eviction", "an eviction's reserved bytes 152..255 are never checked"},
		{"skip-utf8", "reader.go",
			`if i := invalidUTF8(b); i >= 0 {`, `if i := invalidUTF8(b); i > len(b) {`,
			"Reject|Differential|Canonical|Overlap", "decoded text fields are not checked for UTF-8"},
		{"need-off-by-one", "reader.go",
			`if n > int64(r.left()) {`, `if n > int64(r.left())+1 {`,
			"Reject|Differential", "a field may claim one byte more than is present"},
		{"text-min-off-by-one", "reader.go",
			`if r.err == nil && int(n) < f.minLen {`, `if r.err == nil && int(n) < f.minLen-1 {`,
			"Differential|Canonical", "an empty sdk_name, username or server_version decodes"},
		{"window-patch-at-0x-bound", "version.go",
			`return v>>versionBits <= w.Max>>versionBits`, `return v <= w.Max`,
			"Window|Lifecycle", "under 0.x the upper bound compares the patch too"},
		{"swap-eviction-reserved-order", "layout.go",
			`	if reservedFrame(h) != 0 {
		return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)
	}
	return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)`,
			`	if evReserved(h) != 0 {
		return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)
	}
	return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)`,
			"EvictionRules", "reserved is checked before reserved_frame, against the reference's order"},
		{"secret-format-leaks", "secret.go",
			"\t_, _ = f.Write([]byte(redacted))\n}", "\t_, _ = f.Write(s.Bytes())\n}",
			"Secret", "Secret.Format prints the bytes under %s, %v, %x, %q"},
		{"eviction-window-ignores-min", "eviction.go",
			`r.Known() && w == (Window{})`, `r.Known() && w.Max == 0`,
			"Eviction|Differential|Canonical", "a non-14 eviction with only min set is accepted"},
		{"default-window-1x-keeps-minor", "version.go",
			`lowBits = 1<<(2*versionBits) - 1 // >= 1.0: drop minor and patch`, `lowBits = versionMaxPart`,
			"Window", "DefaultWindow past 1.0.0 zeroes only the patch"},
		{"nonreplicated-code-reserved", "request.go",
			"\t\treserved += sizeReqCode\n", "",
			"RoundTrip|Canonical|Differential|Lifecycle", "a NonReplicated code is also checked as reserved"},
		{"login-reply-session-zero", "loginreply.go",
			`if r.err == nil && l.Session == 0 {`, `if r.err == nil && l.Session == 0 && false {`,
			"Differential|Canonical", "a login reply with session 0 decodes"},
		{"fast-ascii-ignores-high-bit", "fast.go",
			`return acc&0x8080808080808080 == 0`, `return acc&0x0080808080808080 == 0`,
			"Reject|Differential|Canonical|Overlap", "the fast path takes a non-ASCII byte in the last place of a word as ASCII"},
		{"fast-text-min-ignored", "fast.go",
			`return s.take(s.p+1, n, n < minLen)`, `return s.take(s.p+1, n, false)`,
			"Differential|Canonical", "the fast path accepts an empty sdk_name, username or server_version"},
		{"fast-reply-session-zero", "loginreply.go",
			`whole && end != len(src) || session == 0 {`, `whole && end != len(src) {`,
			"Differential|Canonical", "the fast path accepts a login reply with session 0"},
		{"fast-whole-ignores-trailing", "fast.go",
			`return s.ok && (!whole || s.p == len(s.src)) && ascii(s.src[text:s.p])`, `return s.ok && ascii(s.src[text:s.p])`,
			"Prefix|Reject|Differential", "a fast whole-body parse accepts trailing bytes"},
		{"request-reserved-error-skips-frame", "layout.go",
			"\tcase reservedFrame(h) != 0:\n\t\treturn reservedError(h, offReservedFrame, offKind, \"reserved_frame\", ruleReqReservedFrame)\n\tcase reqPadding(h) != 0:",
			"\tcase reqPadding(h) != 0:",
			"Reject|Differential", "a request's non-zero reserved_frame is reported as its reserved area"},
		{"encode-request-skips-zeroing", "request.go",
			"\t*(*[HeaderSize - offReqOperation]byte)(b[offReqOperation:]) = [HeaderSize - offReqOperation]byte{}\n", "",
			"RoundTrip", "the request encoder leaves the garbage of dst's capacity in its padding and reserved area"},
		{"fast-reply-short-version-mask-off-by-one", "fast.go",
			"return w&(0x8080808080808080<<(8*uint(8-n))) == 0", "return w&(0x8080808080808080<<(8*uint(9-n))) == 0",
			"Reject|Differential|Canonical", "the reply fast path misses a high bit in the first byte of a short server_version"},
		{"fast-request-skips-reserved-frame", "layout.go",
			"return le64(h, 56)>>48 | or32(h, 64) | or32(h, 96) | le64(h, offReqOperation)>>8 |", "return le64(h, offReqOperation)>>8 |",
			"Canonical|Reject|Differential|RoundTrip", "the request fast path never looks at reserved_frame"},
		{"fast-reply-denial-with-body", "reply.go",
			"(h.Status == StatusOK || h.Size == HeaderSize)", "true",
			"Canonical|Reject|Differential", "the reply fast path accepts a denial that carries a body"},
		{"fast-eviction-window-ignored", "eviction.go",
			"return r == ReasonIncompatibleProtocol && w.Valid() ||", "return r == ReasonIncompatibleProtocol ||",
			"Eviction|Differential|Canonical", "reason 14 is accepted with an ill-formed window"},
		{"request-decode-keeps-stale-code", "request.go",
			"\th.Code = 0\n", "",
			"DecodeInPlace", "decoding a Register request in place keeps the code of the header decoded before it"},
		{"eviction-decode-error-keeps-value", "eviction.go",
			"\terr = evictionError(b, size, e)\n\t*e = Eviction{}\n", "\terr = evictionError(b, size, e)\n",
			"DecodeInPlace", "a failed in-place eviction decode leaves the fields it read"},
		{"parse-ignores-one-trailing-byte", "text.go",
			`if n < len(src) {`, `if n < len(src)-1 {`,
			"Prefix|Reject|Differential", "Parse accepts one byte after the last field"},
	}
}
