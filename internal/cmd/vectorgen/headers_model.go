package main

import (
	"cmp"
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

func sizeOutOfRange(h []byte) bool {
	s := le.Uint32(h[at(cmdRequest, "size"):])
	return s < 256 || s > maxFrame
}

func u128Zero(h []byte, off int) bool { return le.Uint64(h[off:])|le.Uint64(h[off+8:]) == 0 }

// knownOperation is section 6's list of known operations (0 included).
func knownOperation(op byte) bool {
	return op <= 3 || 64 <= op && op <= 68 || 128 <= op && op <= 149 || 160 <= op && op <= 162
}

// replicated is "any other operation": known, and not 0, Register or
// NonReplicated.
func replicated(op byte) bool { return knownOperation(op) && op > opNonReplicated }

// zeroArea is the rule that the reserved area name of a cmd header is
// zero (from, to bound it instead when not 0): the offset of its first
// non-zero byte. The areas come from internal/layout.
func zeroArea(cmd byte, name string, from, to int) func(h []byte) int {
	for _, l := range layout.Header(cmd) {
		if l.Name == name && l.Reserved {
			from, to = max(from, l.Offset), cmp.Or(to, l.End())
			return func(h []byte) int { return firstNonZero(h, from, to) }
		}
	}
	panic("vectorgen: no reserved area " + name)
}

func requestModel() []check {
	cmd, size, client, op := at(cmdRequest, "command"), at(cmdRequest, "size"), at(cmdRequest, "client"), at(cmdRequest, "operation")
	session, request, code := at(cmdRequest, "session"), at(cmdRequest, "request"), layout.RequestCode()
	reservedCode := zeroArea(cmdRequest, "reserved", code.Offset, code.End())
	return []check{
		{"request.command", "command", func(h []byte) int { return when(h[cmd] != cmdRequest, cmd) }},
		{"request.size", "size", func(h []byte) int { return when(sizeOutOfRange(h), size) }},
		{"request.client", "client", func(h []byte) int { return when(u128Zero(h, client), client) }},
		{"request.operation", "operation", func(h []byte) int { return when(!knownOperation(h[op]) || h[op] == opReserved, op) }},
		{"request.register.session", "session", func(h []byte) int { return when(h[op] == opRegister && le.Uint64(h[session:]) != 0, session) }},
		{"request.register.request", "request", func(h []byte) int { return when(h[op] == opRegister && le.Uint64(h[request:]) != 0, request) }},
		{"request.nonreplicated.code", "code", func(h []byte) int {
			return when(h[op] == opNonReplicated && le.Uint32(h[code.Offset:]) == 0, code.Offset)
		}},
		{"request.replicated.session", "session", func(h []byte) int { return when(replicated(h[op]) && le.Uint64(h[session:]) == 0, session) }},
		{"request.replicated.request", "request", func(h []byte) int { return when(replicated(h[op]) && le.Uint64(h[request:]) == 0, request) }},
		{"request.reserved_frame", "reserved_frame", zeroArea(cmdRequest, "reserved_frame", 0, 0)},
		{"request.operation_padding", "operation_padding", zeroArea(cmdRequest, "operation_padding", 0, 0)},
		{"request.reserved.code", "reserved", func(h []byte) int {
			if h[op] == opNonReplicated {
				return -1
			}
			return reservedCode(h)
		}},
		{"request.reserved", "reserved", zeroArea(cmdRequest, "reserved", code.End(), 0)},
	}
}

func replyModel() []check {
	cmd, size, op, status := at(cmdReply, "command"), at(cmdReply, "size"), at(cmdReply, "operation"), at(cmdReply, "status")
	return []check{
		{"reply.command", "command", func(h []byte) int { return when(h[cmd] != cmdReply, cmd) }},
		{"reply.size", "size", func(h []byte) int { return when(sizeOutOfRange(h), size) }},
		{"reply.operation", "operation", func(h []byte) int { return when(!knownOperation(h[op]), op) }},
		{"reply.status", "size", func(h []byte) int { return when(le.Uint32(h[status:]) != 0 && le.Uint32(h[size:]) != 256, size) }},
		{"reply.reserved_frame", "reserved_frame", zeroArea(cmdReply, "reserved_frame", 0, 0)},
		{"reply.operation_padding", "operation_padding", zeroArea(cmdReply, "operation_padding", 0, 0)},
		{"reply.reserved", "reserved", zeroArea(cmdReply, "reserved", 0, 0)},
	}
}

func evictionModel() []check {
	cmd, size, client, reason := at(cmdEviction, "command"), at(cmdEviction, "size"), at(cmdEviction, "client"), at(cmdEviction, "reason")
	hiAt, loAt := at(cmdEviction, "server_protocol_version"), at(cmdEviction, "server_protocol_version_min")
	window := func(h []byte) (lo, hi uint32) { return le.Uint32(h[loAt:]), le.Uint32(h[hiAt:]) }
	return []check{
		{"eviction.command", "command", func(h []byte) int { return when(h[cmd] != cmdEviction, cmd) }},
		{"eviction.size", "size", func(h []byte) int { return when(le.Uint32(h[size:]) != 256, size) }},
		{"eviction.client", "client", func(h []byte) int { return when(u128Zero(h, client), client) }},
		{"eviction.reserved_frame", "reserved_frame", zeroArea(cmdEviction, "reserved_frame", 0, 0)},
		{"eviction.reserved", "reserved", zeroArea(cmdEviction, "reserved", 0, 0)},
		{"eviction.reason", "reason", func(h []byte) int { return when(h[reason] == 0 || h[reason] > 15, reason) }},
		{"eviction.window.incompatible", "window", func(h []byte) int {
			lo, hi := window(h)
			return when(h[reason] == 14 && !(1 <= lo && lo <= hi), hiAt)
		}},
		{"eviction.window.zero", "window", func(h []byte) int {
			lo, hi := window(h)
			return when(h[reason] >= 1 && h[reason] <= 15 && h[reason] != 14 && lo|hi != 0, hiAt)
		}},
	}
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
