package codec

// Header is a 256-byte header as it sits in a buffer, for reading its
// fields before (or instead of) judging the whole header: an SDK correlates
// a reply by its request number, reads a denial's status and maps an
// eviction's reason this way. A *[256]byte converts to it for free:
// (*codec.Header)(buf). Command, Size and FrameSize read the prologue every
// kind shares; Reply, Request and Eviction return the same bytes as that
// kind's fields (h.Reply().Status()). Every read is a plain load at the
// field's offset, with no rule checked and no error where none can occur.
// Decode the header (DecodeReplyHeader, DecodeEviction, or their Lenient
// forms) to know which rules it breaks.
type Header [HeaderSize]byte

// HeaderOf returns the first 256 bytes of src as a *Header, aliasing src.
// Its one check is the length: a shorter src is ErrTruncated (rule
// header.length).
func HeaderOf(src []byte) (*Header, error) {
	if len(src) < HeaderSize {
		return nil, newError(ErrTruncated, FieldHeader, len(src), ruleHeaderLength, wantHeader)
	}
	return (*Header)(src), nil
}

func (h *Header) b() *hdr { return (*hdr)(h) }

// Command returns byte 60, the frame kind.
func (h *Header) Command() Command { return Command(h[offCommand]) }

// Size returns the size field (bytes 48..52) as the wire carries it,
// unchecked. FrameSize checks it.
func (h *Header) Size() uint32 { return le32(h.b(), offSize) }

// FrameSize returns the frame's size when the size field is within
// 256..MaxFrameSize, as FrameSize does for a []byte.
func (h *Header) FrameSize() (int, error) {
	size := h.Size()
	if err := checkSize(size, ruleFrameSize); err != nil {
		return 0, err
	}
	return int(size), nil
}

// Reply returns h as a reply's fields, h.Request() as a request's and
// h.Eviction() as an eviction's: the same bytes, no copy, no check of byte
// 60. A reader that has looked at Command, or that expects one kind (an SDK
// reading the answer to its request), reads the fields of that kind.
func (h *Header) Reply() *ReplyFields { return (*ReplyFields)(h) }

// Request returns h as a request's fields; see Reply.
func (h *Header) Request() *RequestFields { return (*RequestFields)(h) }

// Eviction returns h as an eviction's fields; see Reply.
func (h *Header) Eviction() *EvictionFields { return (*EvictionFields)(h) }

// RequestFields reads a request header's fields where a request carries
// them: plain loads, no rule checked (DecodeRequestHeader judges them).
type RequestFields [HeaderSize]byte

func (f *RequestFields) b() *hdr { return (*hdr)(f) }

// Client returns bytes 128..144.
func (f *RequestFields) Client() Uint128 { return le128(f.b(), offReqClient) }

// Request returns the request number, bytes 168..176.
func (f *RequestFields) Request() uint64 { return le64(f.b(), offReqRequest) }

// Operation returns byte 176.
func (f *RequestFields) Operation() Operation { return Operation(f[offReqOperation]) }

// Session returns bytes 184..192.
func (f *RequestFields) Session() uint64 { return le64(f.b(), offReqSession) }

// Code returns bytes 196..200: the command code when the operation is
// NonReplicated (reserved, and zero in a valid request, otherwise).
func (f *RequestFields) Code() Code { return Code(le32(f.b(), offReqCode)) }

// ReplyFields reads a reply header's fields where a reply carries them:
// plain loads, no rule checked (DecodeReplyHeader and
// DecodeReplyHeaderLenient judge them).
type ReplyFields [HeaderSize]byte

func (f *ReplyFields) b() *hdr { return (*hdr)(f) }

// Client returns bytes 160..176.
func (f *ReplyFields) Client() Uint128 { return le128(f.b(), offRepClient) }

// Request returns the request number answered, bytes 200..208.
func (f *ReplyFields) Request() uint64 { return le64(f.b(), offRepRequest) }

// Operation returns byte 208.
func (f *ReplyFields) Operation() Operation { return Operation(f[offRepOperation]) }

// Status returns bytes 216..220: non-zero for a denial.
func (f *ReplyFields) Status() Status { return Status(le32(f.b(), offRepStatus)) }

// EvictionFields reads an eviction's fields: plain loads, no rule checked
// (DecodeEviction and DecodeEvictionLenient judge them).
type EvictionFields [HeaderSize]byte

func (f *EvictionFields) b() *hdr { return (*hdr)(f) }

// Client returns bytes 128..144.
func (f *EvictionFields) Client() Uint128 { return le128(f.b(), offEvClient) }

// Reason returns byte 255.
func (f *EvictionFields) Reason() EvictionReason { return EvictionReason(f[offEvReason]) }

// Window returns the accept window (Max at byte 144, Min at 148).
func (f *EvictionFields) Window() Window {
	return Window{Max: Version(le32(f.b(), offEvWindowMax)), Min: Version(le32(f.b(), offEvWindowMin))}
}
