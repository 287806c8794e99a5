package refcodec

import (
	"bytes"
	"encoding/binary"
)

// prologue is bytes 0..128 of every header, in wire order.
type prologue struct {
	Checksum      Uint128
	ChecksumBody  Uint128
	Cluster       Uint128
	Size          uint32
	View          uint32
	Release       uint32
	Command       uint8
	Replica       uint8
	ReservedFrame [66]byte
}

// rawRequest is a whole Request header, in wire order.
type rawRequest struct {
	P               prologue
	Client          Uint128
	RequestChecksum Uint128
	Timestamp       uint64
	Request         uint64
	Operation       uint8
	Padding         [7]byte
	Session         uint64
	UserID          uint32
	Reserved        [60]byte // bytes 196..256; 196..200 is the code for NonReplicated
}

// rawReply is a whole Reply header, in wire order.
type rawReply struct {
	P               prologue
	RequestChecksum Uint128
	Context         Uint128
	Client          Uint128
	Op              uint64
	Commit          uint64
	Timestamp       uint64
	Request         uint64
	Operation       uint8
	Padding         [7]byte
	Status          uint32
	Reserved        [36]byte
}

// rawEviction is a whole Eviction header, in wire order.
type rawEviction struct {
	P         prologue
	Client    Uint128
	WindowMax uint32
	WindowMin uint32
	Reserved  [103]byte
	Reason    uint8
}

// allZero reports whether every byte of b is zero.
func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// readHeader reads the first 256 bytes of src into raw (a pointer to one of
// the raw header structs), or fails with Truncated.
func readHeader(src []byte, raw any) error {
	if len(src) < HeaderSize {
		return Truncated
	}
	if err := binary.Read(bytes.NewReader(src[:HeaderSize]), binary.LittleEndian, raw); err != nil {
		return Truncated
	}
	return nil
}

// writeHeader encodes raw (one of the raw header structs) into 256 bytes.
func writeHeader(raw any) []byte {
	var w bytes.Buffer
	_ = binary.Write(&w, binary.LittleEndian, raw)
	return w.Bytes()
}

// KnownOperation reports whether op is a known operation value: 0 Reserved,
// 1 Register, 2 NonReplicated, 3 Logout, 64..68 internal, 128..149 metadata,
// 160..162 partition.
func KnownOperation(op uint8) bool {
	switch {
	case op <= 3:
		return true
	case op >= 64 && op <= 68:
		return true
	case op >= 128 && op <= 149:
		return true
	case op >= 160 && op <= 162:
		return true
	}
	return false
}

// KnownReason reports whether r is a known eviction reason, 1..15.
func KnownReason(r uint8) bool {
	return r >= 1 && r <= 15
}

// sizeInRange reports whether size is a usable frame size, 256..64 MiB.
func sizeInRange(size uint32) bool {
	return size >= HeaderSize && size <= MaxFrameSize
}

// checkRequestFields applies the Request header field rules in order:
// size, client, operation, then the operation's session/request/code rule.
func checkRequestFields(size uint32, client Uint128, op uint8, session, request uint64, code uint32) error {
	if !sizeInRange(size) {
		return Size
	}
	if client.IsZero() {
		return Field
	}
	if op == OpReserved || !KnownOperation(op) {
		return Field
	}
	switch op {
	case OpRegister:
		if session != 0 {
			return Field
		}
		if request != 0 {
			return Field
		}
	case OpNonReplicated:
		if code == 0 {
			return Field
		}
	default:
		if session == 0 {
			return Field
		}
		if request == 0 {
			return Field
		}
	}
	return nil
}

// DecodeRequestHeader decodes a Request header from the first 256 bytes of
// src (the rest is ignored). Checks, in order: fewer than 256 bytes
// (Truncated); byte 60 != 5 (Command); size outside 256..64 MiB (Size);
// client 0 (Field); operation 0 or unknown (Field); Register with a session
// then with a request number, NonReplicated with code 0, any other operation
// without a session then without a request number (Field); then non-zero
// reserved bytes in ascending order: 62..128, 177..184, 196..256 (200..256
// for NonReplicated) (Reserved).
func DecodeRequestHeader(src []byte) (RequestHeader, error) {
	var raw rawRequest
	if err := readHeader(src, &raw); err != nil {
		return RequestHeader{}, err
	}
	if raw.P.Command != CommandRequest {
		return RequestHeader{}, Command
	}
	code := binary.LittleEndian.Uint32(raw.Reserved[0:4])
	if err := checkRequestFields(raw.P.Size, raw.Client, raw.Operation, raw.Session, raw.Request, code); err != nil {
		return RequestHeader{}, err
	}
	if !allZero(raw.P.ReservedFrame[:]) {
		return RequestHeader{}, Reserved
	}
	if !allZero(raw.Padding[:]) {
		return RequestHeader{}, Reserved
	}
	reserved := raw.Reserved[:]
	if raw.Operation == OpNonReplicated {
		reserved = raw.Reserved[4:]
	} else {
		code = 0
	}
	if !allZero(reserved) {
		return RequestHeader{}, Reserved
	}
	return RequestHeader{
		Checksum:        raw.P.Checksum,
		ChecksumBody:    raw.P.ChecksumBody,
		Cluster:         raw.P.Cluster,
		Size:            raw.P.Size,
		View:            raw.P.View,
		Release:         raw.P.Release,
		Replica:         raw.P.Replica,
		Client:          raw.Client,
		RequestChecksum: raw.RequestChecksum,
		Timestamp:       raw.Timestamp,
		Request:         raw.Request,
		Operation:       raw.Operation,
		Session:         raw.Session,
		UserID:          raw.UserID,
		Code:            code,
	}, nil
}

// EncodeRequestHeader validates h with the DecodeRequestHeader field rules
// in the same order, then rejects a non-zero Code on an operation other than
// NonReplicated (Reserved), and returns the 256-byte header with command 5.
func EncodeRequestHeader(h RequestHeader) ([]byte, error) {
	if err := checkRequestFields(h.Size, h.Client, h.Operation, h.Session, h.Request, h.Code); err != nil {
		return nil, err
	}
	if h.Operation != OpNonReplicated && h.Code != 0 {
		return nil, Reserved
	}
	raw := rawRequest{
		P: prologue{
			Checksum:     h.Checksum,
			ChecksumBody: h.ChecksumBody,
			Cluster:      h.Cluster,
			Size:         h.Size,
			View:         h.View,
			Release:      h.Release,
			Command:      CommandRequest,
			Replica:      h.Replica,
		},
		Client:          h.Client,
		RequestChecksum: h.RequestChecksum,
		Timestamp:       h.Timestamp,
		Request:         h.Request,
		Operation:       h.Operation,
		Session:         h.Session,
		UserID:          h.UserID,
	}
	binary.LittleEndian.PutUint32(raw.Reserved[0:4], h.Code)
	return writeHeader(&raw), nil
}

// checkReplyFields applies the Reply header field rules in order: size,
// operation, then a denial (status != 0) must have size 256.
func checkReplyFields(size uint32, op uint8, status uint32) error {
	if !sizeInRange(size) {
		return Size
	}
	if !KnownOperation(op) {
		return Field
	}
	if status != 0 && size != HeaderSize {
		return Field // the status rule: a usable size, but a denial's is 256
	}
	return nil
}

// DecodeReplyHeader decodes a Reply header from the first 256 bytes of src
// (the rest is ignored). Checks, in order: fewer than 256 bytes (Truncated);
// byte 60 != 8 (Command); size outside 256..64 MiB (Size); unknown operation
// (Field); status != 0 with size != 256 (Field); then non-zero reserved bytes
// in ascending order: 62..128, 209..216, 220..256 (Reserved).
func DecodeReplyHeader(src []byte) (ReplyHeader, error) {
	var raw rawReply
	if err := readHeader(src, &raw); err != nil {
		return ReplyHeader{}, err
	}
	if raw.P.Command != CommandReply {
		return ReplyHeader{}, Command
	}
	if err := checkReplyFields(raw.P.Size, raw.Operation, raw.Status); err != nil {
		return ReplyHeader{}, err
	}
	if !allZero(raw.P.ReservedFrame[:]) {
		return ReplyHeader{}, Reserved
	}
	if !allZero(raw.Padding[:]) {
		return ReplyHeader{}, Reserved
	}
	if !allZero(raw.Reserved[:]) {
		return ReplyHeader{}, Reserved
	}
	return ReplyHeader{
		Checksum:        raw.P.Checksum,
		ChecksumBody:    raw.P.ChecksumBody,
		Cluster:         raw.P.Cluster,
		Size:            raw.P.Size,
		View:            raw.P.View,
		Release:         raw.P.Release,
		Replica:         raw.P.Replica,
		RequestChecksum: raw.RequestChecksum,
		Context:         raw.Context,
		Client:          raw.Client,
		Op:              raw.Op,
		Commit:          raw.Commit,
		Timestamp:       raw.Timestamp,
		Request:         raw.Request,
		Operation:       raw.Operation,
		Status:          raw.Status,
	}, nil
}

// EncodeReplyHeader validates h with the DecodeReplyHeader field rules in
// the same order and returns the 256-byte header with command 8.
func EncodeReplyHeader(h ReplyHeader) ([]byte, error) {
	if err := checkReplyFields(h.Size, h.Operation, h.Status); err != nil {
		return nil, err
	}
	raw := rawReply{
		P: prologue{
			Checksum:     h.Checksum,
			ChecksumBody: h.ChecksumBody,
			Cluster:      h.Cluster,
			Size:         h.Size,
			View:         h.View,
			Release:      h.Release,
			Command:      CommandReply,
			Replica:      h.Replica,
		},
		RequestChecksum: h.RequestChecksum,
		Context:         h.Context,
		Client:          h.Client,
		Op:              h.Op,
		Commit:          h.Commit,
		Timestamp:       h.Timestamp,
		Request:         h.Request,
		Operation:       h.Operation,
		Status:          h.Status,
	}
	return writeHeader(&raw), nil
}

// checkEvictionReason applies the eviction reason and window rules in order.
func checkEvictionReason(reason uint8, w Window) error {
	if !KnownReason(reason) {
		return Reason
	}
	if reason == ReasonIncompatibleProtocol {
		if !WindowValid(w) {
			return BadWindow
		}
		return nil
	}
	if w.Min != 0 || w.Max != 0 {
		return BadWindow
	}
	return nil
}

// DecodeEviction decodes an Eviction header from the first 256 bytes of src
// (the rest is ignored). Checks, in order: fewer than 256 bytes (Truncated);
// byte 60 != 13 (Command); size != 256 (Size); client 0 (Field); non-zero
// bytes in 62..128 then in 152..255 (Reserved); reason 0 or above 15
// (Reason); reason 14 with a window that is not 1 <= min <= max, or any
// other reason with a non-zero window (BadWindow).
func DecodeEviction(src []byte) (Eviction, error) {
	var raw rawEviction
	if err := readHeader(src, &raw); err != nil {
		return Eviction{}, err
	}
	if raw.P.Command != CommandEviction {
		return Eviction{}, Command
	}
	if raw.P.Size != HeaderSize {
		return Eviction{}, Size
	}
	if raw.Client.IsZero() {
		return Eviction{}, Field
	}
	if !allZero(raw.P.ReservedFrame[:]) {
		return Eviction{}, Reserved
	}
	if !allZero(raw.Reserved[:]) {
		return Eviction{}, Reserved
	}
	w := Window{Min: raw.WindowMin, Max: raw.WindowMax}
	if err := checkEvictionReason(raw.Reason, w); err != nil {
		return Eviction{}, err
	}
	return Eviction{
		Checksum:     raw.P.Checksum,
		ChecksumBody: raw.P.ChecksumBody,
		Cluster:      raw.P.Cluster,
		View:         raw.P.View,
		Release:      raw.P.Release,
		Replica:      raw.P.Replica,
		Client:       raw.Client,
		Window:       w,
		Reason:       raw.Reason,
	}, nil
}

// EncodeEviction validates e (client 0 is Field; then the reason and window
// rules of DecodeEviction) and returns the 256-byte header with command 13
// and size 256.
func EncodeEviction(e Eviction) ([]byte, error) {
	if e.Client.IsZero() {
		return nil, Field
	}
	if err := checkEvictionReason(e.Reason, e.Window); err != nil {
		return nil, err
	}
	raw := rawEviction{
		P: prologue{
			Checksum:     e.Checksum,
			ChecksumBody: e.ChecksumBody,
			Cluster:      e.Cluster,
			Size:         HeaderSize,
			View:         e.View,
			Release:      e.Release,
			Command:      CommandEviction,
			Replica:      e.Replica,
		},
		Client:    e.Client,
		WindowMax: e.Window.Max,
		WindowMin: e.Window.Min,
		Reason:    e.Reason,
	}
	return writeHeader(&raw), nil
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
