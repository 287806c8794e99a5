package codec

import (
	"errors"
	"io"
)

// ErrFrameTooLarge is what ReadFrame returns for a frame whose size is
// valid on the wire but above the limit it was given: the body is not
// read. A server that caps frames may answer a valid request header so
// with Eviction 6 (InvalidRequestBodySize) and close (WIRE.md section 7,
// point 8).
var ErrFrameTooLarge = errors.New("codec: frame above the reader's limit")

// ReadFrame reads one frame from r (a 256-byte header, then the body its
// size announces) and appends it to dst: the stream reader beside
// FrameSize, for a client reading a server's answers and a server reading
// requests.
//
//   - A size outside 256..MaxFrameSize is FrameSize's *Error (matching
//     ErrSize, rule frame.size): the stream cannot be read further.
//   - A size above limit (at most MaxFrameSize counts) is ErrFrameTooLarge;
//     the body is not read.
//
// On either, dst is returned with the 256-byte header appended, so that a
// server can answer or trace it; on a read error dst is returned with its
// length unchanged. Memory grows with the bytes that actually arrive,
// never with what the size field claims.
//
// io.EOF means the stream ended cleanly between frames: not one byte of a
// new frame arrived. A stream that ends anywhere inside a frame (in the
// header, right after it, or anywhere in the body) is io.ErrUnexpectedEOF,
// so a loop that stops on io.EOF never takes a cut frame for a close.
func ReadFrame(r io.Reader, dst []byte, limit int) ([]byte, error) {
	start := len(dst)
	dst, err := appendFull(r, dst, HeaderSize)
	if err != nil {
		return dst[:start], err
	}
	size, err := FrameSize(dst[start:])
	switch {
	case err != nil:
		return dst, err
	case size > limit:
		return dst, ErrFrameTooLarge
	}
	if dst, err = appendFull(r, dst, size-HeaderSize); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // the header came: the frame is cut
		}
		return dst[:start], err
	}
	return dst, nil
}

// readChunk bounds how far a buffer grows ahead of the bytes read into it.
const readChunk = 64 << 10

// appendFull reads exactly n bytes from r and appends them to dst. Its
// capacity grows with what has arrived, to at most twice that or readChunk
// beyond it, and never past the n bytes announced: a peer announcing a
// large frame and sending nothing costs no large allocation, and one that
// sends it all costs one copy per doubling, not one per chunk. On error the
// bytes read so far are appended. io.EOF means no byte of the n arrived; a
// stream that ends after some of them, at a chunk boundary too, is
// io.ErrUnexpectedEOF.
func appendFull(r io.Reader, dst []byte, n int) ([]byte, error) {
	first, end := len(dst), len(dst)+n
	for len(dst) < end {
		at := len(dst)
		step := min(end-at, readChunk)
		if cap(dst)-at < step {
			dst = regrow(dst, min(end, max(2*cap(dst), at+step)))
		}
		dst = dst[:at+step]
		got, err := readFull(r, dst[at:])
		if err == io.EOF && at > first {
			err = io.ErrUnexpectedEOF // a chunk boundary is not a frame's end
		}
		if err != nil {
			return dst[:at+got], err
		}
	}
	return dst, nil
}

// errBadCount is readFull's error for a Read that returned a count outside
// 0..len(p), which io.ReadFull would turn into a panic.
var errBadCount = errors.New("codec: reader returned a count outside 0..len(p)")

// maxEmptyReads is how many Reads in a row may return no byte and no error
// before readFull gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

// readFull is io.ReadFull that does not trust r: a count outside
// 0..len(p) is errBadCount and a reader that makes no progress is
// io.ErrNoProgress, not a panic or a spin.
func readFull(r io.Reader, p []byte) (int, error) {
	got, empty := 0, 0
	for got < len(p) {
		n, err := r.Read(p[got:])
		if n < 0 || n > len(p)-got {
			return got, errBadCount
		}
		if got += n; got == len(p) {
			break // all of it: an error with the last bytes does not count
		}
		switch {
		case err == io.EOF && got == 0:
			return 0, io.EOF
		case err == io.EOF:
			return got, io.ErrUnexpectedEOF
		case err != nil:
			return got, err
		case n > 0:
			empty = 0
		case empty == maxEmptyReads-1:
			return got, io.ErrNoProgress
		default:
			empty++
		}
	}
	return got, nil
}

// regrow copies b into a new buffer of capacity c.
func regrow(b []byte, c int) []byte {
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}

// ReadFrameHeader reads the 256-byte header of the next frame from r into h
// and returns the frame's size, for a reader that decides what to do with a
// header before it reads the body (the header-then-body split of
// x/net/http2's ReadFrameHeader). It reads nothing past the header. io.EOF
// means the stream ended cleanly before the frame; a stream that ends inside
// the header is io.ErrUnexpectedEOF. A size field outside 256..MaxFrameSize
// is FrameSize's *Error (ErrSize): the stream cannot be read further. h
// holds what was read either way.
func ReadFrameHeader(r io.Reader, h *Header) (int, error) {
	if _, err := readFull(r, h[:]); err != nil {
		return 0, err
	}
	return h.FrameSize()
}

// ReadFrameBody reads the body of the frame whose header is h from r and
// appends it to dst, at its exact size: one allocation at most, when dst
// lacks the room, and none of the doubling ReadFrame does. It is for a
// reader that trusts the sizes it accepts up to limit, such as a client
// reading its server's replies with a cap of its choosing; a size above
// limit is ErrFrameTooLarge and nothing is read or allocated. (A server,
// which must not allocate what a peer merely claims, reads with ReadFrame.)
// A stream that ends inside the body is io.ErrUnexpectedEOF, and dst is
// returned with its length unchanged on any error.
func ReadFrameBody(r io.Reader, h *Header, dst []byte, limit int) ([]byte, error) {
	size, err := h.FrameSize()
	if err != nil {
		return dst, err
	}
	if size > limit {
		return dst, ErrFrameTooLarge
	}
	start, n := len(dst), size-HeaderSize
	if cap(dst)-start < n {
		dst = regrow(dst, start+n)
	}
	dst = dst[:start+n]
	if _, err := readFull(r, dst[start:]); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF // the header came: the frame is cut
		}
		return dst[:start], err
	}
	return dst, nil
}
