package codec

import "encoding/binary"

// PeekCommand returns byte 60 of a frame. It needs a full 256-byte header
// (ErrTruncated otherwise) and checks nothing else, so a dispatcher can pick
// the decoder.
func PeekCommand(src []byte) (Command, error) {
	if len(src) < HeaderSize {
		return 0, newError(ErrTruncated, "header", len(src), ruleHeaderLength, wantHeader)
	}
	return Command(src[offCommand]), nil
}

// FrameSize returns the total size of the frame whose header starts src: the
// header's size field, checked to be within 256..MaxFrameSize. A reader uses
// it to know how many body bytes follow; a size outside the range means the
// next frame cannot be found and the connection must end. It reads a header
// of any kind, so its size error is the frame's rule, frame.size, not a
// Request's or Reply's.
func FrameSize(src []byte) (int, error) {
	if len(src) < HeaderSize {
		return 0, newError(ErrTruncated, "header", len(src), ruleHeaderLength, wantHeader)
	}
	size := binary.LittleEndian.Uint32(src[offSize:])
	if err := checkSize(size, ruleFrameSize); err != nil {
		return 0, err
	}
	return int(size), nil
}

// AppendRequestFrame and AppendReplyFrame are the same four lines for two
// header types: a generic form would need a Size setter on both, which the
// API has no other use for.

// AppendRequestFrame appends a request frame: h with Size set to 256 plus
// len(body), then body. It validates h first; on error dst is unchanged.
func AppendRequestFrame(dst []byte, h RequestHeader, body []byte) ([]byte, error) {
	h.Size = frameSize(len(body))
	dst, err := h.AppendBinary(dst)
	if err != nil {
		return dst, err
	}
	return append(dst, body...), nil
}

// AppendReplyFrame appends a reply frame: h with Size set to 256 plus
// len(body), then body. It validates h first (a denial must have an empty
// body); on error dst is unchanged.
func AppendReplyFrame(dst []byte, h ReplyHeader, body []byte) ([]byte, error) {
	h.Size = frameSize(len(body))
	dst, err := h.AppendBinary(dst)
	if err != nil {
		return dst, err
	}
	return append(dst, body...), nil
}

// frameSize is the size of a frame with n body bytes, clamped to one past
// MaxFrameSize so that a body too large for a frame fails the header's own
// size rule instead of wrapping around in a u32.
func frameSize(n int) uint32 {
	return uint32(min(uint64(HeaderSize)+uint64(n), MaxFrameSize+1))
}

// resultSectionEmpty is the result section of a committed reply with no
// entries: count 0.
const resultSectionEmpty = 4

// AppendLoginReplyFrame appends the reply to a successful login as the real
// server frames it: h (Size set, Status must be 0), then an empty result
// section (00 00 00 00), then the login reply body. It validates both first;
// on error dst is unchanged.
func AppendLoginReplyFrame(dst []byte, h ReplyHeader, reply LoginReply) ([]byte, error) {
	if err := reply.Validate(); err != nil {
		return dst, err
	}
	h.Size = uint32(HeaderSize + resultSectionEmpty + reply.EncodedLen())
	out, err := h.AppendBinary(dst)
	if err != nil {
		return dst, err
	}
	out = append(out, 0, 0, 0, 0)
	return reply.appendTo(out), nil // validated above
}

// SplitResult reads the result section that starts the body of every
// result-framed reply (Operation.IsResultFramed: the metadata operations,
// StoreConsumerOffset and DeleteConsumerOffset; and a Register reply with a
// body, the login reply after an empty section), WIRE.md section 4:
// [count u32][count x {index u32, result u32}]. Call it on a committed
// reply (status 0); a denial has no body. With count 0,
// or a first entry whose result is 0, it returns the payload after the
// section (nil when empty) and code 0. A non-zero first result is returned
// as code with a nil payload and a nil error: the server reported an error
// and there is no payload. Fewer than 4 bytes, or fewer than 4+8*count, is
// ErrTruncated; an empty body is therefore an error.
func SplitResult(body []byte) (payload []byte, code Status, err error) {
	if len(body) < 4 {
		return nil, 0, newError(ErrTruncated, "result_count", 0, ruleResultCount, "len >= 4")
	}
	count := binary.LittleEndian.Uint32(body)
	end := 4 + 8*uint64(count)
	if uint64(len(body)) < end {
		return nil, 0, newError(ErrTruncated, "result_entries", 4, ruleResultEntries, "len >= 4+8*count")
	}
	if count > 0 {
		if code = Status(binary.LittleEndian.Uint32(body[8:])); code != StatusOK {
			return nil, code, nil
		}
	}
	if rest := body[end:]; len(rest) > 0 {
		payload = rest[:len(rest):len(rest)]
	}
	return payload, 0, nil
}

// PutRequestHeader stamps h in front of a payload already in place: frame
// is the whole request, its first 256 bytes reserved for the header and the
// rest the body. It sets h.Size to len(frame), validates h as AppendBinary
// does, and writes the header over frame[:256], so a payload of megabytes is
// never copied. On error frame is unchanged. A frame shorter than a header
// is ErrTruncated; one above MaxFrameSize is ErrSize (rule request.size).
func PutRequestHeader(frame []byte, h RequestHeader) error {
	if len(frame) < HeaderSize {
		return newError(ErrTruncated, FieldHeader, len(frame), ruleHeaderLength, wantHeader)
	}
	if len(frame) > MaxFrameSize {
		return newError(ErrSize, FieldSize, offSize, ruleReqSize, wantSize)
	}
	h.Size = uint32(len(frame))
	_, err := h.AppendBinary(frame[:0:HeaderSize])
	return err
}
