package refcodec

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// unnamed holds the bytes of a header that its struct has no field for:
// the command byte, which the decoder checks and the encoder sets, and the
// reserved areas and padding, which must be zero.
type unnamed struct {
	command  uint8
	frame    [66]byte // reserved_frame
	padding  [7]byte  // operation_padding of a Request or Reply
	reserved []byte   // the reserved area after the kind's own fields
}

// Each header's layout is written once, as the list of its fields in wire
// order (pointers, for binary.Read to fill and binary.Write to write): the
// offsets follow from the fields' sizes, independently of any offset table,
// and a test holds every list to 256 bytes.

// prologue lists bytes 0..128 of every header: checksum, checksum_body,
// cluster, size, view, release, command, replica, reserved_frame.
func prologue(sum, sumBody, cluster *Uint128, size, view, release *uint32, replica *uint8, u *unnamed) []any {
	return []any{sum, sumBody, cluster, size, view, release, &u.command, replica, &u.frame}
}

// requestFields lists a Request header. The code of a NonReplicated
// request is bytes 196..200, the start of the reserved area of any other.
func requestFields(h *RequestHeader, u *unnamed) []any {
	u.reserved = make([]byte, 56)
	return append(prologue(&h.Checksum, &h.ChecksumBody, &h.Cluster, &h.Size, &h.View, &h.Release, &h.Replica, u),
		&h.Client, &h.RequestChecksum, &h.Timestamp, &h.Request, &h.Operation, &u.padding,
		&h.Session, &h.UserID, &h.Code, u.reserved)
}

// replyFields lists a Reply header.
func replyFields(h *ReplyHeader, u *unnamed) []any {
	u.reserved = make([]byte, 36)
	return append(prologue(&h.Checksum, &h.ChecksumBody, &h.Cluster, &h.Size, &h.View, &h.Release, &h.Replica, u),
		&h.RequestChecksum, &h.Context, &h.Client, &h.Op, &h.Commit, &h.Timestamp, &h.Request,
		&h.Operation, &u.padding, &h.Status, u.reserved)
}

// evictionFields lists an Eviction header, whose size the struct leaves
// out (it is always 256) and whose window is written max first.
func evictionFields(e *Eviction, size *uint32, u *unnamed) []any {
	u.reserved = make([]byte, 103)
	return append(prologue(&e.Checksum, &e.ChecksumBody, &e.Cluster, size, &e.View, &e.Release, &e.Replica, u),
		&e.Client, &e.Window.Max, &e.Window.Min, u.reserved, &e.Reason)
}

// readHeader fills fields from the first 256 bytes of src, or fails with
// Truncated, then wants command at byte 60, else Command.
func readHeader(src []byte, command uint8, u *unnamed, fields []any) error {
	if len(src) < HeaderSize {
		return Truncated
	}
	r := bytes.NewReader(src[:HeaderSize])
	for _, f := range fields {
		if err := binary.Read(r, binary.LittleEndian, f); err != nil {
			return Truncated
		}
	}
	if u.command != command {
		return Command
	}
	return nil
}

// zero reports whether every reserved and padding byte read into u is zero.
func (u *unnamed) zero() bool {
	for _, b := range slices.Concat(u.frame[:], u.padding[:], u.reserved) {
		if b != 0 {
			return false
		}
	}
	return true
}

// writeHeader encodes fields into 256 bytes.
func writeHeader(fields []any) []byte {
	var w bytes.Buffer
	for _, f := range fields {
		_ = binary.Write(&w, binary.LittleEndian, f)
	}
	return w.Bytes()
}

// KnownOperation reports whether op is a known operation value: 0 Reserved,
// 1 Register, 2 NonReplicated, 3 Logout, 64..68 internal, 128..149 metadata,
// 160..162 partition.
func KnownOperation(op uint8) bool {
	return op <= 3 || (op >= 64 && op <= 68) || (op >= 128 && op <= 149) || (op >= 160 && op <= 162)
}

// sizeInRange reports whether size is a usable frame size, 256..64 MiB.
func sizeInRange(size uint32) bool {
	return size >= HeaderSize && size <= MaxFrameSize
}

// checkRequestFields applies the Request header field rules in order:
// size, client, operation, then the operation's session/request/code rule.
func checkRequestFields(h RequestHeader) error {
	if !sizeInRange(h.Size) {
		return Size
	}
	if h.Client.IsZero() {
		return Field
	}
	if h.Operation == OpReserved || !KnownOperation(h.Operation) {
		return Field
	}
	switch h.Operation {
	case OpRegister:
		if h.Session != 0 || h.Request != 0 {
			return Field
		}
	case OpNonReplicated:
		if h.Code == 0 {
			return Field
		}
	default:
		if h.Session == 0 || h.Request == 0 {
			return Field
		}
	}
	return nil
}

// DecodeRequestHeader decodes a Request header from the first 256 bytes of
// src (the rest is ignored). Checks, in order: fewer than 256 bytes
// (Truncated); byte 60 != 5 (Command); size outside 256..64 MiB (Size);
// client 0 (Field); operation 0 or unknown (Field); Register with a session
// or with a request number, NonReplicated with code 0, any other operation
// without a session or without a request number (Field); then non-zero
// reserved bytes: 62..128, 177..184, 196..256 (200..256 for NonReplicated)
// (Reserved).
func DecodeRequestHeader(src []byte) (RequestHeader, error) {
	var h RequestHeader
	var u unnamed
	if err := readHeader(src, CommandRequest, &u, requestFields(&h, &u)); err != nil {
		return RequestHeader{}, err
	}
	if err := checkRequestFields(h); err != nil {
		return RequestHeader{}, err
	}
	codeReserved := h.Operation != OpNonReplicated && h.Code != 0
	if codeReserved || !u.zero() {
		return RequestHeader{}, Reserved
	}
	return h, nil
}

// EncodeRequestHeader validates h with the DecodeRequestHeader field rules
// in the same order, then rejects a non-zero Code on an operation other than
// NonReplicated (Reserved), and returns the 256-byte header with command 5.
func EncodeRequestHeader(h RequestHeader) ([]byte, error) {
	if err := checkRequestFields(h); err != nil {
		return nil, err
	}
	if h.Operation != OpNonReplicated && h.Code != 0 {
		return nil, Reserved
	}
	u := unnamed{command: CommandRequest}
	return writeHeader(requestFields(&h, &u)), nil
}

// checkReplyFields applies the Reply header field rules in order: size,
// operation, then a denial (status != 0) must have size 256.
func checkReplyFields(h ReplyHeader) error {
	if !sizeInRange(h.Size) {
		return Size
	}
	if !KnownOperation(h.Operation) {
		return Field
	}
	if h.Status != 0 && h.Size != HeaderSize {
		return Field // the status rule: a usable size, but a denial's is 256
	}
	return nil
}

// DecodeReplyHeader decodes a Reply header from the first 256 bytes of src
// (the rest is ignored). Checks, in order: fewer than 256 bytes (Truncated);
// byte 60 != 8 (Command); size outside 256..64 MiB (Size); unknown operation
// (Field); status != 0 with size != 256 (Field); then non-zero reserved bytes:
// 62..128, 209..216, 220..256 (Reserved).
func DecodeReplyHeader(src []byte) (ReplyHeader, error) {
	var h ReplyHeader
	var u unnamed
	if err := readHeader(src, CommandReply, &u, replyFields(&h, &u)); err != nil {
		return ReplyHeader{}, err
	}
	if err := checkReplyFields(h); err != nil {
		return ReplyHeader{}, err
	}
	if !u.zero() {
		return ReplyHeader{}, Reserved
	}
	return h, nil
}

// EncodeReplyHeader validates h with the DecodeReplyHeader field rules in
// the same order and returns the 256-byte header with command 8.
func EncodeReplyHeader(h ReplyHeader) ([]byte, error) {
	if err := checkReplyFields(h); err != nil {
		return nil, err
	}
	u := unnamed{command: CommandReply}
	return writeHeader(replyFields(&h, &u)), nil
}

// checkEvictionReason applies the eviction reason and window rules in order.
func checkEvictionReason(reason uint8, w Window) error {
	if reason < 1 || reason > 15 { // the known reasons
		return Reason
	}
	ok := w.Min == 0 && w.Max == 0 // only reason 14 carries a window
	if reason == ReasonIncompatibleProtocol {
		ok = WindowValid(w)
	}
	if !ok {
		return BadWindow
	}
	return nil
}

// DecodeEviction decodes an Eviction header from the first 256 bytes of src
// (the rest is ignored). Checks, in order: fewer than 256 bytes (Truncated);
// byte 60 != 13 (Command); size != 256 (Size); client 0 (Field); non-zero
// bytes in 62..128 or in 152..255 (Reserved); reason 0 or above 15
// (Reason); reason 14 with a window that is not 1 <= min <= max, or any
// other reason with a non-zero window (BadWindow).
func DecodeEviction(src []byte) (Eviction, error) {
	var e Eviction
	var size uint32
	var u unnamed
	if err := readHeader(src, CommandEviction, &u, evictionFields(&e, &size, &u)); err != nil {
		return Eviction{}, err
	}
	if size != HeaderSize {
		return Eviction{}, Size
	}
	if e.Client.IsZero() {
		return Eviction{}, Field
	}
	if !u.zero() {
		return Eviction{}, Reserved
	}
	if err := checkEvictionReason(e.Reason, e.Window); err != nil {
		return Eviction{}, err
	}
	return e, nil
}

// EncodeEviction validates e (client 0 is Field; then the reason and window
// rules of DecodeEviction) and returns the 256-byte header with command 13
// and size 256. The window's CountPatch is not on the wire.
func EncodeEviction(e Eviction) ([]byte, error) {
	if e.Client.IsZero() {
		return nil, Field
	}
	if err := checkEvictionReason(e.Reason, e.Window); err != nil {
		return nil, err
	}
	size := uint32(HeaderSize)
	u := unnamed{command: CommandEviction}
	return writeHeader(evictionFields(&e, &size, &u)), nil
}

// PeekCommand returns the command byte (offset 60) of the header at the
// start of src, or Truncated if src is shorter than 256 bytes.
func PeekCommand(src []byte) (uint8, error) {
	if len(src) < HeaderSize {
		return 0, Truncated
	}
	return src[60], nil
}

// FrameSize returns the frame size (u32 at offset 48, header included) of
// the header at the start of src: Truncated if src is shorter than 256
// bytes, Size if the size is outside 256..64 MiB.
func FrameSize(src []byte) (int, error) {
	if len(src) < HeaderSize {
		return 0, Truncated
	}
	size := binary.LittleEndian.Uint32(src[48:52])
	if !sizeInRange(size) {
		return 0, Size
	}
	return int(size), nil
}

// SplitResult splits a committed reply body into its result section
// [count u32][count x {index u32, result u32}] and the payload after it.
//
// Fewer than 4 bytes, or fewer than 4+8*count, is Truncated. With count 0
// the payload is everything after the count and code is 0. Otherwise code is
// the first entry's result: 0 means success and the payload is everything
// after the section; non-zero is returned as code with a nil payload and a
// nil error. The payload aliases body; an empty payload is returned as nil.
func SplitResult(body []byte) (payload []byte, code uint32, err error) {
	if len(body) < 4 {
		return nil, 0, Truncated
	}
	count := binary.LittleEndian.Uint32(body[0:4])
	need := 4 + 8*uint64(count)
	if uint64(len(body)) < need {
		return nil, 0, Truncated
	}
	if count > 0 {
		code = binary.LittleEndian.Uint32(body[8:12])
		if code != 0 {
			return nil, code, nil
		}
	}
	payload = body[need:]
	if len(payload) == 0 {
		payload = nil
	}
	return payload, 0, nil
}
