package codec

import "encoding/binary"

// ReplyHeader is the 256-byte header of a server's reply (command 8). Every
// byte not named here is reserved and zero. Status 0 is success; a non-zero
// Status is a denial decided before commit and carries no body. The zero
// value is not valid (size 0).
type ReplyHeader struct {
	Checksum, ChecksumBody, Cluster  Uint128
	Size, View, Release              uint32
	Replica                          uint8
	RequestChecksum, Context, Client Uint128
	Op, Commit, Timestamp, Request   uint64
	Operation                        Operation
	Status                           Status
}

// Validate returns the first broken rule of h in the order of the wire
// reference: size, a known operation, then a denial (status != 0) must not
// carry a body.
func (h ReplyHeader) Validate() error {
	if err := checkSize(h.Size); err != nil {
		return err
	}
	if !h.Operation.Known() {
		return newError(ErrField, "operation", offRepOperation, "operation is known")
	}
	if h.Status != StatusOK && h.Size != HeaderSize {
		return newError(ErrSize, "size", offSize, "status != 0 => size == 256")
	}
	return nil
}

// EncodedLen returns HeaderSize.
func (ReplyHeader) EncodedLen() int { return HeaderSize }

// AppendTo validates h and appends its 256 bytes to dst. On error it returns
// dst unchanged.
func (h ReplyHeader) AppendTo(dst []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return dst, err
	}
	dst, b := growHeader(dst)
	prologue{h.Checksum, h.ChecksumBody, h.Cluster, h.Size, h.View, h.Release, h.Replica}.put(b, CommandReply)
	putU128(b[offRepRequestChecksum:], h.RequestChecksum)
	putU128(b[offRepContext:], h.Context)
	putU128(b[offRepClient:], h.Client)
	binary.LittleEndian.PutUint64(b[offRepOp:], h.Op)
	binary.LittleEndian.PutUint64(b[offRepCommit:], h.Commit)
	binary.LittleEndian.PutUint64(b[offRepTimestamp:], h.Timestamp)
	binary.LittleEndian.PutUint64(b[offRepRequest:], h.Request)
	b[offRepOperation] = byte(h.Operation)
	binary.LittleEndian.PutUint32(b[offRepStatus:], uint32(h.Status))
	return dst, nil
}

// DecodeReplyHeader decodes the first 256 bytes of src as a reply header.
// It checks, in order: the length, the command byte, the rules of Validate,
// then that every reserved and padding byte is zero.
func DecodeReplyHeader(src []byte) (ReplyHeader, error) {
	b, err := header(src, CommandReply)
	if err != nil {
		return ReplyHeader{}, err
	}
	p := getPrologue(b)
	h := ReplyHeader{
		Checksum: p.Checksum, ChecksumBody: p.ChecksumBody, Cluster: p.Cluster,
		Size: p.Size, View: p.View, Release: p.Release, Replica: p.Replica,
		RequestChecksum: getU128(b[offRepRequestChecksum:]),
		Context:         getU128(b[offRepContext:]),
		Client:          getU128(b[offRepClient:]),
		Op:              binary.LittleEndian.Uint64(b[offRepOp:]),
		Commit:          binary.LittleEndian.Uint64(b[offRepCommit:]),
		Timestamp:       binary.LittleEndian.Uint64(b[offRepTimestamp:]),
		Request:         binary.LittleEndian.Uint64(b[offRepRequest:]),
		Operation:       Operation(b[offRepOperation]),
		Status:          Status(binary.LittleEndian.Uint32(b[offRepStatus:])),
	}
	if err := h.Validate(); err != nil {
		return ReplyHeader{}, err
	}
	if err := checkZero(b, offReservedFrame, sizeReservedFrame, "reserved_frame"); err != nil {
		return ReplyHeader{}, err
	}
	if err := checkZero(b, offRepOperationPad, sizeRepOperationPad, "operation_padding"); err != nil {
		return ReplyHeader{}, err
	}
	if err := checkZero(b, offRepReserved, sizeRepReserved, "reserved"); err != nil {
		return ReplyHeader{}, err
	}
	return h, nil
}
