package lifecycle

import (
	"io"

	"github.com/iggywire/iggywire/codec"
)

// ReadFrame reads one frame from r (a 256-byte header, then the body its
// size announces) and appends it to dst. A size outside 256..64 MiB is an
// error matching ErrFrameSize: the stream cannot be read further. A client
// transport uses it to read the server's answers. Memory grows with the
// bytes that actually arrive, never with what the size field claims.
func ReadFrame(r io.Reader, dst []byte) ([]byte, error) {
	start := len(dst)
	dst, err := appendFull(r, dst, codec.HeaderSize)
	if err != nil {
		return dst[:start], err
	}
	size, err := codec.FrameSize(dst[start:])
	if err != nil {
		return dst[:start], wrap(ErrFrameSize, err)
	}
	if dst, err = appendFull(r, dst, size-codec.HeaderSize); err != nil {
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
