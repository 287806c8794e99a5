package main

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// Header field offsets the dispatcher peeks at before a header is decoded
// (WIRE.md section 5). The walkers below read every field in order; these
// are only for choosing what to walk.
const (
	offSize         = 48
	offCommand      = 60
	offReqOperation = 176
	offReqCode      = 196
	offRepOperation = 208
	offRepStatus    = 216
)

func showCommand(v uint8) string   { return enumName(uint64(v), codec.Command(v).String()) }
func showOperation(v uint8) string { return enumName(uint64(v), codec.Operation(v).String()) }
func showReason(v uint8) string    { return enumName(uint64(v), codec.EvictionReason(v).String()) }
func showStatus(v uint32) string   { return enumName(uint64(v), codec.Status(v).String()) }
func showCode(v uint32) string     { return enumName(uint64(v), codec.Code(v).String()) }

// enumName prints an enum as "1 (Register)".
func enumName(v uint64, name string) string { return fmt.Sprintf("%d (%s)", v, name) }

// walkPrologue records bytes 0..128, identical in every header kind.
func walkPrologue(w *walker) {
	w.u128("checksum")
	w.u128("checksum_body")
	w.u128("cluster")
	w.u32("size", showDec32)
	w.u32("view", showDec32)
	w.u32("release", showDec32)
	w.u8("command", showCommand)
	w.u8("replica", showDec8)
	w.zeros("reserved_frame", 66)
}

// walkRequestHeader records a Request header (command 5) from the first
// 256 bytes of src (as far as they go, when src is shorter).
// Bytes 196..200 are the command code only for operation NonReplicated;
// otherwise they are part of the reserved area.
func walkRequestHeader(src []byte) []Field {
	w := newWalker(src, 0, min(len(src), codec.HeaderSize))
	walkPrologue(w)
	w.u128("client")
	w.u128("request_checksum")
	w.u64("timestamp")
	w.u64("request")
	op, _ := w.u8("operation", showOperation)
	w.zeros("operation_padding", 7)
	w.u64("session")
	w.u32("user_id", showDec32)
	if codec.Operation(op) == codec.OperationNonReplicated {
		w.u32("code", showCode)
		w.zeros("reserved", 56)
	} else {
		w.zeros("reserved", 60)
	}
	return w.fields
}

// walkReplyHeader records a Reply header (command 8) from the first
// 256 bytes of src (as far as they go, when src is shorter).
func walkReplyHeader(src []byte) []Field {
	w := newWalker(src, 0, min(len(src), codec.HeaderSize))
	walkPrologue(w)
	w.u128("request_checksum")
	w.u128("context")
	w.u128("client")
	w.u64("op")
	w.u64("commit")
	w.u64("timestamp")
	w.u64("request")
	w.u8("operation", showOperation)
	w.zeros("operation_padding", 7)
	w.u32("status", showStatus)
	w.zeros("reserved", 36)
	return w.fields
}

// walkEviction records an Eviction header (command 13) from the first
// 256 bytes of src (as far as they go, when src is shorter).
func walkEviction(src []byte) []Field {
	w := newWalker(src, 0, min(len(src), codec.HeaderSize))
	walkPrologue(w)
	w.u128("client")
	w.u32("server_protocol_version", showVersion)
	w.u32("server_protocol_version_min", showVersion)
	w.zeros("reserved", 103)
	w.u8("reason", showReason)
	return w.fields
}

// walkOtherHeader records the prologue of a header whose command is not
// client-facing, and the kind-specific half as undecoded bytes.
func walkOtherHeader(src []byte) []Field {
	w := newWalker(src, 0, min(len(src), codec.HeaderSize))
	walkPrologue(w)
	w.raw("kind_specific", codec.HeaderSize-128)
	return w.fields
}
