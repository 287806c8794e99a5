package codec

import (
	"encoding/binary"
	"math"
)

// checkText validates a text field about to be encoded at offset off (the
// offset of its length prefix). prefix is the width of the length prefix (1
// or 4); minLen is 0 or 1. It returns the first broken rule: too short, too
// long, then invalid UTF-8.
func checkText(b []byte, lenField, field string, off, prefix, minLen int) error {
	if len(b) < minLen {
		return newError(ErrLength, lenField, off, ruleNonEmpty)
	}
	if prefix == 1 && len(b) > math.MaxUint8 {
		return newError(ErrLength, lenField, off, ruleMax8)
	}
	if prefix == 4 && uint64(len(b)) > math.MaxUint32 {
		return newError(ErrLength, lenField, off, ruleMax32)
	}
	if i := invalidUTF8(b); i >= 0 {
		return newError(ErrUTF8, field, off+prefix+i, ruleUTF8)
	}
	return nil
}

// appendText8 appends a u8 length and b; b was checked by checkText.
func appendText8(dst, b []byte) []byte {
	dst = append(dst, byte(len(b)))
	return append(dst, b...)
}

// appendText32 appends a u32 length and b; b was checked by checkText.
func appendText32(dst, b []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(b)))
	return append(dst, b...)
}

// trailing is the ErrTrailing of a Parse that consumed n of len(src) bytes.
func trailing(src []byte, n int) error {
	if n < len(src) {
		return newError(ErrTrailing, "body", n, ruleTrailing)
	}
	return nil
}
