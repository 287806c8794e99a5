package lifecycle

import (
	"errors"
	"io"

	"github.com/iggywire/iggywire/codec"
)

// ErrFrameTooLarge matches the error ReadFrame returns for a frame whose
// size is valid on the wire but above the cap it was given. A transport
// that caps frames reports it (a TCP listener through its Trace): the
// body is not read, and WIRE.md section 7 point 8 lets such a server
// answer a valid request header with Eviction 6 (InvalidRequestBodySize)
// and close.
var ErrFrameTooLarge = errors.New("lifecycle: frame above the listener's MaxFrame")

// ReadFrame reads one frame from r (a 256-byte header, then the body its
// size announces) and appends it to dst. It is the one stream frame reader
// of the module: client transports read the server's answers with it, and
// the TCP listener its requests.
//
//   - A size outside 256..64 MiB is an error matching ErrFrameSize: the
//     stream cannot be read further.
//   - A size above max (at most 64 MiB counts) is ErrFrameTooLarge; the
//     body is not read.
//
// On either, dst is returned with the 256-byte header appended, so that a
// server can answer or trace it; on a read error dst is returned with its
// length unchanged. Memory grows with the bytes that actually arrive,
// never with what the size field claims.
func ReadFrame(r io.Reader, dst []byte, max int) ([]byte, error) {
	start := len(dst)
	dst, err := appendFull(r, dst, codec.HeaderSize)
	if err != nil {
		return dst[:start], err
	}
	size, err := codec.FrameSize(dst[start:])
	switch {
	case err != nil:
		return dst, wrap(ErrFrameSize, err)
	case size > max:
		return dst, ErrFrameTooLarge
	}
	if dst, err = appendFull(r, dst, size-codec.HeaderSize); err != nil {
		return dst[:start], err
	}
	return dst, nil
}

// errFrameLen is the cause of an ErrFrameSize whose size field is usable but
// does not match the frame handed in.
var errFrameLen = errors.New("len(frame) != size")

// checkFrame is the check of every whole frame handed to a state machine:
// its size field is within 256..64 MiB and is its length. Otherwise the
// next frame cannot be found, and the error matches ErrFrameSize.
func checkFrame(frame []byte) error {
	size, err := codec.FrameSize(frame)
	if err == nil && size != len(frame) {
		err = errFrameLen
	}
	if err != nil {
		return wrap(ErrFrameSize, err)
	}
	return nil
}

// readChunk bounds how far a buffer grows ahead of the bytes read into it.
const readChunk = 64 << 10

// appendFull reads exactly n bytes from r and appends them to dst. Its
// capacity grows with what has arrived, to at most twice that or readChunk
// beyond it, and never past the n bytes announced: a peer announcing a
// large frame and sending nothing costs no large allocation, and one that
// sends it all costs one copy per doubling, not one per chunk. On error the
// bytes read so far are appended.
func appendFull(r io.Reader, dst []byte, n int) ([]byte, error) {
	end := len(dst) + n
	for len(dst) < end {
		at := len(dst)
		step := min(end-at, readChunk)
		if cap(dst)-at < step {
			dst = regrow(dst, min(end, max(2*cap(dst), at+step)))
		}
		dst = dst[:at+step]
		got, err := io.ReadFull(r, dst[at:])
		if err != nil {
			return dst[:at+got], err
		}
	}
	return dst, nil
}

// regrow copies b into a new buffer of capacity c.
func regrow(b []byte, c int) []byte {
	nb := make([]byte, len(b), c)
	copy(nb, b)
	return nb
}
