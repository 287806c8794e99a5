package codec

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// Frame sizes.
const (
	// HeaderSize is the size of every header; a frame is one header
	// followed by Size-HeaderSize body bytes.
	HeaderSize = 256
	// MaxFrameSize is the frame size cap the SDKs use: 64 MiB.
	MaxFrameSize = 64 << 20
)

// Common prologue, identical in every header kind. Each field is an off*
// and a size* constant; reserved ranges are named too, so one test can walk
// each layout and find no gap and no overlap.
const (
	offChecksum       = 0
	sizeChecksum      = 16
	offChecksumBody   = 16
	sizeChecksumBody  = 16
	offCluster        = 32
	sizeCluster       = 16
	offSize           = 48
	sizeSize          = 4
	offView           = 52
	sizeView          = 4
	offRelease        = 56
	sizeRelease       = 4
	offCommand        = 60
	sizeCommand       = 1
	offReplica        = 61
	sizeReplica       = 1
	offReservedFrame  = 62
	sizeReservedFrame = 66  // reserved_frame
	offKind           = 128 // where the kind-specific part starts
)

// Request header (command 5).
const (
	offReqClient           = 128
	sizeReqClient          = 16
	offReqRequestChecksum  = 144
	sizeReqRequestChecksum = 16
	offReqTimestamp        = 160
	sizeReqTimestamp       = 8
	offReqRequest          = 168
	sizeReqRequest         = 8
	offReqOperation        = 176
	sizeReqOperation       = 1
	offReqOperationPad     = 177
	sizeReqOperationPad    = 7
	offReqSession          = 184
	sizeReqSession         = 8
	offReqUserID           = 192
	sizeReqUserID          = 4
	offReqReserved         = 196 // its first 4 bytes are the code of a NonReplicated request
	sizeReqReserved        = 60
	offReqCode             = 196
	sizeReqCode            = 4
)

// Reply header (command 8).
const (
	offRepRequestChecksum  = 128
	sizeRepRequestChecksum = 16
	offRepContext          = 144
	sizeRepContext         = 16
	offRepClient           = 160
	sizeRepClient          = 16
	offRepOp               = 176
	sizeRepOp              = 8
	offRepCommit           = 184
	sizeRepCommit          = 8
	offRepTimestamp        = 192
	sizeRepTimestamp       = 8
	offRepRequest          = 200
	sizeRepRequest         = 8
	offRepOperation        = 208
	sizeRepOperation       = 1
	offRepOperationPad     = 209
	sizeRepOperationPad    = 7
	offRepStatus           = 216
	sizeRepStatus          = 4
	offRepReserved         = 220
	sizeRepReserved        = 36
)

// Eviction header (command 13).
const (
	offEvClient     = 128
	sizeEvClient    = 16
	offEvWindowMax  = 144
	sizeEvWindowMax = 4
	offEvWindowMin  = 148
	sizeEvWindowMin = 4
	offEvReserved   = 152
	sizeEvReserved  = 103
	offEvReason     = 255
	sizeEvReason    = 1
)

// hdr is a header as an array, so that every read at a constant offset
// below compiles without a bounds check.
type hdr = [HeaderSize]byte

func le32(h *hdr, off int) uint32 { return binary.LittleEndian.Uint32(h[off:]) }
func le64(h *hdr, off int) uint64 { return binary.LittleEndian.Uint64(h[off:]) }

func le128(h *hdr, off int) Uint128 {
	return Uint128{Lo: binary.LittleEndian.Uint64(h[off:]), Hi: binary.LittleEndian.Uint64(h[off+8:])}
}

func put32(h *hdr, off int, v uint32) { binary.LittleEndian.PutUint32(h[off:], v) }
func put64(h *hdr, off int, v uint64) { binary.LittleEndian.PutUint64(h[off:], v) }

func put128(h *hdr, off int, u Uint128) {
	binary.LittleEndian.PutUint64(h[off:], u.Lo)
	binary.LittleEndian.PutUint64(h[off+8:], u.Hi)
}

// copy128 is put128 from a Uint128 in memory: one 16-byte load and store
// where put128 makes two of each. It was written when the encoders read a
// value receiver their caller had just copied with 16-byte stores, which
// 8-byte loads of the upper halves waited on (8 to 13% of the encoders,
// AMD EPYC); the receivers are pointers now, and the one move stays the
// shorter path. On a little-endian machine a Uint128 in memory (Lo then
// Hi) is its 16 wire bytes, so it moves as one array; elsewhere it is
// put128.
func copy128(h *hdr, off int, u *Uint128) {
	if littleEndian {
		*(*[16]byte)(h[off:]) = *(*[16]byte)(unsafe.Pointer(u))
		return
	}
	put128(h, off, *u)
}

// get128 is le128 into a Uint128 in memory, as one 16-byte move on a
// little-endian machine: DecodeRequestHeader's caller copies the decoded
// value out with 16-byte loads, each forwarded from one store only when
// the store is as wide (4 to 6% off the value-returning decoders).
func get128(u *Uint128, h *hdr, off int) {
	if littleEndian {
		*(*[16]byte)(unsafe.Pointer(u)) = *(*[16]byte)(h[off:])
		return
	}
	*u = le128(h, off)
}

// Reserved areas are tested for zero as the OR of a few whole-word loads at
// constant offsets: no loop, no bounds check, independent loads. Each area
// has one function here, and TestReservedAreas checks byte by byte that it
// covers exactly its range of the layout above. Words may overlap a
// neighbouring area of the same kind or be shifted to drop a field's bytes.

// or32 is the OR of the four words of h[off:off+32].
func or32(h *hdr, off int) uint64 {
	return le64(h, off) | le64(h, off+8) | le64(h, off+16) | le64(h, off+24)
}

// reservedFrame covers reserved_frame, bytes 62..128 of every header.
func reservedFrame(h *hdr) uint64 {
	return le64(h, 56)>>48 | or32(h, 64) | or32(h, 96)
}

// reqPadding covers a request's operation padding, bytes 177..184.
func reqPadding(h *hdr) uint64 { return le64(h, offReqOperation) >> 8 }

// repPadding covers a reply's operation padding, bytes 209..216.
func repPadding(h *hdr) uint64 { return le64(h, offRepOperation) >> 8 }

// evReserved covers an eviction's reserved area, bytes 152..255.
func evReserved(h *hdr) uint64 {
	return or32(h, 152) | or32(h, 184) | or32(h, 216) | le64(h, 247)>>8
}

// The decoders' fast path tests every reserved area of a header at once,
// with the words of the functions above OR-ed in one function (calls to
// them would not be inlined); TestReservedAreas checks each against the
// areas it stands for.

// requestReservedBits is reservedFrame | reqPadding | the reserved area from
// byte from (196, or 200 past a NonReplicated code) to 256.
func requestReservedBits(h *hdr, from int) uint64 {
	return le64(h, 56)>>48 | or32(h, 64) | or32(h, 96) | le64(h, offReqOperation)>>8 |
		le64(h, 192)>>(8*(from-192)) | or32(h, 200) | or32(h, 224)
}

// replyReservedBits is reservedFrame | repPadding | the reserved area,
// bytes 220..256.
func replyReservedBits(h *hdr) uint64 {
	return le64(h, 56)>>48 | or32(h, 64) | or32(h, 96) | le64(h, offRepOperation)>>8 |
		le64(h, 216)>>32 | or32(h, 224)
}

// evictionReservedBits is reservedFrame | evReserved.
func evictionReservedBits(h *hdr) uint64 {
	return le64(h, 56)>>48 | or32(h, 64) | or32(h, 96) |
		or32(h, 152) | or32(h, 184) | or32(h, 216) | le64(h, 247)>>8
}

// requestReservedError is the error of the last rule of a request header,
// for a header whose requestReservedBits are not zero: reserved_frame, the
// operation padding, then the reserved area from byte from must be zero,
// and it names the first that is not. A first non-zero byte at 196..200
// (from is 196 unless the operation is NonReplicated) breaks
// request.reserved.code, as RequestHeader.Validate reports a Code there.
func requestReservedError(h *hdr, from int) error {
	switch {
	case reservedFrame(h) != 0:
		return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleReqReservedFrame)
	case reqPadding(h) != 0:
		return reservedError(h, offReqOperationPad, offReqOperationPad+sizeReqOperationPad, "operation_padding", ruleReqPadding)
	}
	at := firstNonZero(h, from, HeaderSize)
	if at < offReqCode+sizeReqCode {
		return newError(ErrReserved, "reserved", at, ruleReqReservedCode, wantReservedCode)
	}
	return newError(ErrReserved, "reserved", at, ruleReqReserved, wantReserved)
}

// replyReservedError is requestReservedError for a reply header.
func replyReservedError(h *hdr) error {
	switch {
	case reservedFrame(h) != 0:
		return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleRepReservedFrame)
	case repPadding(h) != 0:
		return reservedError(h, offRepOperationPad, offRepOperationPad+sizeRepOperationPad, "operation_padding", ruleRepPadding)
	}
	return reservedError(h, offRepReserved, offRepReserved+sizeRepReserved, "reserved", ruleRepReserved)
}

// checkEvictionReserved is the reserved rule of an eviction, which comes
// before its reason rule: reserved_frame, then the reserved area, are zero.
func checkEvictionReserved(h *hdr) error {
	if reservedFrame(h)|evReserved(h) == 0 {
		return nil
	}
	if reservedFrame(h) != 0 {
		return reservedError(h, offReservedFrame, offKind, "reserved_frame", ruleEvReservedFrame)
	}
	return reservedError(h, offEvReserved, offEvReserved+sizeEvReserved, "reserved", ruleEvReserved)
}

// reservedError is the ErrReserved of a reserved area h[from:to] that its
// test above found non-zero: it reports the first non-zero byte under the
// area's rule id.
func reservedError(h *hdr, from, to int, field Field, rule string) error {
	return newError(ErrReserved, field, firstNonZero(h, from, to), rule, wantReserved)
}

// firstNonZero is the offset of the first non-zero byte of h[from:to], which
// the caller knows holds one (to-1 otherwise).
func firstNonZero(h *hdr, from, to int) int {
	i := from
	for i < to-1 && h[i] == 0 {
		i++
	}
	return i
}

// header returns the first 256 bytes of src as a header after checking the
// length and the command byte, the first two checks of every header decode.
func header(src []byte, want Command) (*hdr, error) {
	if len(src) < HeaderSize || Command(src[offCommand]) != want {
		return nil, headerError(src, want)
	}
	return (*hdr)(src), nil
}

// headerError is the error of a header that fails the length or the command
// byte.
func headerError(src []byte, want Command) error {
	if len(src) < HeaderSize {
		return newError(ErrTruncated, "header", len(src), ruleHeaderLength, wantHeader)
	}
	switch want {
	case CommandRequest:
		return newError(ErrCommand, "command", offCommand, ruleReqCommand, "command == 5")
	case CommandReply:
		return newError(ErrCommand, "command", offCommand, ruleRepCommand, "command == 8")
	}
	return newError(ErrCommand, "command", offCommand, ruleEvCommand, "command == 13")
}

// clientError is the client rule of requests and evictions (rule is
// request.client or eviction.client), broken: the client id at off is 0.
func clientError(off int, rule string) error {
	return newError(ErrField, "client", off, rule, wantClient)
}

// checkSize is the size rule of Request and Reply headers, and of
// FrameSize: rule is request.size, reply.size or frame.size.
func checkSize(size uint32, rule string) error {
	if size < HeaderSize || size > MaxFrameSize {
		return newError(ErrSize, "size", offSize, rule, wantSize)
	}
	return nil
}

// growHeader extends dst by HeaderSize bytes and returns them as a header.
// It does not clear them: every encoder writes all 256 bytes, its fields
// and its zero areas, with whole-word stores (copy128, putFrame and the encoders;
// TestEncodersWriteEveryByte appends onto garbage to prove it). Clearing
// first and then storing the fields wrote most bytes twice.
func growHeader(dst []byte) ([]byte, *hdr) {
	n := len(dst)
	dst = slices.Grow(dst, HeaderSize)[:n+HeaderSize]
	return dst, (*hdr)(dst[n:])
}

// The prologue (bytes 0..128 of every header) is written by two helpers,
// each small enough to inline: copy128 for each of the three 128-bit
// fields and putFrame for the rest. Zero areas are cleared with whole-array stores
// first and the fields stored over them: the compiler cannot merge the
// byte stores of a word whose bytes it knows are zero, so packing a word of
// fields and zeros into one put64 came out as four narrow stores.

// getFrame reads what putFrame writes, for the decoders (the command byte
// aside: header checked it).

func getFrame(h *hdr) (size, view, release uint32, replica uint8) {
	return le32(h, offSize), le32(h, offView), le32(h, offRelease), h[offReplica]
}

func putFrame(h *hdr, size, view, release uint32, c Command, replica uint8) {
	// Bytes 48..64 are two words of fields, the second ending with the
	// first two bytes of reserved_frame; the rest of reserved_frame is
	// cleared whole. Two word stores and four 16-byte ones, where clearing
	// all of 48..128 first and storing the five fields over it took ten.
	put64(h, offSize, uint64(size)|uint64(view)<<32)
	put64(h, offRelease, uint64(release)|uint64(c)<<32|uint64(replica)<<40)
	*(*[offKind - 64]byte)(h[64:offKind]) = [offKind - 64]byte{}
}
