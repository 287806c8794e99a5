package main

import (
	"slices"

	"github.com/iggywire/iggywire/internal/layout"
)

// The header rules of WIRE.md section 5 as a plain model: each kind's
// rules in the reference's check order, each a predicate that says whether
// a header breaks it and at which offset. The model decides which rule a
// case with several broken rules expects; the codec is checked against it,
// not the other way round. Where a rule is only "this field" or "this area
// is zero", the offsets come from internal/layout, the workbench's one
// table of the headers; what is left here is the rules themselves.

// check is one rule of the model: off returns the offset at which h breaks
// the rule, or -1. h always has 256 bytes (a short input is padded; the
// length rule comes first and looks at the real length).
type check struct {
	rule  string
	field string
	off   func(h []byte) int
}

const maxFrame = 64 << 20

func firstNonZero(h []byte, from, to int) int {
	if i := slices.IndexFunc(h[from:to], func(b byte) bool { return b != 0 }); i >= 0 {
		return from + i
	}
	return -1
}

func when(cond bool, off int) int {
	if cond {
		return off
	}
	return -1
}

// frameSizeOK is a size a frame reader can use: 256 <= s <= 64 MiB.
func frameSizeOK(s uint32) bool { return s >= 256 && s <= maxFrame }

func u128Zero(h []byte, off int) bool { return le.Uint64(h[off:])|le.Uint64(h[off+8:]) == 0 }

// knownOperation is section 6's list of known operations (0 included).
func knownOperation(op byte) bool {
	return op <= 3 || 64 <= op && op <= 68 || 128 <= op && op <= 149 || 160 <= op && op <= 162
}

// replicated is "any other operation": known, and not 0, Register or
// NonReplicated.
func replicated(op byte) bool { return knownOperation(op) && op > opNonReplicated }

// model returns the rules of a cmd header in check order: its command, its
// size (sizeOK), the rules of its own fields (own), the rule that each of
// its reserved areas is zero, in wire order and at the offsets of
// internal/layout, then the rules checked after those (last). A Request's
// reserved area starts with the code of a NonReplicated request: for
// every other operation those bytes are reserved like the rest, a rule of
// their own checked first.
func model(cmd byte, kind string, sizeOK func(s uint32) bool, own, last []check) []check {
	c, size := at(cmd, "command"), at(cmd, "size")
	m := append([]check{
		{kind + ".command", "command", func(h []byte) int { return when(h[c] != cmd, c) }},
		{kind + ".size", "size", func(h []byte) int { return when(!sizeOK(le.Uint32(h[size:])), size) }},
	}, own...)
	for _, l := range layout.Header(cmd) {
		if !l.Reserved {
			continue
		}
		from, to := l.Offset, l.End()
		if cmd == cmdRequest && l.Name == "reserved" {
			code, op := layout.RequestCode(), at(cmd, "operation")
			m = append(m, check{"request.reserved.code", "reserved", func(h []byte) int {
				return when(h[op] != opNonReplicated, firstNonZero(h, code.Offset, code.End()))
			}})
			from = code.End()
		}
		m = append(m, check{kind + "." + l.Name, l.Name, func(h []byte) int { return firstNonZero(h, from, to) }})
	}
	return append(m, last...)
}

func requestModel() []check {
	client, op, code := at(cmdRequest, "client"), at(cmdRequest, "operation"), layout.RequestCode().Offset
	session, request := at(cmdRequest, "session"), at(cmdRequest, "request")
	return model(cmdRequest, "request", frameSizeOK, []check{
		{"request.client", "client", func(h []byte) int { return when(u128Zero(h, client), client) }},
		{"request.operation", "operation", func(h []byte) int { return when(!knownOperation(h[op]) || h[op] == opReserved, op) }},
		{"request.register.session", "session", func(h []byte) int { return when(h[op] == opRegister && le.Uint64(h[session:]) != 0, session) }},
		{"request.register.request", "request", func(h []byte) int { return when(h[op] == opRegister && le.Uint64(h[request:]) != 0, request) }},
		{"request.nonreplicated.code", "code", func(h []byte) int { return when(h[op] == opNonReplicated && le.Uint32(h[code:]) == 0, code) }},
		{"request.replicated.session", "session", func(h []byte) int { return when(replicated(h[op]) && le.Uint64(h[session:]) == 0, session) }},
		{"request.replicated.request", "request", func(h []byte) int { return when(replicated(h[op]) && le.Uint64(h[request:]) == 0, request) }},
	}, nil)
}

func replyModel() []check {
	size, op, status := at(cmdReply, "size"), at(cmdReply, "operation"), at(cmdReply, "status")
	return model(cmdReply, "reply", frameSizeOK, []check{
		{"reply.operation", "operation", func(h []byte) int { return when(!knownOperation(h[op]), op) }},
		{"reply.status", "size", func(h []byte) int { return when(le.Uint32(h[status:]) != 0 && le.Uint32(h[size:]) != 256, size) }},
	}, nil)
}

func evictionModel() []check {
	client, reason := at(cmdEviction, "client"), at(cmdEviction, "reason")
	hiAt, loAt := at(cmdEviction, "server_protocol_version"), at(cmdEviction, "server_protocol_version_min")
	window := func(h []byte) (lo, hi uint32) { return le.Uint32(h[loAt:]), le.Uint32(h[hiAt:]) }
	return model(cmdEviction, "eviction", func(s uint32) bool { return s == 256 }, []check{
		{"eviction.client", "client", func(h []byte) int { return when(u128Zero(h, client), client) }},
	}, []check{
		{"eviction.reason", "reason", func(h []byte) int { return when(h[reason] == 0 || h[reason] > 15, reason) }},
		{"eviction.window.incompatible", "window", func(h []byte) int {
			lo, hi := window(h)
			return when(h[reason] == 14 && !(1 <= lo && lo <= hi), hiAt)
		}},
		{"eviction.window.zero", "window", func(h []byte) int {
			lo, hi := window(h)
			return when(h[reason] >= 1 && h[reason] <= 15 && h[reason] != 14 && lo|hi != 0, hiAt)
		}},
	})
}

// broken returns every rule of model that in breaks, in check order, with
// the offset of each; a short input breaks header.length first.
// Padding a short input with zeros must not make up other broken rules.
func broken(model []check, in []byte) (rules []string, fields []string, offs []int) {
	if len(in) < 256 {
		rules, fields, offs = append(rules, "header.length"), append(fields, "header"), append(offs, len(in))
	}
	h := make([]byte, 256)
	copy(h, in)
	for _, c := range model {
		// In a short input only the rules whose bytes are present count.
		if off := c.off(h); off >= 0 && off < len(in) {
			rules, fields, offs = append(rules, c.rule), append(fields, c.field), append(offs, off)
		}
	}
	return rules, fields, offs
}
