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

// appendFull reads exactly n bytes from r and appends them to dst, growing
// dst at most readChunk bytes ahead of what has arrived, so that a peer
// announcing a large frame and sending nothing costs no large allocation.
// On error the bytes read so far are appended.
func appendFull(r io.Reader, dst []byte, n int) ([]byte, error) {
	for n > 0 {
		step := min(n, readChunk)
		at := len(dst)
		dst = append(dst, make([]byte, step)...)
		got, err := io.ReadFull(r, dst[at:])
		if err != nil {
			return dst[:at+got], err
		}
		n -= step
	}
	return dst, nil
}
