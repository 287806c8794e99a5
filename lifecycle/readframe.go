package lifecycle

import (
	"io"

	"github.com/iggywire/iggywire/codec"
)

// ReadFrame reads one frame from r (a 256-byte header, then the body its
// size announces) and appends it to dst. A size outside 256..64 MiB is an
// error matching ErrFrameSize: the stream cannot be read further. A client
// transport uses it to read the server's answers.
func ReadFrame(r io.Reader, dst []byte) ([]byte, error) {
	start := len(dst)
	dst = append(dst, make([]byte, codec.HeaderSize)...)
	if _, err := io.ReadFull(r, dst[start:]); err != nil {
		return dst[:start], err
	}
	size, err := codec.FrameSize(dst[start:])
	if err != nil {
		return dst[:start], wrap(ErrFrameSize, err)
	}
	dst = append(dst, make([]byte, size-codec.HeaderSize)...)
	if _, err := io.ReadFull(r, dst[start+codec.HeaderSize:]); err != nil {
		return dst[:start], err
	}
	return dst, nil
}
