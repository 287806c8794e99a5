package codec

// HeaderField is one field of a 256-byte header as data: its name (the name
// errors use), where it sits, how to read it, and whether it is reserved
// (must be zero). Tools that walk a header (dumps, mutators, tests) read
// these tables instead of keeping their own copy of WIRE.md section 5.
type HeaderField struct {
	Name     string    // the wire name, as errors name the field
	Offset   int       // the byte offset in the header
	Size     int       // the field's size in bytes
	Kind     FieldKind // how its bytes are read
	Reserved bool      // the field is reserved or padding and must be zero
}

// End returns the offset just past f.
func (f HeaderField) End() int { return f.Offset + f.Size }

// FieldKind says how the bytes of a header field are read. Every integer is
// little-endian.
type FieldKind uint8

// The kinds of header field.
const (
	FieldUint      FieldKind = iota + 1 // an unsigned integer of 1, 4, 8 or 16 bytes
	FieldCommand                        // a Command (u8)
	FieldOperation                      // an Operation (u8)
	FieldStatus                         // a Status (u32)
	FieldCode                           // a Code (u32)
	FieldVersion                        // a packed Version (u32)
	FieldReason                         // an EvictionReason (u8)
	FieldBytes                          // plain bytes (reserved areas and padding)
)

// String names k, and prints unknown values as "UNKNOWN_FIELD_KIND_N".
func (k FieldKind) String() string {
	names := [...]string{"", "uint", "command", "operation", "status", "code", "version", "reason", "bytes"}
	if k == 0 || int(k) >= len(names) {
		return "UNKNOWN_FIELD_KIND_" + itoa(uint64(k))
	}
	return names[k]
}

// HeaderLayout returns the fields of a Request, Reply or Eviction header in
// wire order: the common prologue, then the kind-specific part, tiling bytes
// 0..256 with no gap and no overlap. Any other command has no layout (nil).
// The slice is the caller's to keep or change.
func HeaderLayout(c Command) []HeaderField {
	var own []HeaderField
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
	return append(append(make([]HeaderField, 0, len(prologueFields)+len(own)), prologueFields[:]...), own...)
}

// RequestCodeField returns the command code of a NonReplicated request. It
// is not part of HeaderLayout because it overlays the first bytes of the
// Request's reserved area, and only for operation NonReplicated; for every
// other operation those bytes are reserved like the rest.
func RequestCodeField() HeaderField {
	return HeaderField{"code", offReqCode, sizeReqCode, FieldCode, false}
}

// The tables of WIRE.md section 5, one declaration per header as in
// TigerBeetle's message_header.zig, built on the off*/size* constants the
// decoders use. Read-only: HeaderLayout hands out copies.
var (
	prologueFields = [...]HeaderField{
		{"checksum", offChecksum, sizeChecksum, FieldUint, false},
		{"checksum_body", offChecksumBody, sizeChecksumBody, FieldUint, false},
		{"cluster", offCluster, sizeCluster, FieldUint, false},
		{"size", offSize, sizeSize, FieldUint, false},
		{"view", offView, sizeView, FieldUint, false},
		{"release", offRelease, sizeRelease, FieldUint, false},
		{"command", offCommand, sizeCommand, FieldCommand, false},
		{"replica", offReplica, sizeReplica, FieldUint, false},
		{"reserved_frame", offReservedFrame, sizeReservedFrame, FieldBytes, true},
	}
	requestFields = [...]HeaderField{
		{"client", offReqClient, sizeReqClient, FieldUint, false},
		{"request_checksum", offReqRequestChecksum, sizeReqRequestChecksum, FieldUint, false},
		{"timestamp", offReqTimestamp, sizeReqTimestamp, FieldUint, false},
		{"request", offReqRequest, sizeReqRequest, FieldUint, false},
		{"operation", offReqOperation, sizeReqOperation, FieldOperation, false},
		{"operation_padding", offReqOperationPad, sizeReqOperationPad, FieldBytes, true},
		{"session", offReqSession, sizeReqSession, FieldUint, false},
		{"user_id", offReqUserID, sizeReqUserID, FieldUint, false},
		{"reserved", offReqReserved, sizeReqReserved, FieldBytes, true},
	}
	replyFields = [...]HeaderField{
		{"request_checksum", offRepRequestChecksum, sizeRepRequestChecksum, FieldUint, false},
		{"context", offRepContext, sizeRepContext, FieldUint, false},
		{"client", offRepClient, sizeRepClient, FieldUint, false},
		{"op", offRepOp, sizeRepOp, FieldUint, false},
		{"commit", offRepCommit, sizeRepCommit, FieldUint, false},
		{"timestamp", offRepTimestamp, sizeRepTimestamp, FieldUint, false},
		{"request", offRepRequest, sizeRepRequest, FieldUint, false},
		{"operation", offRepOperation, sizeRepOperation, FieldOperation, false},
		{"operation_padding", offRepOperationPad, sizeRepOperationPad, FieldBytes, true},
		{"status", offRepStatus, sizeRepStatus, FieldStatus, false},
		{"reserved", offRepReserved, sizeRepReserved, FieldBytes, true},
	}
	evictionFields = [...]HeaderField{
		{"client", offEvClient, sizeEvClient, FieldUint, false},
		{"server_protocol_version", offEvWindowMax, sizeEvWindowMax, FieldVersion, false},
		{"server_protocol_version_min", offEvWindowMin, sizeEvWindowMin, FieldVersion, false},
		{"reserved", offEvReserved, sizeEvReserved, FieldBytes, true},
		{"reason", offEvReason, sizeEvReason, FieldReason, false},
	}
)
