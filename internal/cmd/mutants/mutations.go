package main

// mutation is one deliberate bug, keyed by the function it lives in and by
// a node of that function's syntax tree, never by line or by the file's
// text, so that an edit elsewhere in the file leaves it applying as before:
//
//   - File is the file in codec/, Func the function: "name", "T.name" or
//     "(*T).name".
//   - Find is an expression, or one or more consecutive statements (case
//     clauses when it starts with "case"), written as gofmt prints them;
//     it is looked up with go/ast inside Func alone, compared as go/printer
//     prints each node, white space aside. Nth picks the Nth match in
//     source order; 0 means the match must be the only one in Func.
//   - Repl replaces it: an expression for an expression, statements for
//     statements ("" deletes them).
//
// Catch names the properties expected to fail, as a -run pattern, and Why
// says what rule the bug breaks. A mutant whose function or node is gone
// fails to apply, naming itself (see apply).
type mutation struct {
	Name, File, Func string
	Find             string
	Nth              int
	Repl             string
	Catch, Why       string
}

// mutations lists the bugs the property suite must catch.
func mutations() []mutation {
	return []mutation{
		{Name: "skip-eviction-reserved", File: "layout.go", Func: "checkEvictionReserved",
			Find: `reservedFrame(h)|evReserved(h) == 0`, Repl: `reservedFrame(h) == 0`,
			Catch: "Canonical|Reject|Differential|Eviction", Why: "an eviction's reserved bytes 152..255 are never checked"},
		{Name: "skip-utf8", File: "reader.go", Func: "(*reader).text",
			Find: `i >= 0`, Repl: `i > len(b)`,
			Catch: "Reject|Differential|Canonical|Overlap", Why: "decoded text fields are not checked for UTF-8"},
		{Name: "need-off-by-one", File: "reader.go", Func: "(*reader).need",
			Find: `n > int64(r.left())`, Repl: `n > int64(r.left())+1`,
			Catch: "Reject|Differential", Why: "a field may claim one byte more than is present"},
		{Name: "text-min-off-by-one", File: "reader.go", Func: "(*reader).text8",
			Find: `int(n) < f.minLen`, Repl: `int(n) < f.minLen-1`,
			Catch: "Differential|Canonical", Why: "an empty sdk_name, username or server_version decodes"},
		{Name: "window-patch-at-0x-bound", File: "version.go", Func: "Window.Accepts",
			Find: `v>>versionBits <= w.Max>>versionBits`, Repl: `v <= w.Max`,
			Catch: "Window|Lifecycle", Why: "under 0.x the upper bound compares the patch too"},
		{Name: "swap-eviction-reserved-order", File: "layout.go", Func: "checkEvictionReserved",
			Find: `if reservedFrame(h) != 0 {
	return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)
}
return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)`,
			Repl: `if evReserved(h) != 0 {
	return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)
}
return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)`,
			Catch: "EvictionRules", Why: "reserved is checked before reserved_frame, against the reference's order"},
		{Name: "secret-format-leaks", File: "secret.go", Func: "Secret.Format",
			Find: `[]byte(redacted)`, Repl: `s.Bytes()`,
			Catch: "Secret", Why: "Secret.Format prints the bytes under %s, %v, %x, %q"},
		{Name: "eviction-window-ignores-min", File: "eviction.go", Func: "reasonOK",
			Find: `w == (Window{})`, Repl: `w.Max == 0`,
			Catch: "Eviction|Differential|Canonical", Why: "a non-14 eviction with only min set is accepted"},
		{Name: "default-window-1x-keeps-minor", File: "version.go", Func: "DefaultWindow",
			Find: `lowBits = 1<<(2*versionBits) - 1`, Repl: `lowBits = versionMaxPart`,
			Catch: "Window", Why: "DefaultWindow past 1.0.0 zeroes only the patch"},
		{Name: "nonreplicated-code-reserved", File: "request.go", Func: "(*RequestHeader).Decode",
			Find: `reserved += sizeReqCode`, Repl: ``,
			Catch: "RoundTrip|Canonical|Differential|Lifecycle", Why: "a NonReplicated code is also checked as reserved"},
		{Name: "login-reply-session-zero", File: "loginreply.go", Func: "(*reader).loginReply",
			Find: `r.err == nil && l.Session == 0`, Repl: `r.err == nil && l.Session == 0 && false`,
			Catch: "Differential|Canonical", Why: "a login reply with session 0 decodes"},
		{Name: "fast-ascii-ignores-high-bit", File: "fast.go", Func: "ascii",
			Find: `acc&0x8080808080808080 == 0`, Repl: `acc&0x0080808080808080 == 0`,
			Catch: "Reject|Differential|Canonical|Overlap", Why: "the fast path takes a non-ASCII byte in the last place of a word as ASCII"},
		{Name: "fast-text-min-ignored", File: "fast.go", Func: "(*scan).text8",
			Find: `n < minLen`, Repl: `false`,
			Catch: "Differential|Canonical", Why: "the fast path accepts an empty sdk_name, username or server_version"},
		{Name: "fast-reply-session-zero", File: "loginreply.go", Func: "fastLoginReply",
			Find:  `end == text || end > len(src) || whole && end != len(src) || session == 0`,
			Repl:  `end == text || end > len(src) || whole && end != len(src)`,
			Catch: "Differential|Canonical", Why: "the fast path accepts a login reply with session 0"},
		{Name: "fast-whole-ignores-trailing", File: "fast.go", Func: "(*scan).done",
			Find: `s.ok && (!whole || s.p == len(s.src)) && ascii(s.src[text:s.p])`, Repl: `s.ok && ascii(s.src[text:s.p])`,
			Catch: "Prefix|Reject|Differential", Why: "a fast whole-body parse accepts trailing bytes"},
		{Name: "request-reserved-error-skips-frame", File: "layout.go", Func: "requestReservedError",
			Find: `case reservedFrame(h) != 0:
	return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleReqReservedFrame)`, Repl: ``,
			Catch: "Reject|Differential", Why: "a request's non-zero reserved_frame is reported as its reserved area"},
		{Name: "encode-request-skips-zeroing", File: "request.go", Func: "RequestHeader.AppendBinary",
			Find: `*(*[HeaderSize - offReqOperation]byte)(b[offReqOperation:]) = [HeaderSize - offReqOperation]byte{}`, Repl: ``,
			Catch: "RoundTrip", Why: "the request encoder leaves the garbage of dst's capacity in its padding and reserved area"},
		{Name: "fast-reply-short-version-mask-off-by-one", File: "fast.go", Func: "asciiTop",
			Find: `8 - n`, Repl: `9 - n`,
			Catch: "Reject|Differential|Canonical", Why: "the reply fast path misses a high bit in the first byte of a short server_version"},
		{Name: "fast-request-skips-reserved-frame", File: "layout.go", Func: "requestReservedBits",
			// | is left-associative: the first four terms are one node.
			Find: `le64(h, 56)>>48 | or32(h, 64) | or32(h, 96) | le64(h, offReqOperation)>>8`, Repl: `le64(h, offReqOperation)>>8`,
			Catch: "Canonical|Reject|Differential|RoundTrip", Why: "the request fast path never looks at reserved_frame"},
		{Name: "fast-reply-denial-with-body", File: "reply.go", Func: "(*ReplyHeader).wellFormed",
			Find: `(h.Status == StatusOK || h.Size == HeaderSize)`, Repl: `true`,
			Catch: "Canonical|Reject|Differential", Why: "the reply fast path accepts a denial that carries a body"},
		{Name: "fast-eviction-window-ignored", File: "eviction.go", Func: "reasonOK",
			Find: `r == ReasonIncompatibleProtocol && w.IsValid()`, Repl: `r == ReasonIncompatibleProtocol`,
			Catch: "Eviction|Differential|Canonical", Why: "reason 14 is accepted with an ill-formed window"},
		{Name: "request-decode-keeps-stale-code", File: "request.go", Func: "(*RequestHeader).Decode",
			Find: `h.Code = code`, Repl: `h.Code |= code`,
			Catch: "DecodeInPlace", Why: "decoding a Register request in place keeps the code of the header decoded before it"},
		{Name: "eviction-decode-error-keeps-value", File: "eviction.go", Func: "(*Eviction).Decode",
			Find: "err = evictionError(b, size, e)\n*e = Eviction{}", Repl: "err = evictionError(b, size, e)",
			Catch: "DecodeInPlace", Why: "a failed in-place eviction decode leaves the fields it read"},
		{Name: "parse-ignores-one-trailing-byte", File: "text.go", Func: "trailing",
			Find: `n < len(src)`, Repl: `n < len(src)-1`,
			Catch: "Prefix|Reject|Differential", Why: "Parse accepts one byte after the last field"},
	}
}
