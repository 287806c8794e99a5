package codec

import (
	"encoding/binary"
	"unicode/utf8"
)

// reader is a decoding cursor with a sticky error: once a read fails every
// later read is a no-op returning zero values, so decoders read straight down
// a layout and look at the error once. Every length is checked against the
// bytes left before it is used, and nothing is ever allocated from one.
type reader struct {
	src []byte
	off int
	err error
}

// left is the number of unread bytes.
func (r *reader) left() int { return len(r.src) - r.off }

// fail records the first error only.
func (r *reader) fail(kind error, field string, off int, rule string) {
	if r.err == nil {
		r.err = newError(kind, field, off, rule)
	}
}

// need reports whether n more bytes are present, failing with ErrTruncated
// for field otherwise. n is an int64 so that a u32 claim cannot overflow.
func (r *reader) need(n int64, field string) bool {
	if r.err != nil {
		return false
	}
	if n > int64(r.left()) {
		r.fail(ErrTruncated, field, r.off, ruleTruncated)
		return false
	}
	return true
}

func (r *reader) u8(field string) uint8 {
	if !r.need(1, field) {
		return 0
	}
	v := r.src[r.off]
	r.off++
	return v
}

// u32 and u64 are written out per width, like kbin's primitives: a width
// parameter would turn the constant-size load into a loop or a switch.
func (r *reader) u32(field string) uint32 {
	if !r.need(4, field) {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.src[r.off:])
	r.off += 4
	return v
}

func (r *reader) u64(field string) uint64 {
	if !r.need(8, field) {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.src[r.off:])
	r.off += 8
	return v
}

// span returns the next n bytes, aliasing the input with capacity capped at
// n; a zero-length span is nil.
func (r *reader) span(n int64, field string) []byte {
	if !r.need(n, field) || n == 0 {
		return nil
	}
	b := r.src[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return b
}

// text reads a UTF-8 field of n bytes.
func (r *reader) text(n int64, field string) []byte {
	start := r.off
	b := r.span(n, field)
	if r.err == nil {
		if i := invalidUTF8(b); i >= 0 {
			r.fail(ErrUTF8, field, start+i, ruleUTF8)
		}
	}
	return b
}

// text8 reads a u8 length then that many bytes of UTF-8; a length below
// minLen is ErrLength at the length byte.
func (r *reader) text8(lenField, field string, minLen int) []byte {
	at := r.off
	n := r.u8(lenField)
	if r.err == nil && int(n) < minLen {
		r.fail(ErrLength, lenField, at, ruleNonEmpty)
	}
	return r.text(int64(n), field)
}

// text32 reads a u32 length then that many bytes of UTF-8. The length is a
// claim checked against the bytes present, never an allocation size.
func (r *reader) text32(lenField, field string) []byte {
	n := r.u32(lenField)
	return r.text(int64(n), field)
}

// invalidUTF8 returns the index of the first byte of b that does not start a
// valid UTF-8 sequence, or -1 when b is valid. The fast path is utf8.Valid.
func invalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	// b is invalid, so the walk below ends on a bad byte before running out.
	i := 0
	for {
		c, size := utf8.DecodeRune(b[i:])
		if c == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
}

// Rules shared by bodies, written like code.
const (
	ruleTruncated = "field extends past the end of the input"
	ruleNonEmpty  = "len >= 1"
	ruleUTF8      = "valid UTF-8"
	ruleMax8      = "len <= 255"
	ruleMax32     = "len <= 4294967295"
	ruleTrailing  = "no bytes after the last field"
)

// decoded returns v, read by r, with the bytes r used, or r's error: the
// exact, rule-by-rule path of every body decoder, as in
// decoded(r.loginReply(), &r).
func decoded[T any](v T, r *reader) (T, int, error) {
	if r.err != nil {
		var zero T
		return zero, 0, r.err
	}
	return v, r.off, nil
}

// parsed is decoded for a whole-buffer parse: bytes after v are
// ErrTrailing.
func parsed[T any](v T, r *reader) (T, error) {
	if r.err == nil {
		r.err = trailing(r.src, r.off)
	}
	if r.err != nil {
		var zero T
		return zero, r.err
	}
	return v, nil
}
