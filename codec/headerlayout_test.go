package codec

import (
	"testing"

	"github.com/iggywire/iggywire/internal/layout"
)

// headerField is one field of a 256-byte header as data: its name (the name
// errors use), where it sits, how to read it, and whether it is reserved
// (must be zero). Tools that walk a header (dumps, mutators, tests) read
// these tables instead of keeping their own copy of WIRE.md section 5.
type headerField struct {
	Name     string    // the wire name, as errors name the field
	Offset   int       // the byte offset in the header
	Size     int       // the field's size in bytes
	Kind     fieldKind // how its bytes are read
	Reserved bool      // the field is reserved or padding and must be zero
}

// End returns the offset just past f.
func (f headerField) End() int { return f.Offset + f.Size }

// fieldKind says how the bytes of a header field are read. Every integer is
// little-endian.
type fieldKind uint8

// The kinds of header field.
const (
	kindUint      fieldKind = iota + 1 // an unsigned integer of 1, 4, 8 or 16 bytes
	kindCommand                        // a Command (u8)
	kindOperation                      // an Operation (u8)
	kindStatus                         // a Status (u32)
	kindCode                           // a Code (u32)
	kindVersion                        // a packed Version (u32)
	kindReason                         // an EvictionReason (u8)
	kindBytes                          // plain bytes (reserved areas and padding)
)

// String names k, and prints unknown values as "UNKNOWN_FIELD_KIND_N".
func (k fieldKind) String() string {
	names := [...]string{"", "uint", "command", "operation", "status", "code", "version", "reason", "bytes"}
	if k == 0 || int(k) >= len(names) {
		return "UNKNOWN_FIELD_KIND_" + itoa(uint64(k))
	}
	return names[k]
}

// headerLayout returns the fields of a Request, Reply or Eviction header in
// wire order: the common prologue, then the kind-specific part, tiling bytes
// 0..256 with no gap and no overlap. Any other command has no layout (nil).
// The slice is the caller's to keep or change.
func headerLayout(c Command) []headerField {
	var own []headerField
	switch c {
	case CommandRequest:
		own = requestFields[:]
	case CommandReply:
		own = replyFields[:]
	case CommandEviction:
		own = evictionFields[:]
	default:
		return nil
	}
	return append(append(make([]headerField, 0, len(prologueFields)+len(own)), prologueFields[:]...), own...)
}

// requestCodeField returns the command code of a NonReplicated request. It
// is not part of headerLayout because it overlays the first bytes of the
// Request's reserved area, and only for operation NonReplicated; for every
// other operation those bytes are reserved like the rest.
func requestCodeField() headerField {
	return headerField{"code", offReqCode, sizeReqCode, kindCode, false}
}

// The tables of WIRE.md section 5, one declaration per header as in
// TigerBeetle's message_header.zig, built on the off*/size* constants the
// decoders use. Read-only: headerLayout hands out copies.
var (
	prologueFields = [...]headerField{
		{"checksum", offChecksum, sizeChecksum, kindUint, false},
		{"checksum_body", offChecksumBody, sizeChecksumBody, kindUint, false},
		{"cluster", offCluster, sizeCluster, kindUint, false},
		{"size", offSize, sizeSize, kindUint, false},
		{"view", offView, sizeView, kindUint, false},
		{"release", offRelease, sizeRelease, kindUint, false},
		{"command", offCommand, sizeCommand, kindCommand, false},
		{"replica", offReplica, sizeReplica, kindUint, false},
		{"reserved_frame", offReservedFrame, sizeReservedFrame, kindBytes, true},
	}
	requestFields = [...]headerField{
		{"client", offReqClient, sizeReqClient, kindUint, false},
		{"request_checksum", offReqRequestChecksum, sizeReqRequestChecksum, kindUint, false},
		{"timestamp", offReqTimestamp, sizeReqTimestamp, kindUint, false},
		{"request", offReqRequest, sizeReqRequest, kindUint, false},
		{"operation", offReqOperation, sizeReqOperation, kindOperation, false},
		{"operation_padding", offReqOperationPad, sizeReqOperationPad, kindBytes, true},
		{"session", offReqSession, sizeReqSession, kindUint, false},
		{"user_id", offReqUserID, sizeReqUserID, kindUint, false},
		{"reserved", offReqReserved, sizeReqReserved, kindBytes, true},
	}
	replyFields = [...]headerField{
		{"request_checksum", offRepRequestChecksum, sizeRepRequestChecksum, kindUint, false},
		{"context", offRepContext, sizeRepContext, kindUint, false},
		{"client", offRepClient, sizeRepClient, kindUint, false},
		{"op", offRepOp, sizeRepOp, kindUint, false},
		{"commit", offRepCommit, sizeRepCommit, kindUint, false},
		{"timestamp", offRepTimestamp, sizeRepTimestamp, kindUint, false},
		{"request", offRepRequest, sizeRepRequest, kindUint, false},
		{"operation", offRepOperation, sizeRepOperation, kindOperation, false},
		{"operation_padding", offRepOperationPad, sizeRepOperationPad, kindBytes, true},
		{"status", offRepStatus, sizeRepStatus, kindStatus, false},
		{"reserved", offRepReserved, sizeRepReserved, kindBytes, true},
	}
	evictionFields = [...]headerField{
		{"client", offEvClient, sizeEvClient, kindUint, false},
		{"server_protocol_version", offEvWindowMax, sizeEvWindowMax, kindVersion, false},
		{"server_protocol_version_min", offEvWindowMin, sizeEvWindowMin, kindVersion, false},
		{"reserved", offEvReserved, sizeEvReserved, kindBytes, true},
		{"reason", offEvReason, sizeEvReason, kindReason, false},
	}
)

// TestWorkbenchLayoutIsTheCodecs holds internal/layout, the table the
// workbench walks headers with, to this table, built on the offset
// constants the decoders use (which TestLayoutMatchesWire holds to
// WIRE.md): the workbench keeps no copy that could drift.
func TestWorkbenchLayoutIsTheCodecs(t *testing.T) {
	same := func(what string, got layout.Field, want headerField) {
		t.Helper()
		if got.Name != want.Name || got.Offset != want.Offset || got.Size != want.Size ||
			got.Kind.String() != want.Kind.String() || got.Reserved != want.Reserved {
			t.Errorf("%s: internal/layout has %+v, codec %+v", what, got, want)
		}
	}
	for _, c := range []Command{CommandRequest, CommandReply, CommandEviction, CommandReserved, Command(48)} {
		got, want := layout.Header(c), headerLayout(c)
		if len(got) != len(want) {
			t.Fatalf("%v: internal/layout has %d fields, codec %d", c, len(got), len(want))
		}
		for i := range got {
			same(c.String(), got[i], want[i])
		}
	}
	same("request code", layout.RequestCode(), requestCodeField())
}
