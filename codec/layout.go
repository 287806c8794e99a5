package codec

import "encoding/binary"

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

// firstNonZero returns the index of the first non-zero byte of b, or -1.
// Reserved areas are checked a word at a time since almost all are zero.
func firstNonZero(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:]) != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] != 0 {
			return i
		}
	}
	return -1
}

// checkZero reports ErrReserved at the first non-zero byte of h[off:off+n].
func checkZero(h []byte, off, n int, field string) error {
	if i := firstNonZero(h[off : off+n]); i >= 0 {
		return newError(ErrReserved, field, off+i, "reserved byte == 0")
	}
	return nil
}

// prologue is the part shared by every header kind.
type prologue struct {
	Checksum, ChecksumBody, Cluster Uint128
	Size, View, Release             uint32
	Replica                         uint8
}

// header returns the first 256 bytes of src after checking the length and
// the command byte, the first two checks of every header decode.
func header(src []byte, want Command) ([]byte, error) {
	if len(src) < HeaderSize {
		return nil, newError(ErrTruncated, "header", len(src), "len >= 256")
	}
	h := src[:HeaderSize:HeaderSize]
	if got := Command(h[offCommand]); got != want {
		return nil, newError(ErrCommand, "command", offCommand, commandRule(want))
	}
	return h, nil
}

func commandRule(c Command) string {
	switch c {
	case CommandRequest:
		return "command == 5 (Request)"
	case CommandReply:
		return "command == 8 (Reply)"
	}
	return "command == 13 (Eviction)"
}

// checkSize is the size rule of Request and Reply headers.
func checkSize(size uint32) error {
	if size < HeaderSize || size > MaxFrameSize {
		return newError(ErrSize, "size", offSize, "256 <= size <= 64 MiB")
	}
	return nil
}

func getPrologue(h []byte) prologue {
	return prologue{
		Checksum:     getU128(h[offChecksum:]),
		ChecksumBody: getU128(h[offChecksumBody:]),
		Cluster:      getU128(h[offCluster:]),
		Size:         binary.LittleEndian.Uint32(h[offSize:]),
		View:         binary.LittleEndian.Uint32(h[offView:]),
		Release:      binary.LittleEndian.Uint32(h[offRelease:]),
		Replica:      h[offReplica],
	}
}

// put writes p and the command byte; reserved_frame is left as it is (zero
// in a freshly grown header).
func (p prologue) put(h []byte, c Command) {
	putU128(h[offChecksum:], p.Checksum)
	putU128(h[offChecksumBody:], p.ChecksumBody)
	putU128(h[offCluster:], p.Cluster)
	binary.LittleEndian.PutUint32(h[offSize:], p.Size)
	binary.LittleEndian.PutUint32(h[offView:], p.View)
	binary.LittleEndian.PutUint32(h[offRelease:], p.Release)
	h[offCommand] = byte(c)
	h[offReplica] = p.Replica
}

// growHeader appends 256 zero bytes to dst and returns dst and the new
// header; append of a make is compiled to an in-place extension.
func growHeader(dst []byte) ([]byte, []byte) {
	n := len(dst)
	dst = append(dst, make([]byte, HeaderSize)...)
	return dst, dst[n : n+HeaderSize : n+HeaderSize]
}
