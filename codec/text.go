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
	// One comparison for both widths, so that the 4 GiB bound needs no
	// branch of its own that only a 4 GiB field could reach.
	maxLen, rule := uint64(math.MaxUint8), ruleMax8
	if prefix == 4 {
		maxLen, rule = math.MaxUint32, ruleMax32
	}
	if uint64(len(b)) > maxLen {
		return newError(ErrLength, lenField, off, rule)
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

// fitsU32 reports whether b's length fits a u32 length prefix.
func fitsU32(b []byte) bool { return uint64(len(b)) <= math.MaxUint32 }
