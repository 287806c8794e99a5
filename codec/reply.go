package codec

// ReplyHeader is the 256-byte header of a server's reply (command 8). Every
// byte not named here is reserved and zero. Status 0 is success; a non-zero
// Status is a denial decided before commit and carries no body. The zero
// value is not valid (size 0).
//
// Op and Operation are different fields: Op is a u64 sequence number of
// the server's state machine (with Commit), Operation the u8 operation the
// request rode, echoed.
type ReplyHeader struct {
	// Checksum, ChecksumBody and Cluster (bytes 0, 16, 32) are carried as
	// they are: nobody verifies them on client-facing frames.
	Checksum, ChecksumBody, Cluster Uint128
	// Size (byte 48) is the frame's total length, header included:
	// 256..MaxFrameSize. AppendReplyFrame sets it.
	Size uint32
	// View and Release (bytes 52, 56) are carried as they are.
	View, Release uint32
	// Replica (byte 61) is carried as it is.
	Replica uint8
	// RequestChecksum (byte 128) echoes the request's.
	RequestChecksum Uint128
	// Context (byte 144) is carried as it is.
	Context Uint128
	// Client (byte 160) is the client id of the request answered.
	Client Uint128
	// Op and Commit (bytes 176, 184) are the server's op and commit
	// numbers; a server fills them as it sees fit (a login reply carries
	// the session in both).
	Op, Commit uint64
	// Timestamp (byte 192) is carried as it is.
	Timestamp uint64
	// Request (byte 200) echoes the request number answered.
	Request uint64
	// Operation (byte 208) is the operation answered; it may differ from
	// the request's (WIRE.md section 7, point 9).
	Operation Operation
	// Status (byte 216) is 0 for success, or the error code of a denial.
	Status Status
}

// Validate returns the first broken rule of h in the order of the wire
// reference: size, a known operation, then a denial (status != 0) must not
// carry a body.
func (h ReplyHeader) Validate() error { return h.validate() }

// validate is Validate on a pointer, so that decoding checks the value in
// place instead of copying it.
func (h *ReplyHeader) validate() error {
	if err := checkSize(h.Size, ruleRepSize); err != nil {
		return err
	}
	if !h.Operation.IsKnown() {
		return newError(ErrField, "operation", offRepOperation, ruleRepOperation, "operation known")
	}
	if h.Status != StatusOK && h.Size != HeaderSize {
		return newError(ErrField, "size", offSize, ruleRepStatus, "status != 0 => size == 256")
	}
	return nil
}

// EncodedLen returns HeaderSize.
func (ReplyHeader) EncodedLen() int { return HeaderSize }

// AppendBinary validates h and appends its 256 bytes to dst. On error it returns
// dst unchanged.
//
// It takes a pointer, as Decode does: a header value is 96 to 152 bytes,
// and the copy a value receiver made at every call was about 40% of
// encoding one (Encode/RequestHeader 2.9x -> 1.7x of a 256-byte copy).
// A header in a variable or a field encodes with h.AppendBinary(dst) all
// the same; *ReplyHeader is the encoding.BinaryAppender.
func (h *ReplyHeader) AppendBinary(dst []byte) ([]byte, error) {
	if !h.wellFormed() {
		return dst, h.validate()
	}
	dst, b := growHeader(dst)
	// The 128-bit fields move as 16-byte arrays (copy128).
	copy128(b, offChecksum, &h.Checksum)
	copy128(b, offChecksumBody, &h.ChecksumBody)
	copy128(b, offCluster, &h.Cluster)
	putFrame(b, h.Size, h.View, h.Release, CommandReply, h.Replica)
	copy128(b, offRepRequestChecksum, &h.RequestChecksum)
	copy128(b, offRepContext, &h.Context)
	copy128(b, offRepClient, &h.Client)
	put64(b, offRepOp, h.Op)
	put64(b, offRepCommit, h.Commit)
	put64(b, offRepTimestamp, h.Timestamp)
	put64(b, offRepRequest, h.Request)
	*(*[HeaderSize - offRepOperation]byte)(b[offRepOperation:]) = [HeaderSize - offRepOperation]byte{}
	b[offRepOperation] = byte(h.Operation)
	put32(b, offRepStatus, uint32(h.Status))
	return dst, nil
}

// DecodeReplyHeader decodes the first 256 bytes of src as a reply header.
// It checks, in order: the length, the command byte, the rules of Validate,
// then that every reserved and padding byte is zero. It is
// ReplyHeader.Decode returning a value.
func DecodeReplyHeader(src []byte) (h ReplyHeader, err error) {
	err = h.Decode(src)
	return h, err
}

// Decode decodes the first 256 bytes of src into h, with the checks of
// DecodeReplyHeader in the same order. On error h is the zero value. Like
// RequestHeader.Decode, it writes into a header the caller keeps.
func (h *ReplyHeader) Decode(src []byte) error {
	// The shape of RequestHeader.Decode and Eviction.Decode by design: each
	// reads its own layout top to bottom, as WIRE.md's table of it does;
	// the prologue they share is read by get128 and getFrame.
	b, err := header(src, CommandReply)
	if err != nil {
		*h = ReplyHeader{}
		return err
	}
	// load's body, written out: load is over the inlining budget, and a
	// call here cost the decoder a few ns (DecodeReplyHeaderLenient calls
	// load; the lenient tests compare the two).
	// The 128-bit fields move as 16-byte arrays (get128).
	get128(&h.Checksum, b, offChecksum)
	get128(&h.ChecksumBody, b, offChecksumBody)
	get128(&h.Cluster, b, offCluster)
	h.Size, h.View, h.Release, h.Replica = getFrame(b)
	get128(&h.RequestChecksum, b, offRepRequestChecksum)
	get128(&h.Context, b, offRepContext)
	get128(&h.Client, b, offRepClient)
	h.Op = le64(b, offRepOp)
	h.Commit = le64(b, offRepCommit)
	h.Timestamp = le64(b, offRepTimestamp)
	h.Request = le64(b, offRepRequest)
	h.Operation = Operation(b[offRepOperation])
	h.Status = Status(le32(b, offRepStatus))
	// One test of every rule for the common, valid header (see
	// RequestHeader.Decode).
	if !h.wellFormed() || replyReservedBits(b) != 0 {
		err := h.validate()
		if err == nil {
			err = replyReservedError(b) // a reserved bit is set
		}
		*h = ReplyHeader{}
		return err
	}
	return nil
}

// load reads every field of b into h, judging none.
func (h *ReplyHeader) load(b *hdr) {
	get128(&h.Checksum, b, offChecksum)
	get128(&h.ChecksumBody, b, offChecksumBody)
	get128(&h.Cluster, b, offCluster)
	h.Size, h.View, h.Release, h.Replica = getFrame(b)
	get128(&h.RequestChecksum, b, offRepRequestChecksum)
	get128(&h.Context, b, offRepContext)
	get128(&h.Client, b, offRepClient)
	h.Op = le64(b, offRepOp)
	h.Commit = le64(b, offRepCommit)
	h.Timestamp = le64(b, offRepTimestamp)
	h.Request = le64(b, offRepRequest)
	h.Operation = Operation(b[offRepOperation])
	h.Status = Status(le32(b, offRepStatus))
}

// wellFormed is validate's rules as one boolean, for the fast paths of the
// decoder and AppendBinary; validate says which rule broke. They must agree
// (TestWellFormedAgreesWithValidate): AppendBinary returns validate's error
// whenever wellFormed is false.
func (h *ReplyHeader) wellFormed() bool {
	return h.Size >= HeaderSize && h.Size <= MaxFrameSize && h.Operation.IsKnown() &&
		(h.Status == StatusOK || h.Size == HeaderSize)
}
