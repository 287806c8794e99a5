package main

import (
	"cmp"
	"encoding/binary"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
)

// Inputs are built byte by byte at the offsets WIRE.md gives, without the
// codec, so that they can break any rule; the ok verdicts are read back by
// headerFields below, also without the codec.

var le = binary.LittleEndian

// hdr is a 256-byte header under construction.
type hdr []byte

// newHdr returns a zero header with size 256 and the command byte set.
func newHdr(cmd byte) hdr { return make(hdr, 256).u32(48, 256).u8(60, cmd) }

func (h hdr) u8(off int, v byte) hdr { h[off] = v; return h }

func (h hdr) u32(off int, v uint32) hdr { le.PutUint32(h[off:], v); return h }

func (h hdr) u64(off int, v uint64) hdr { le.PutUint64(h[off:], v); return h }

// Command bytes and the client id most cases use.
const (
	cmdRequest  = 5
	cmdReply    = 8
	cmdEviction = 13
	client5     = 5
)

// Operations.
const (
	opReserved      = 0
	opRegister      = 1
	opNonReplicated = 2
	opLogout        = 3
	opCreateStream  = 128
	opSendMessages  = 160
)

// request returns a valid request header of operation op from client 5:
// Register carries session 0 and request 0; NonReplicated carries code 1
// (PING) and request 1; every other operation session 3 and request 2.
func request(op byte) hdr {
	h := newHdr(cmdRequest).u64(128, client5).u8(176, op)
	switch op {
	case opRegister:
	case opNonReplicated:
		h.u64(168, 1).u32(196, 1)
	default:
		h.u64(184, 3).u64(168, 2)
	}
	return h
}

// reply returns a valid reply header to client 5: operation op, status 0.
func reply(op byte) hdr { return newHdr(cmdReply).u64(160, client5).u8(208, op) }

// eviction returns a valid eviction of client 5 for reason; reason 14
// carries the window {0.10.0, 0.11.0}.
func eviction(reason byte) hdr {
	h := newHdr(cmdEviction).u64(128, client5).u8(255, reason)
	if reason == 14 {
		h.u32(144, 0x2C00).u32(148, 0x2800)
	}
	return h
}

// t8 is a u8 length and the text; t32 a u32 length and the text.
func t8(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func t32(s string) []byte { return append(le.AppendUint32(nil, uint32(len(s))), s...) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func u32b(v uint32) []byte { return le.AppendUint32(nil, v) }

func u64b(v uint64) []byte { return le.AppendUint64(nil, v) }

// cvi is a ClientVersionInfo.
func cvi(proto uint32, name, version string) []byte { return cat(u32b(proto), t8(name), t8(version)) }

// goInfo is the ClientVersionInfo of most cases: 0.11.0, "go-sdk", "0.1.0".
func goInfo() []byte { return cvi(0x2C00, "go-sdk", "0.1.0") }

func loginBody(info []byte, user, pass, ctx string) []byte {
	return cat(info, t8(user), t8(pass), t32(ctx))
}

func patBody(info []byte, token, ctx string) []byte { return cat(info, t8(token), t32(ctx)) }

func replyBody(user uint32, session uint64, proto uint32, version string) []byte {
	return cat(u32b(user), u64b(session), u32b(proto), t8(version))
}

// headerFields reads the fields of a header of command cmd as the vectors
// write them, at the offsets of internal/layout (the workbench's one table
// of the headers, held to WIRE.md by its own test; not the codec): 16- and
// 8-byte integers as decimal strings, smaller ones as numbers, reserved
// areas and the command left out. A request's code exists only for
// NonReplicated; an eviction's two versions are its window.
func headerFields(cmd byte, h []byte) map[string]any {
	f := map[string]any{}
	window := map[string]string{"server_protocol_version": "window_max", "server_protocol_version_min": "window_min"}
	for _, l := range layout.Header(cmd) {
		if l.Reserved || l.Kind == layout.Command {
			continue
		}
		name := cmp.Or(window[l.Name], l.Name)
		switch l.Size {
		case 16:
			f[name] = u128(codec.Uint128{Lo: le.Uint64(h[l.Offset:]), Hi: le.Uint64(h[l.Offset+8:])})
		case 8:
			f[name] = u64(le.Uint64(h[l.Offset:]))
		case 4:
			f[name] = le.Uint32(h[l.Offset:])
		default:
			f[name] = h[l.Offset]
		}
	}
	if cmd == cmdRequest {
		f["code"] = uint32(0)
		if h[at(cmdRequest, "operation")] == opNonReplicated {
			f["code"] = le.Uint32(h[layout.RequestCode().Offset:])
		}
	}
	return f
}

// at is the offset of a header field, from internal/layout.
func at(cmd byte, name string) int {
	for _, l := range layout.Header(cmd) {
		if l.Name == name {
			return l.Offset
		}
	}
	panic("vectorgen: no header field " + name)
}

// Fields of the bodies, from the values a case wrote.
func infoF(proto uint32, name, version string) map[string]any {
	return map[string]any{"protocol_version": proto, "sdk_name": name, "sdk_version": version}
}

func loginF(proto uint32, name, version, user, pass, ctx string) map[string]any {
	f := infoF(proto, name, version)
	f["username"], f["password_len"], f["context"] = user, len(pass), ctx
	return f
}

func patF(proto uint32, name, version, token, ctx string) map[string]any {
	f := infoF(proto, name, version)
	f["token_len"], f["context"] = len(token), ctx
	return f
}

func replyF(user uint32, session uint64, proto uint32, version string) map[string]any {
	return map[string]any{"user_id": user, "session": u64(session), "server_protocol_version": proto, "server_version": version}
}

// repeat is strings.Repeat, short.
func repeat(s string, n int) string { return strings.Repeat(s, n) }
