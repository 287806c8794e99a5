package lifecycle

import (
	"errors"

	"github.com/iggywire/iggywire/codec"
)

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
