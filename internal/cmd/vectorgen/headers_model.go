package main

// The header rules of WIRE.md section 5 restated as a plain model: each
// kind's rules in the reference's check order, each a predicate that says
// whether a header breaks it and at which offset. The model decides which
// rule a case with several broken rules expects; the codec is checked
// against it, not the other way round.

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
	for i := from; i < to; i++ {
		if h[i] != 0 {
			return i
		}
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
	s := le.Uint32(h[48:])
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

func requestModel() []check {
	return []check{
		{"request.command", "command", func(h []byte) int { return when(h[60] != cmdRequest, 60) }},
		{"request.size", "size", func(h []byte) int { return when(sizeOutOfRange(h), 48) }},
		{"request.client", "client", func(h []byte) int { return when(u128Zero(h, 128), 128) }},
		{"request.operation", "operation", func(h []byte) int { return when(!knownOperation(h[176]) || h[176] == opReserved, 176) }},
		{"request.register.session", "session", func(h []byte) int { return when(h[176] == opRegister && le.Uint64(h[184:]) != 0, 184) }},
		{"request.register.request", "request", func(h []byte) int { return when(h[176] == opRegister && le.Uint64(h[168:]) != 0, 168) }},
		{"request.nonreplicated.code", "code", func(h []byte) int { return when(h[176] == opNonReplicated && le.Uint32(h[196:]) == 0, 196) }},
		{"request.replicated.session", "session", func(h []byte) int { return when(replicated(h[176]) && le.Uint64(h[184:]) == 0, 184) }},
		{"request.replicated.request", "request", func(h []byte) int { return when(replicated(h[176]) && le.Uint64(h[168:]) == 0, 168) }},
		{"request.reserved_frame", "reserved_frame", func(h []byte) int { return firstNonZero(h, 62, 128) }},
		{"request.operation_padding", "operation_padding", func(h []byte) int { return firstNonZero(h, 177, 184) }},
		{"request.reserved.code", "reserved", func(h []byte) int {
			if h[176] == opNonReplicated {
				return -1
			}
			return firstNonZero(h, 196, 200)
		}},
		{"request.reserved", "reserved", func(h []byte) int { return firstNonZero(h, 200, 256) }},
	}
}

func replyModel() []check {
	return []check{
		{"reply.command", "command", func(h []byte) int { return when(h[60] != cmdReply, 60) }},
		{"reply.size", "size", func(h []byte) int { return when(sizeOutOfRange(h), 48) }},
		{"reply.operation", "operation", func(h []byte) int { return when(!knownOperation(h[208]), 208) }},
		{"reply.status", "size", func(h []byte) int { return when(le.Uint32(h[216:]) != 0 && le.Uint32(h[48:]) != 256, 48) }},
		{"reply.reserved_frame", "reserved_frame", func(h []byte) int { return firstNonZero(h, 62, 128) }},
		{"reply.operation_padding", "operation_padding", func(h []byte) int { return firstNonZero(h, 209, 216) }},
		{"reply.reserved", "reserved", func(h []byte) int { return firstNonZero(h, 220, 256) }},
	}
}

func evictionModel() []check {
	window := func(h []byte) (lo, hi uint32) { return le.Uint32(h[148:]), le.Uint32(h[144:]) }
	return []check{
		{"eviction.command", "command", func(h []byte) int { return when(h[60] != cmdEviction, 60) }},
		{"eviction.size", "size", func(h []byte) int { return when(le.Uint32(h[48:]) != 256, 48) }},
		{"eviction.client", "client", func(h []byte) int { return when(u128Zero(h, 128), 128) }},
		{"eviction.reserved_frame", "reserved_frame", func(h []byte) int { return firstNonZero(h, 62, 128) }},
		{"eviction.reserved", "reserved", func(h []byte) int { return firstNonZero(h, 152, 255) }},
		{"eviction.reason", "reason", func(h []byte) int { return when(h[255] == 0 || h[255] > 15, 255) }},
		{"eviction.window.incompatible", "window", func(h []byte) int {
			lo, hi := window(h)
			return when(h[255] == 14 && !(1 <= lo && lo <= hi), 144)
		}},
		{"eviction.window.zero", "window", func(h []byte) int {
			lo, hi := window(h)
			return when(h[255] >= 1 && h[255] <= 15 && h[255] != 14 && lo|hi != 0, 144)
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
