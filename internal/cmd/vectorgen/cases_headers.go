package main

import (
	"fmt"
	"slices"

	"github.com/iggywire/iggywire/codec"
)

// breaker breaks one rule of a header: apply changes a valid header of one
// of the bases (request and reply: operations; eviction: reasons).
type breaker struct {
	rule  string
	name  string
	bases []byte
	apply func(h hdr) hdr
}

// headerKind ties a header kind to its command, its model, its valid
// bases and the breakers of its rules.
type headerKind struct {
	kind     string
	prefix   string
	cmd      byte
	model    []check
	base     func(b byte) hdr
	breakers []breaker
}

// The three header kinds.
var (
	reqK = headerKind{KindRequest, "request/", cmdRequest, requestModel(), request, requestBreakers()}
	repK = headerKind{KindReply, "reply/", cmdReply, replyModel(), reply, replyBreakers()}
	evK  = headerKind{KindEviction, "eviction/", cmdEviction, evictionModel(), eviction, evictionBreakers()}
)

func (g *gen) headerCases() {
	for _, hk := range []headerKind{reqK, repK, evK} {
		for _, b := range hk.breakers {
			h := b.apply(hk.base(b.bases[0]))
			g.header(hk, "single/"+b.rule+"/"+b.name, "breaks "+b.rule+" alone ("+b.name+")", h, []string{b.rule})
		}
		g.headerPairs(hk)
	}
	g.headerGoldens()
	g.headerBoundaries()
}

// header adds an error case for in, which must break exactly want, in
// check order: the model names the rule reported first.
func (g *gen) header(hk headerKind, name, note string, in []byte, want []string) *Case {
	rules, fields, offs := broken(hk.model, in)
	if !slices.Equal(rules, want) {
		g.failf("%s%s: breaks %v, meant to break %v", hk.prefix, name, rules, want)
		return &Case{Expect: &Expect{}}
	}
	c := g.bad(hk.kind, hk.prefix+name, note, in, rules[0], fields[0], offs[0], rules[1:]...)
	if hk.kind == KindEviction && len(in) >= 256 && in[60] == cmdEviction {
		// Section 8 for an eviction that does not decode: reason 14 with an
		// ill-formed window is Unauthenticated (40), any other invalid
		// eviction a malformed frame, InvalidCommand (3).
		code := uint32(codeInvalidCommand)
		if rules[0] == "eviction.window.incompatible" && in[255] == 14 {
			code = 40
		}
		c.sdk(code)
	}
	return c
}

// headerPairs breaks every two rules together where a common base allows
// both: the later rule first, then the earlier one, so that the earlier
// rule's breakage is what the header ends up with. WIRE.md's check order
// says the earlier rule is reported. A pair whose second breakage undoes
// the first (an operation change that leaves its session rule behind) is
// not a pair of broken rules and is left out.
func (g *gen) headerPairs(hk headerKind) {
	order := map[string]int{"header.length": -1}
	for i, c := range hk.model {
		order[c.rule] = i
	}
	seen := map[string]bool{}
	for i, a := range hk.breakers {
		for _, b := range hk.breakers[i+1:] {
			if a.rule == b.rule || seen[a.rule+"+"+b.rule] {
				continue
			}
			first, second := a, b
			if order[b.rule] < order[a.rule] {
				first, second = b, a
			}
			i := slices.IndexFunc(first.bases, func(b byte) bool { return slices.Contains(second.bases, b) })
			if i < 0 {
				continue // no base allows both
			}
			h := first.apply(second.apply(hk.base(first.bases[i])))
			if rules, _, _ := broken(hk.model, h); !slices.Equal(rules, []string{first.rule, second.rule}) {
				continue
			}
			seen[a.rule+"+"+b.rule] = true
			g.header(hk, "pair/"+first.rule+"+"+second.rule, "breaks "+first.rule+" and "+second.rule+": WIRE.md section 5's order reports "+first.rule, h, []string{first.rule, second.rule})
		}
	}
}

func set32(off int, v uint32) func(h hdr) hdr { return func(h hdr) hdr { return h.u32(off, v) } }

func set64(off int, v uint64) func(h hdr) hdr { return func(h hdr) hdr { return h.u64(off, v) } }

func set8(off int, v byte) func(h hdr) hdr { return func(h hdr) hdr { return h.u8(off, v) } }

func truncate(n int) func(h hdr) hdr { return func(h hdr) hdr { return h[:n] } }

func zero128(off int) func(h hdr) hdr { return func(h hdr) hdr { return h.u64(off, 0).u64(off+8, 0) } }

func requestBreakers() []breaker {
	all := []byte{opRegister, opNonReplicated, opLogout, opCreateStream, opSendMessages}
	reg := []byte{opRegister}
	rep := []byte{opCreateStream, opLogout, opSendMessages}
	bs := []breaker{
		{"header.length", "255-bytes", all, truncate(255)},
		{"header.length", "empty", all, truncate(0)},
		{"header.length", "1-byte", all, truncate(1)},
		{"request.command", "reply", all, set8(60, cmdReply)},
		{"request.command", "zero", all, set8(60, 0)},
		{"request.command", "eviction", all, set8(60, cmdEviction)},
		{"request.command", "255", all, set8(60, 255)},
		{"request.size", "255", all, set32(48, 255)},
		{"request.size", "zero", all, set32(48, 0)},
		{"request.size", "64MiB+1", all, set32(48, maxFrame+1)},
		{"request.size", "u32-max", all, set32(48, 0xFFFF_FFFF)},
		{"request.client", "zero", all, zero128(128)},
		{"request.register.session", "1", reg, set64(184, 1)},
		{"request.register.session", "2^64-1", reg, set64(184, ^uint64(0))},
		{"request.register.request", "1", reg, set64(168, 1)},
		{"request.nonreplicated.code", "zero", []byte{opNonReplicated}, set32(196, 0)},
		{"request.replicated.session", "metadata", rep, set64(184, 0)},
		{"request.replicated.session", "logout", []byte{opLogout}, set64(184, 0)},
		{"request.replicated.session", "partition", []byte{opSendMessages}, set64(184, 0)},
		{"request.replicated.request", "metadata", rep, set64(168, 0)},
		{"request.replicated.request", "logout", []byte{opLogout}, set64(168, 0)},
		{"request.reserved_frame", "first", all, set8(62, 1)},
		{"request.reserved_frame", "last", all, set8(127, 0x80)},
		{"request.operation_padding", "first", all, set8(177, 1)},
		{"request.operation_padding", "last", all, set8(183, 1)},
		{"request.reserved.code", "register-196", reg, set8(196, 40)},
		{"request.reserved.code", "metadata-199", rep, set8(199, 1)},
		{"request.reserved.code", "logout-code-39", []byte{opLogout}, set32(196, 39)},
		{"request.reserved", "first", all, set8(200, 1)},
		{"request.reserved", "last", all, set8(255, 1)},
		{"request.reserved", "nonreplicated-200", []byte{opNonReplicated}, set8(200, 1)},
	}
	for _, op := range []byte{0, 4, 63, 69, 127, 150, 159, 163, 255} {
		bs = append(bs, breaker{"request.operation", fmt.Sprintf("op-%d", op), all, set8(176, op)})
	}
	return bs
}

func replyBreakers() []breaker {
	all := []byte{opRegister, opNonReplicated, opCreateStream}
	bs := []breaker{
		{"header.length", "255-bytes", all, truncate(255)},
		{"header.length", "empty", all, truncate(0)},
		{"reply.command", "request", all, set8(60, cmdRequest)},
		{"reply.command", "eviction", all, set8(60, cmdEviction)},
		{"reply.size", "255", all, set32(48, 255)},
		{"reply.size", "zero", all, set32(48, 0)},
		{"reply.size", "64MiB+1", all, set32(48, maxFrame+1)},
		{"reply.status", "denial-with-body", all, func(h hdr) hdr { return h.u32(216, 40).u32(48, 300) }},
		{"reply.status", "status-3-size-257", all, func(h hdr) hdr { return h.u32(216, 3).u32(48, 257) }},
		{"reply.reserved_frame", "first", all, set8(62, 1)},
		{"reply.reserved_frame", "last", all, set8(127, 1)},
		{"reply.operation_padding", "first", all, set8(209, 1)},
		{"reply.operation_padding", "last", all, set8(215, 1)},
		{"reply.reserved", "first", all, set8(220, 1)},
		{"reply.reserved", "last", all, set8(255, 1)},
	}
	for _, op := range []byte{4, 63, 69, 127, 150, 159, 163, 255} {
		bs = append(bs, breaker{"reply.operation", fmt.Sprintf("op-%d", op), all, set8(208, op)})
	}
	return bs
}

func evictionBreakers() []breaker {
	all := []byte{9, 1, 14}
	r14 := []byte{14}
	bs := []breaker{
		{"header.length", "255-bytes", all, truncate(255)},
		{"header.length", "empty", all, truncate(0)},
		{"eviction.command", "request", all, set8(60, cmdRequest)},
		{"eviction.command", "reply", all, set8(60, cmdReply)},
		{"eviction.size", "257", all, set32(48, 257)},
		{"eviction.size", "255", all, set32(48, 255)},
		{"eviction.size", "zero", all, set32(48, 0)},
		{"eviction.size", "512", all, set32(48, 512)},
		{"eviction.client", "zero", all, zero128(128)},
		{"eviction.reserved_frame", "first", all, set8(62, 1)},
		{"eviction.reserved_frame", "last", all, set8(127, 1)},
		{"eviction.reserved", "first", all, set8(152, 1)},
		{"eviction.reserved", "last", all, set8(254, 1)},
		{"eviction.reason", "zero", []byte{9, 1}, set8(255, 0)},
		{"eviction.reason", "16", []byte{9, 1}, set8(255, 16)},
		{"eviction.reason", "255", []byte{9, 1}, set8(255, 255)},
		{"eviction.window.incompatible", "min-above-max", r14, func(h hdr) hdr { return h.u32(144, 0x2C00).u32(148, 0x2C01) }},
		{"eviction.window.incompatible", "min-zero", r14, set32(148, 0)},
		{"eviction.window.incompatible", "zero", r14, func(h hdr) hdr { return h.u32(144, 0).u32(148, 0) }},
		{"eviction.window.zero", "max", []byte{9, 1}, set32(144, 0x2C00)},
		{"eviction.window.zero", "min", []byte{9, 1}, set32(148, 1)},
	}
	for _, r := range []byte{2, 13, 15} {
		bs = append(bs, breaker{"eviction.window.zero", fmt.Sprintf("reason-%d", r), []byte{r}, set32(144, 0x2C00)})
	}
	return bs
}

// okHeader adds a valid header case, checked against the model.
func (g *gen) okHeader(hk headerKind, name, note string, h []byte, rules ...string) *Case {
	if r, _, _ := broken(hk.model, h); len(r) > 0 {
		g.failf("%s%s: meant to be valid, breaks %v", hk.prefix, name, r)
	}
	return g.ok(hk.kind, hk.prefix+name, "5", note, h, headerFields(hk.cmd, h), rules...)
}

// evictionCodes is section 8 for a valid eviction, by reason; 14 has no
// numeric code (IncompatibleProtocolVersion).
var evictionCodes = map[byte]uint32{1: 40, 7: 40, 8: 40, 11: 40, 12: 40, 2: 3, 3: 3, 4: 3, 5: 3, 6: 3, 9: 42, 10: 53, 13: 30, 15: 4}

func (g *gen) okEviction(name, note string, h hdr, rules ...string) {
	c := g.okHeader(evK, name, note, h, rules...)
	if code, ok := evictionCodes[h[255]]; ok {
		c.sdk(code)
		c.Rules = append(c.Rules, fmt.Sprintf("sdk.%d", code))
	} else {
		c.Expect.SDKError = incompatibleName // eviction 14 with a well-formed window
		c.Rules = append(c.Rules, "sdk.incompatible")
	}
}

func (g *gen) headerGoldens() {
	bigClient := func(h hdr, off int) hdr { return h.u64(off, 0xfedcba9876543210).u64(off+8, 0x0123456789abcdef) }
	full := bigClient(newHdr(cmdRequest), 128).u64(0, 1).u64(24, 2).u64(32, 3).u32(48, 300).u32(52, 7).u32(56, 0x0102).
		u8(61, 9).u64(144, 0xaa).u64(160, 0x1122334455667788).u8(176, opRegister)
	g.okHeader(reqK, "golden/register-prologue", "a Register request carrying every prologue field: a codec keeps them so that decoding and re-encoding give back the same bytes", full, "request.register.session")
	g.okHeader(reqK, "golden/ping", "PING before login: NonReplicated, request 1, code 1 at 196", request(opNonReplicated), "request.nonreplicated.code")
	meta := request(opNonReplicated).u64(168, 2).u64(184, 7).u32(192, 0x01020304).u32(196, 12)
	g.okHeader(reqK, "golden/get-cluster-metadata", "GetClusterMetadata (code 12) after login: session 7, user_id set", meta, "request.nonreplicated.code")
	g.okHeader(reqK, "golden/logout", "Logout: operation 3, request 2, session 0x10", request(opLogout).u64(184, 0x10), "request.replicated.session")

	g.okHeader(repK, "golden/login-reply-header", "a login reply's header: size 282 = 256 + 4 (result section) + 22", reply(opRegister).u32(48, 282).u32(52, 1<<24).
		u64(128, 1).u64(144, 2).u64(176, 10).u64(184, 11).u64(192, 12), "reply.size")
	g.okHeader(repK, "golden/deny", "a denial: status 40, no body, request 3 and operation NonReplicated echoed",
		bigClient(newHdr(cmdReply), 160).u64(200, 3).u8(208, opNonReplicated).u32(216, 40), "reply.status")

	g.okEviction("golden/14", "reason 14 with window max 0.11.0 at 144 and min 0.10.0 at 148", eviction(14), "eviction.window.incompatible")
	g.okEviction("golden/1-prologue", "reason 1 (NoSession), window zero, prologue fields carried",
		bigClient(newHdr(cmdEviction), 128).u64(8, 0xff).u32(56, 1).u8(61, 2).u8(255, 1), "eviction.reason")
	for r := byte(1); r <= 15; r++ {
		if r == 1 || r == 14 {
			continue
		}
		g.okEviction(fmt.Sprintf("reason/%d", r), fmt.Sprintf("a valid eviction with reason %d (%s)", r, codec.EvictionReason(r)), eviction(r), "eviction.reason")
	}
}

func (g *gen) headerBoundaries() {
	g.okHeader(reqK, "boundary/size-256", "the smallest size", request(opRegister), "request.size")
	g.okHeader(reqK, "boundary/size-64MiB", "the largest size", request(opRegister).u32(48, maxFrame), "request.size")
	g.okHeader(reqK, "boundary/session-1", "a replicated request with session 1", request(opCreateStream).u64(184, 1), "request.replicated.session")
	g.okHeader(reqK, "boundary/session-2^63", "session 2^63: unsigned", request(opCreateStream).u64(184, 1<<63), "request.replicated.session")
	g.okHeader(reqK, "boundary/session-max", "session 2^64-1", request(opCreateStream).u64(184, ^uint64(0)), "request.replicated.session")
	g.okHeader(reqK, "boundary/request-max", "request 2^64-1", request(opCreateStream).u64(168, ^uint64(0)), "request.replicated.request")
	g.okHeader(reqK, "boundary/client-max", "client 2^128-1", request(opRegister).u64(128, ^uint64(0)).u64(136, ^uint64(0)), "request.client")
	g.okHeader(reqK, "boundary/client-high-half", "client 2^64: only the high half is non-zero", request(opRegister).u64(128, 0).u64(136, 1), "request.client")
	g.okHeader(reqK, "boundary/code-max", "NonReplicated code 0xffffffff", request(opNonReplicated).u32(196, 0xFFFF_FFFF), "request.nonreplicated.code")
	g.okHeader(reqK, "boundary/nonreplicated-session-0-request-0", "NonReplicated has no session or request rule", request(opNonReplicated).u64(168, 0), "request.nonreplicated.code")
	for _, op := range []byte{64, 68, 128, 149, 160, 162} {
		g.okHeader(reqK, fmt.Sprintf("boundary/operation-%d", op), "a known operation at the edge of its range", request(op), "request.operation")
	}
	g.okHeader(repK, "boundary/size-64MiB", "the largest size", reply(opRegister).u32(48, maxFrame), "reply.size")
	for _, op := range []byte{0, 3, 64, 68, 128, 149, 160, 162} {
		g.okHeader(repK, fmt.Sprintf("boundary/operation-%d", op), "a known operation (a reply may echo 0)", reply(op), "reply.operation")
	}
	g.okHeader(repK, "boundary/status-57-size-256", "any non-zero status with an empty body", reply(opRegister).u32(216, 57), "reply.status")
	g.okEviction("boundary/window-min-is-max", "reason 14 with min == max", eviction(14).u32(148, 0x2C00), "eviction.window.incompatible")
	g.okEviction("boundary/window-min-1", "reason 14 with min 0.0.1, the lowest well-formed min", eviction(14).u32(148, 1), "eviction.window.incompatible")
	g.okEviction("boundary/window-reserved-bits", "reason 14 whose window versions carry reserved bits: 1 <= min <= max still holds", eviction(14).u32(144, 0xC000_2C00).u32(148, 0x4000_2C00), "eviction.window.incompatible")
}
