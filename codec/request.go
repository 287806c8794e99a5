package codec

import "encoding/binary"

// RequestHeader is the 256-byte header of a client's request (command 5).
// Every byte not named here is reserved and zero. Code travels at bytes
// 196..200 and only for OperationNonReplicated; for any other operation it
// must be 0. The zero value is not valid (client 0, operation 0).
type RequestHeader struct {
	Checksum, ChecksumBody, Cluster Uint128
	Size, View, Release             uint32
	Replica                         uint8
	Client, RequestChecksum         Uint128
	Timestamp, Request              uint64
	Operation                       Operation
	Session                         uint64
	UserID                          uint32
	Code                            Code
}

// Validate returns the first broken rule of h in the order of the wire
// reference: size, client, operation, then the session and request rules of
// the operation (Register: session 0 then request 0; NonReplicated: code
// non-zero; any other: session then request non-zero), and last a Code on an
// operation that does not carry one (ErrReserved).
func (h RequestHeader) Validate() error {
	if err := checkSize(h.Size); err != nil {
		return err
	}
	if h.Client.IsZero() {
		return newError(ErrField, "client", offReqClient, "client != 0")
	}
	switch {
	case !h.Operation.Known() || h.Operation == OperationReserved:
		return newError(ErrField, "operation", offReqOperation, "operation is known and != 0")
	case h.Operation == OperationRegister:
		if h.Session != 0 {
			return newError(ErrField, "session", offReqSession, "operation == Register => session == 0")
		}
		if h.Request != 0 {
			return newError(ErrField, "request", offReqRequest, "operation == Register => request == 0")
		}
	case h.Operation == OperationNonReplicated:
		if h.Code == 0 {
			return newError(ErrField, "code", offReqCode, "operation == NonReplicated => code != 0")
		}
	default:
		if h.Session == 0 {
			return newError(ErrField, "session", offReqSession, "replicated operation => session > 0")
		}
		if h.Request == 0 {
			return newError(ErrField, "request", offReqRequest, "replicated operation => request > 0")
		}
	}
	if h.Code != 0 && h.Operation != OperationNonReplicated {
		return newError(ErrReserved, "reserved", offReqCode, "operation != NonReplicated => bytes 196..200 == 0")
	}
	return nil
}

// EncodedLen returns HeaderSize.
func (RequestHeader) EncodedLen() int { return HeaderSize }

// AppendTo validates h and appends its 256 bytes to dst. On error it returns
// dst unchanged.
func (h RequestHeader) AppendTo(dst []byte) ([]byte, error) {
	if err := h.Validate(); err != nil {
		return dst, err
	}
	dst, b := growHeader(dst)
	prologue{h.Checksum, h.ChecksumBody, h.Cluster, h.Size, h.View, h.Release, h.Replica}.put(b, CommandRequest)
	putU128(b[offReqClient:], h.Client)
	putU128(b[offReqRequestChecksum:], h.RequestChecksum)
	binary.LittleEndian.PutUint64(b[offReqTimestamp:], h.Timestamp)
	binary.LittleEndian.PutUint64(b[offReqRequest:], h.Request)
	b[offReqOperation] = byte(h.Operation)
	binary.LittleEndian.PutUint64(b[offReqSession:], h.Session)
	binary.LittleEndian.PutUint32(b[offReqUserID:], h.UserID)
	binary.LittleEndian.PutUint32(b[offReqCode:], uint32(h.Code))
	return dst, nil
}

// DecodeRequestHeader decodes the first 256 bytes of src as a request
// header. It checks, in order: the length, the command byte, the rules of
// Validate, then that every reserved and padding byte is zero (bytes
// 196..200 included unless the operation is NonReplicated).
func DecodeRequestHeader(src []byte) (RequestHeader, error) {
	b, err := header(src, CommandRequest)
	if err != nil {
		return RequestHeader{}, err
	}
	p := getPrologue(b)
	h := RequestHeader{
		Checksum: p.Checksum, ChecksumBody: p.ChecksumBody, Cluster: p.Cluster,
		Size: p.Size, View: p.View, Release: p.Release, Replica: p.Replica,
		Client:          getU128(b[offReqClient:]),
		RequestChecksum: getU128(b[offReqRequestChecksum:]),
		Timestamp:       binary.LittleEndian.Uint64(b[offReqTimestamp:]),
		Request:         binary.LittleEndian.Uint64(b[offReqRequest:]),
		Operation:       Operation(b[offReqOperation]),
		Session:         binary.LittleEndian.Uint64(b[offReqSession:]),
		UserID:          binary.LittleEndian.Uint32(b[offReqUserID:]),
	}
	reserved := offReqReserved
	if h.Operation == OperationNonReplicated {
		h.Code = Code(binary.LittleEndian.Uint32(b[offReqCode:]))
		reserved += sizeReqCode
	}
	if err := h.Validate(); err != nil {
		return RequestHeader{}, err
	}
	if err := checkZero(b, offReservedFrame, sizeReservedFrame, "reserved_frame"); err != nil {
		return RequestHeader{}, err
	}
	if err := checkZero(b, offReqOperationPad, sizeReqOperationPad, "operation_padding"); err != nil {
		return RequestHeader{}, err
	}
	if err := checkZero(b, reserved, HeaderSize-reserved, "reserved"); err != nil {
		return RequestHeader{}, err
	}
	return h, nil
}
