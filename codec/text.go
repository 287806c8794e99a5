package codec

import (
	"encoding/binary"
	"math"
)

// checkText validates the text b of field f about to be encoded at offset
// off (the offset of its length prefix). It returns the first broken rule:
// too short, too long for the prefix, then invalid UTF-8, under the ids a
// decoder reports for the same bytes (too long has no bytes: it is the
// length rule of f).
func checkText(b []byte, f *textField, off int) error {
	if len(b) < f.minLen {
		return newError(ErrLength, f.lenName, off, f.length, wantNonEmpty)
	}
	// One comparison for both widths, so that the 4 GiB bound needs no
	// branch of its own that only a 4 GiB field could reach.
	maxLen, want := uint64(math.MaxUint8), wantMax8
	if f.prefix == 4 {
		maxLen, want = math.MaxUint32, wantMax32
	}
	if uint64(len(b)) > maxLen {
		return newError(ErrLength, f.lenName, off, f.length, want)
	}
	if i := invalidUTF8(b); i >= 0 {
		return newError(ErrUTF8, f.name, f.utf8At(off+f.prefix, i), f.utf8, wantUTF8)
	}
	return nil
}

// utf8At is the offset a UTF-8 error of f names, for text starting at
// start whose first bad byte is its i-th: that byte's for a text, the
// field's start for a secret (a password or a token), since where in a
// secret its first bad byte lies says something about the secret.
func (f *textField) utf8At(start, i int) int {
	if f.secret {
		return start
	}
	return start + i
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

// trailing is the ErrTrailing of a Parse that consumed n of len(src)
// bytes, under the rule id rule.
func trailing(src []byte, n int, rule string) error {
	if n < len(src) {
		return newError(ErrTrailing, "body", n, rule, wantNoTrail)
	}
	return nil
}

// fitsU32 reports whether b's length fits a u32 length prefix.
func fitsU32(b []byte) bool { return uint64(len(b)) <= math.MaxUint32 }
