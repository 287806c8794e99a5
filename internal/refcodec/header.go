package refcodec

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// unnamed holds the bytes of a header that its struct has no field for:
// the command byte, which the decoder checks and the encoder sets, the size
// of an Eviction, which is always 256, and the reserved areas and padding,
// which must be zero.
type unnamed struct {
	command  uint8
	size     uint32   // an Eviction's
	frame    [66]byte // reserved_frame
	padding  [7]byte  // operation_padding of a Request or Reply
	reserved []byte   // the reserved area after the kind's own fields
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

// rule is one rule of a header: ok says whether the header keeps it, class
// is the error when it does not.
type rule struct {
	ok    bool
	class Class
}

// kind is one header kind: its command byte, its layout and its rules.
//
// Each layout is written once, as the list of the kind's fields in wire
// order (pointers, for binary.Read to fill and binary.Write to write): the
// offsets follow from the fields' sizes, independently of any offset table,
// and a test holds every list to 256 bytes. The rules are listed in the
// order WIRE.md section 5 checks them, and the first broken one is the
// error. The decoder and the encoder check the same list; for the encoder,
// which writes the command, an Eviction's size and every reserved byte
// itself, the rules on those always hold.
type kind[T any] struct {
	command uint8
	fields  func(*T, *unnamed) []any
	rules   func(*T, *unnamed) []rule
}

// decode fills a T from the first 256 bytes of src, or fails with
// Truncated, wants k's command at byte 60, else Command, then returns the
// first broken rule.
func (k kind[T]) decode(src []byte) (T, error) {
	var h, zero T
	var u unnamed
	fields := k.fields(&h, &u)
	if len(src) < HeaderSize {
		return zero, Truncated
	}
	r := bytes.NewReader(src[:HeaderSize])
	for _, f := range fields {
		if err := binary.Read(r, binary.LittleEndian, f); err != nil {
			return zero, Truncated
		}
	}
	if u.command != k.command {
		return zero, Command
	}
	if err := firstBroken(k.rules(&h, &u)); err != nil {
		return zero, err
	}
	return h, nil
}

// encode checks h with the decoder's rules and returns its 256 bytes.
func (k kind[T]) encode(h T) ([]byte, error) {
	u := unnamed{command: k.command, size: HeaderSize}
	fields := k.fields(&h, &u)
	if err := firstBroken(k.rules(&h, &u)); err != nil {
		return nil, err
	}
	var w bytes.Buffer
	for _, f := range fields {
		_ = binary.Write(&w, binary.LittleEndian, f)
	}
	return w.Bytes(), nil
}

// firstBroken returns the class of the first rule not kept, or nil.
func firstBroken(rules []rule) error {
	for _, r := range rules {
		if !r.ok {
			return r.class
		}
	}
	return nil
}

// prologue lists bytes 0..128 of every header: checksum, checksum_body,
// cluster, size, view, release, command, replica, reserved_frame.
func prologue(sum, sumBody, cluster *Uint128, size, view, release *uint32, replica *uint8, u *unnamed) []any {
	return []any{sum, sumBody, cluster, size, view, release, &u.command, replica, &u.frame}
}

// request is the Request kind. The code of a NonReplicated request is bytes
// 196..200, the start of the reserved area of any other.
var request = kind[RequestHeader]{
	command: CommandRequest,
	fields: func(h *RequestHeader, u *unnamed) []any {
		u.reserved = make([]byte, 56)
		return append(prologue(&h.Checksum, &h.ChecksumBody, &h.Cluster, &h.Size, &h.View, &h.Release, &h.Replica, u),
			&h.Client, &h.RequestChecksum, &h.Timestamp, &h.Request, &h.Operation, &u.padding,
			&h.Session, &h.UserID, &h.Code, u.reserved)
	},
	// WIRE.md section 5, Request: the header rules in the order written
	// there, then the reserved bytes 62..128, 177..184 and 196..256.
	rules: func(h *RequestHeader, u *unnamed) []rule {
		op := h.Operation
		other := op != OpRegister && op != OpNonReplicated
		return []rule{
			{sizeInRange(h.Size), Size},
			{!h.Client.IsZero(), Field},
			{op != OpReserved && KnownOperation(op), Field},
			{op != OpRegister || h.Session == 0 && h.Request == 0, Field},
			{op != OpNonReplicated || h.Code != 0, Field}, // code 0 names no command
			{!other || h.Session != 0 && h.Request != 0, Field},
			// Bytes 196..200 hold NonReplicated's code and are reserved in
			// any other, checked with the reserved area.
			{op == OpNonReplicated || h.Code == 0, Reserved},
			{u.zero(), Reserved},
		}
	},
}

// reply is the Reply kind.
var reply = kind[ReplyHeader]{
	command: CommandReply,
	fields: func(h *ReplyHeader, u *unnamed) []any {
		u.reserved = make([]byte, 36)
		return append(prologue(&h.Checksum, &h.ChecksumBody, &h.Cluster, &h.Size, &h.View, &h.Release, &h.Replica, u),
			&h.RequestChecksum, &h.Context, &h.Client, &h.Op, &h.Commit, &h.Timestamp, &h.Request,
			&h.Operation, &u.padding, &h.Status, u.reserved)
	},
	// WIRE.md section 5, Reply: the rules in the order written there, then
	// the reserved bytes 62..128, 209..216 and 220..256.
	rules: func(h *ReplyHeader, u *unnamed) []rule {
		return []rule{
			{sizeInRange(h.Size), Size},
			{KnownOperation(h.Operation), Field},
			{h.Status == 0 || h.Size == HeaderSize, Field}, // a denial never carries a body
			{u.zero(), Reserved},
		}
	},
}

// eviction is the Eviction kind, whose size the struct leaves out and whose
// window is written max first.
var eviction = kind[Eviction]{
	command: CommandEviction,
	fields: func(e *Eviction, u *unnamed) []any {
		u.reserved = make([]byte, 103)
		return append(prologue(&e.Checksum, &e.ChecksumBody, &e.Cluster, &u.size, &e.View, &e.Release, &e.Replica, u),
			&e.Client, &e.Window.Max, &e.Window.Min, u.reserved, &e.Reason)
	},
	// WIRE.md section 5, Eviction, in the reference's order; the reserved
	// bytes are 62..128 and 152..255.
	rules: func(e *Eviction, u *unnamed) []rule {
		w := e.Window
		return []rule{
			{u.size == HeaderSize, Size},
			{!e.Client.IsZero(), Field},
			{u.zero(), Reserved},
			{e.Reason >= 1 && e.Reason <= 15, Reason}, // the known reasons
			// Only reason 14 carries a window, and it must be well-formed.
			{e.Reason != ReasonIncompatibleProtocol || WindowValid(w), BadWindow},
			{e.Reason == ReasonIncompatibleProtocol || w.Min == 0 && w.Max == 0, BadWindow},
		}
	},
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

// DecodeRequestHeader decodes a Request header from the first 256 bytes of
// src (the rest is ignored): fewer than 256 bytes is Truncated, byte 60 != 5
// is Command, and then the error is the first broken rule in request.rules.
func DecodeRequestHeader(src []byte) (RequestHeader, error) { return request.decode(src) }

// EncodeRequestHeader checks h against request.rules, as DecodeRequestHeader
// does, and returns the 256-byte header with command 5.
func EncodeRequestHeader(h RequestHeader) ([]byte, error) { return request.encode(h) }

// DecodeReplyHeader decodes a Reply header from the first 256 bytes of src
// (the rest is ignored): fewer than 256 bytes is Truncated, byte 60 != 8 is
// Command, and then the error is the first broken rule in reply.rules.
func DecodeReplyHeader(src []byte) (ReplyHeader, error) { return reply.decode(src) }

// EncodeReplyHeader checks h against reply.rules, as DecodeReplyHeader does,
// and returns the 256-byte header with command 8.
func EncodeReplyHeader(h ReplyHeader) ([]byte, error) { return reply.encode(h) }

// DecodeEviction decodes an Eviction header from the first 256 bytes of src
// (the rest is ignored): fewer than 256 bytes is Truncated, byte 60 != 13 is
// Command, and then the error is the first broken rule in eviction.rules.
func DecodeEviction(src []byte) (Eviction, error) { return eviction.decode(src) }

// EncodeEviction checks e against eviction.rules, as DecodeEviction does, and
// returns the 256-byte header with command 13 and size 256. The window's
// CountPatch is not on the wire.
func EncodeEviction(e Eviction) ([]byte, error) { return eviction.encode(e) }

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
