package codec

import "math/bits"

// RequestHeader is the 256-byte header of a client's request (command 5).
// Every byte not named here is reserved and zero. Code travels at bytes
// 196..200 and only for OperationNonReplicated; for any other operation it
// must be 0. The zero value is not valid (client 0, operation 0).
//
// The prologue (bytes 0..128) is the same in every header kind; WIRE.md
// section 5 gives each field's offset (the workbench reads them as data
// from internal/layout).
type RequestHeader struct {
	// Checksum, ChecksumBody and Cluster (bytes 0, 16, 32) are carried as
	// they are: nobody verifies them on client-facing frames, and the
	// SDKs send zero.
	Checksum, ChecksumBody, Cluster Uint128
	// Size (byte 48) is the frame's total length, header included:
	// 256..MaxFrameSize. AppendRequestFrame sets it.
	Size uint32
	// View and Release (bytes 52, 56) are carried as they are, like the
	// checksums.
	View, Release uint32
	// Replica (byte 61) is carried as it is.
	Replica uint8
	// Client (byte 128) is the client id, never 0.
	Client Uint128
	// RequestChecksum (byte 144) is 0 when unstamped; a reply echoes it.
	RequestChecksum Uint128
	// Timestamp (byte 160) is carried as it is.
	Timestamp uint64
	// Request (byte 168) is the request number (WIRE.md section 7, point
	// 9); a reply echoes it.
	Request uint64
	// Operation (byte 176) is the state-machine operation the request
	// rides; see OperationForCode.
	Operation Operation
	// Session (byte 184) is the session the request claims: 0 for a
	// login, the bound session for every replicated operation.
	Session uint64
	// UserID (byte 192) is set by the server; clients send 0.
	UserID uint32
	// Code (bytes 196..200) is the command code of a NonReplicated
	// request; for every other operation those bytes are reserved and
	// Code must be 0.
	Code Code
}

// Validate returns the first broken rule of h in the order of the wire
// reference: size, client, operation, then the session and request rules of
// the operation (Register: session 0 then request 0; NonReplicated: code
// non-zero; any other: session then request non-zero), and last a Code on an
// operation that does not carry one, reported as the reserved area's (field
// "reserved", ErrReserved, the offset of its first non-zero byte).
func (h RequestHeader) Validate() error { return h.validate() }

// validate is Validate on a pointer, so that decoding checks the value in
// place instead of copying it.
func (h *RequestHeader) validate() error {
	if err := checkSize(h.Size, ruleReqSize); err != nil {
		return err
	}
	if h.Client.IsZero() {
		return clientError(offReqClient, ruleReqClient)
	}
	switch {
	case !h.Operation.IsKnown() || h.Operation == OperationReserved:
		return newError(ErrField, "operation", offReqOperation, ruleReqOperation, "operation known and != 0")
	case h.Operation == OperationRegister:
		if h.Session != 0 {
			return newError(ErrField, "session", offReqSession, ruleReqRegisterSession, "operation == Register => session == 0")
		}
		if h.Request != 0 {
			return newError(ErrField, "request", offReqRequest, ruleReqRegisterRequest, "operation == Register => request == 0")
		}
	case h.Operation == OperationNonReplicated:
		if h.Code == 0 {
			return newError(ErrField, "code", offReqCode, ruleReqCode, "operation == NonReplicated => code != 0")
		}
	default:
		if h.Session == 0 {
			return newError(ErrField, "session", offReqSession, ruleReqSession, "replicated operation => session > 0")
		}
		if h.Request == 0 {
			return newError(ErrField, "request", offReqRequest, ruleReqRequest, "replicated operation => request > 0")
		}
	}
	if h.Code != 0 && h.Operation != OperationNonReplicated {
		// Reported as the reserved area's first non-zero byte (WIRE.md
		// sections 5 and 9), which is where a decoder meets it.
		at := offReqCode + bits.TrailingZeros32(uint32(h.Code))/8
		return newError(ErrReserved, "reserved", at, ruleReqReservedCode, wantReservedCode)
	}
	return nil
}

// EncodedLen returns HeaderSize.
func (RequestHeader) EncodedLen() int { return HeaderSize }

// AppendBinary validates h and appends its 256 bytes to dst. On error it returns
// dst unchanged.
//
// It takes a pointer, as Decode does: a header value is 96 to 152 bytes,
// and the copy a value receiver made at every call was about 40% of
// encoding one (Encode/RequestHeader 2.9x -> 1.7x of a 256-byte copy).
// A header in a variable or a field encodes with h.AppendBinary(dst) all
// the same; *RequestHeader is the encoding.BinaryAppender.
func (h *RequestHeader) AppendBinary(dst []byte) ([]byte, error) {
	if !h.wellFormed() {
		return dst, h.validate()
	}
	dst, b := growHeader(dst)
	// The 128-bit fields move as 16-byte arrays (copy128).
	copy128(b, offChecksum, &h.Checksum)
	copy128(b, offChecksumBody, &h.ChecksumBody)
	copy128(b, offCluster, &h.Cluster)
	putFrame(b, h.Size, h.View, h.Release, CommandRequest, h.Replica)
	copy128(b, offReqClient, &h.Client)
	copy128(b, offReqRequestChecksum, &h.RequestChecksum)
	put64(b, offReqTimestamp, h.Timestamp)
	put64(b, offReqRequest, h.Request)
	*(*[HeaderSize - offReqOperation]byte)(b[offReqOperation:]) = [HeaderSize - offReqOperation]byte{}
	b[offReqOperation] = byte(h.Operation)
	put64(b, offReqSession, h.Session)
	// The user id and the code (0 unless the operation is NonReplicated,
	// per wellFormed) are neighbours: one word, one store.
	put64(b, offReqUserID, uint64(h.UserID)|uint64(h.Code)<<32)
	return dst, nil
}

// DecodeRequestHeader decodes the first 256 bytes of src as a request
// header. It checks, in order: the length, the command byte, the rules of
// Validate, then that every reserved and padding byte is zero (bytes
// 196..200 included unless the operation is NonReplicated). It is
// RequestHeader.Decode returning a value.
func DecodeRequestHeader(src []byte) (h RequestHeader, err error) {
	err = h.Decode(src)
	return h, err
}

// Decode decodes the first 256 bytes of src into h, with the checks of
// DecodeRequestHeader in the same order. On error h is the zero value.
// Decoding into a header the caller keeps (a connection's field, a reused
// variable) writes each field once and returns no copy; it is the faster
// of the two forms in a loop.
func (h *RequestHeader) Decode(src []byte) error {
	b, err := header(src, CommandRequest)
	if err != nil {
		*h = RequestHeader{}
		return err
	}
	// The 128-bit fields move as 16-byte arrays (get128).
	get128(&h.Checksum, b, offChecksum)
	get128(&h.ChecksumBody, b, offChecksumBody)
	get128(&h.Cluster, b, offCluster)
	h.Size, h.View, h.Release, h.Replica = getFrame(b)
	get128(&h.Client, b, offReqClient)
	get128(&h.RequestChecksum, b, offReqRequestChecksum)
	h.Timestamp = le64(b, offReqTimestamp)
	h.Request = le64(b, offReqRequest)
	h.Operation = Operation(b[offReqOperation])
	h.Session = le64(b, offReqSession)
	h.UserID = le32(b, offReqUserID)
	var code Code // chosen in a register and stored once
	reserved := offReqReserved
	if h.Operation == OperationNonReplicated {
		code = Code(le32(b, offReqCode))
		reserved += sizeReqCode
	}
	h.Code = code
	// One test of every rule for the common, valid header; only a header
	// that fails it goes through validate and the reserved-area checks,
	// which name the first broken rule in the reference's order.
	if !h.wellFormed() || requestReservedBits(b, reserved) != 0 {
		err := h.validate()
		if err == nil {
			// validate agrees with wellFormed, so a reserved bit is set.
			err = requestReservedError(b, reserved)
		}
		*h = RequestHeader{}
		return err
	}
	return nil
}

// wellFormed is validate's rules as one boolean, for the fast paths of the
// decoder and AppendBinary; validate says which rule broke. They must agree
// (TestWellFormedAgreesWithValidate): AppendBinary returns validate's error
// whenever wellFormed is false.
func (h *RequestHeader) wellFormed() bool {
	// Written to stay under the compiler's inlining budget (TestInlining):
	// a call here cost Decode and AppendBinary a few ns each. The size
	// test is one unsigned comparison (a size below 256 wraps around).
	if h.Size-HeaderSize > MaxFrameSize-HeaderSize || h.Client.IsZero() {
		return false
	}
	switch h.Operation {
	case OperationRegister:
		return h.Session|h.Request|uint64(h.Code) == 0
	case OperationNonReplicated:
		return h.Code != 0
	}
	return requestOps[h.Operation>>6]>>(h.Operation&63)&1 != 0 && h.Session != 0 && h.Request != 0 && h.Code == 0
}

// requestOps is the set of operations a request may carry (known, not
// Reserved) as a 256-bit set, built from IsKnown so that the two cannot
// disagree: one load and a shift where IsKnown's four range tests would
// push wellFormed over the inlining budget.
var requestOps = func() (set [4]uint64) {
	for o := 1; o < 256; o++ {
		if Operation(o).IsKnown() {
			set[o>>6] |= 1 << (o & 63)
		}
	}
	return set
}()
