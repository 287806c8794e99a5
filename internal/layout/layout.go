// Package layout is the workbench's table of the 256-byte headers of WIRE.md
// section 5: every field's name (the name codec errors use), offset, size,
// how it is read and whether it must be zero. Tools that walk a header
// (dumps, mutators, property tests) read it instead of keeping their own
// copy. It is internal so that importers of codec get no table to freeze:
// an SDK reads fields through codec.Header. codec's own tests hold this
// table to the codec's offset constants, and this package's test holds it
// to WIRE.md.
package layout

import (
	"slices"
	"strconv"
)

// Field is one field of a header.
type Field struct {
	Name     string // the wire name, as codec errors name the field
	Offset   int    // the byte offset in the header
	Size     int    // the field's size in bytes
	Kind     Kind   // how its bytes are read
	Reserved bool   // the field is reserved or padding and must be zero
}

// End returns the offset just past f.
func (f Field) End() int { return f.Offset + f.Size }

// Kind says how the bytes of a header field are read. Every integer is
// little-endian.
type Kind uint8

// The kinds of header field.
const (
	Uint      Kind = iota + 1 // an unsigned integer of 1, 4, 8 or 16 bytes
	Command                   // a codec.Command (u8)
	Operation                 // a codec.Operation (u8)
	Status                    // a codec.Status (u32)
	Code                      // a codec.Code (u32)
	Version                   // a packed codec.Version (u32)
	Reason                    // a codec.EvictionReason (u8)
	Bytes                     // plain bytes (reserved areas and padding)
)

// String names k, and prints unknown values as "UNKNOWN_FIELD_KIND_N".
func (k Kind) String() string {
	names := [...]string{"", "uint", "command", "operation", "status", "code", "version", "reason", "bytes"}
	if k == 0 || int(k) >= len(names) {
		return "UNKNOWN_FIELD_KIND_" + strconv.Itoa(int(k))
	}
	return names[k]
}

// Header returns the fields of a Request, Reply or Eviction header in wire
// order: the common prologue, then the kind-specific part, tiling bytes
// 0..256 with no gap and no overlap. Any other command has no layout (nil).
// The slice is the caller's to keep or change. It takes a codec.Command
// (any type over uint8) without importing codec, so that codec's tests can
// import this package.
func Header[C ~uint8](c C) []Field {
	if fields, ok := own[uint8(c)]; ok {
		return slices.Concat(prologue, fields)
	}
	return nil
}

// RequestCode returns the command code of a NonReplicated request. It is not
// part of Header because it overlays the first bytes of the Request's
// reserved area, and only for operation NonReplicated; for every other
// operation those bytes are reserved like the rest.
func RequestCode() Field { return Field{"code", 196, 4, Code, false} }

// The tables of WIRE.md section 5: the prologue, then each header's own
// fields by its command byte (codec.CommandRequest, CommandReply,
// CommandEviction). Header returns a fresh copy, so that no caller can
// change what another reads.
var (
	prologue = []Field{
		{"checksum", 0, 16, Uint, false},
		{"checksum_body", 16, 16, Uint, false},
		{"cluster", 32, 16, Uint, false},
		{"size", 48, 4, Uint, false},
		{"view", 52, 4, Uint, false},
		{"release", 56, 4, Uint, false},
		{"command", 60, 1, Command, false},
		{"replica", 61, 1, Uint, false},
		{"reserved_frame", 62, 66, Bytes, true},
	}
	own = map[uint8][]Field{
		5: { // Request
			{"client", 128, 16, Uint, false},
			{"request_checksum", 144, 16, Uint, false},
			{"timestamp", 160, 8, Uint, false},
			{"request", 168, 8, Uint, false},
			{"operation", 176, 1, Operation, false},
			{"operation_padding", 177, 7, Bytes, true},
			{"session", 184, 8, Uint, false},
			{"user_id", 192, 4, Uint, false},
			{"reserved", 196, 60, Bytes, true},
		},
		8: { // Reply
			{"request_checksum", 128, 16, Uint, false},
			{"context", 144, 16, Uint, false},
			{"client", 160, 16, Uint, false},
			{"op", 176, 8, Uint, false},
			{"commit", 184, 8, Uint, false},
			{"timestamp", 192, 8, Uint, false},
			{"request", 200, 8, Uint, false},
			{"operation", 208, 1, Operation, false},
			{"operation_padding", 209, 7, Bytes, true},
			{"status", 216, 4, Status, false},
			{"reserved", 220, 36, Bytes, true},
		},
		13: { // Eviction
			{"client", 128, 16, Uint, false},
			{"server_protocol_version", 144, 4, Version, false},
			{"server_protocol_version_min", 148, 4, Version, false},
			{"reserved", 152, 103, Bytes, true},
			{"reason", 255, 1, Reason, false},
		},
	}
)
