package lifecycle

import (
	"github.com/iggywire/iggywire/codec"
)

// checkFrame is the check of every whole frame handed to a state machine:
// it holds a size field, within 256..64 MiB, that is its length. Otherwise
// the next frame cannot be found, and the error is a *codec.Error matching
// codec.ErrSize, the one sentinel for a frame whose size cannot be used
// (the package has no size sentinel of its own).
func checkFrame(frame []byte) error {
	if len(frame) < codec.HeaderSize {
		return sizeError(codec.FieldHeader, len(frame), "len(frame) >= 256")
	}
	size, err := codec.FrameSize(frame)
	if err != nil {
		return err
	}
	if size != len(frame) {
		return sizeError(codec.FieldSize, 48, "size == len(frame)")
	}
	return nil
}

// sizeError is checkFrame's error for a frame that is shorter than a header
// or whose size field is not its length. It names no rule of the wire: the
// frame handed in is not one frame, whatever its bytes.
func sizeError(field codec.Field, off int, want string) error {
	return &codec.Error{Field: field, Offset: off, Want: want, Err: codec.ErrSize}
}
