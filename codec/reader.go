package codec

import (
	"encoding/binary"
	"unicode/utf8"
)

// reader is a decoding cursor with a sticky error: once a read fails every
// later read is a no-op returning zero values, so decoders read straight down
// a layout and look at the error once. Every length is checked against the
// bytes left before it is used, and nothing is ever allocated from one.
//
// truncated is the rule id of a field missing from the input: the
// message's own (login.truncated), set by the decoder that makes the
// reader, and cvi.truncated while clientInfo reads the prefix of a login
// body. It is a constant, chosen by the decoder, never built.
//
// rev is the revision of the body read, which an error of it names
// (Error.Revision); RevisionBase for every message but the two login bodies
// read by revision, so that their errors stay what they were.
type reader struct {
	src       []byte
	off       int
	err       error
	truncated string
	rev       Revision
}

// left is the number of unread bytes.
func (r *reader) left() int { return len(r.src) - r.off }

// fail records the first error only.
func (r *reader) fail(kind error, field Field, off int, rule, want string) {
	if r.err == nil {
		r.err = withRevision(newError(kind, field, off, rule, want), r.rev)
	}
}

// bindSecret reads the bind secret of a login body of revision rev: 32 raw
// bytes for RevisionBindSecret, nothing for RevisionBase. A rev that is not
// known is the caller's error, reported at the secret's offset.
func (r *reader) bindSecret(rev Revision) Secret {
	if r.err == nil && !rev.IsKnown() {
		r.fail(ErrField, "revision", r.off, ruleBodyRevision, wantRevision)
		return Secret{}
	}
	if rev.secretLen() == 0 {
		return Secret{}
	}
	return NewSecret(r.span(int64(rev.secretLen()), "bind_secret", r.truncated))
}

// need reports whether n more bytes are present, failing with ErrTruncated
// for field under rule otherwise. n is an int64 so that a u32 claim cannot
// overflow.
func (r *reader) need(n int64, field Field, rule string) bool {
	if r.err != nil {
		return false
	}
	if n > int64(r.left()) {
		r.fail(ErrTruncated, field, r.off, rule, wantInInput)
		return false
	}
	return true
}

func (r *reader) u8(field Field) uint8 {
	if !r.need(1, field, r.truncated) {
		return 0
	}
	v := r.src[r.off]
	r.off++
	return v
}

// u32 and u64 are written out per width, like kbin's primitives: a width
// parameter would turn the constant-size load into a loop or a switch.
func (r *reader) u32(field Field) uint32 {
	if !r.need(4, field, r.truncated) {
		return 0
	}
	v := binary.LittleEndian.Uint32(r.src[r.off:])
	r.off += 4
	return v
}

func (r *reader) u64(field Field) uint64 {
	if !r.need(8, field, r.truncated) {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.src[r.off:])
	r.off += 8
	return v
}

// span returns the next n bytes, aliasing the input with capacity capped at
// n; a zero-length span is nil. rule is the id reported when they are
// missing.
func (r *reader) span(n int64, field Field, rule string) []byte {
	if !r.need(n, field, rule) || n == 0 {
		return nil
	}
	b := r.src[r.off : r.off+int(n) : r.off+int(n)]
	r.off += int(n)
	return b
}

// text reads the n bytes of the UTF-8 field f.
func (r *reader) text(n int64, f *textField) []byte {
	start := r.off
	b := r.span(n, f.name, f.truncated)
	if r.err == nil {
		if i := invalidUTF8(b); i >= 0 {
			r.fail(ErrUTF8, f.name, f.utf8At(start, i), f.utf8, wantUTF8)
		}
	}
	return b
}

// text8 reads the u8 length of f then that many bytes of UTF-8; a length
// below f.minLen is ErrLength at the length byte.
func (r *reader) text8(f *textField) []byte {
	at := r.off
	n := r.u8(f.lenName)
	if r.err == nil && int(n) < f.minLen {
		r.fail(ErrLength, f.lenName, at, f.length, wantNonEmpty)
	}
	return r.text(int64(n), f)
}

// text32 reads the u32 length of f then that many bytes of UTF-8. The
// length is a claim checked against the bytes present, never an
// allocation size.
func (r *reader) text32(f *textField) []byte {
	n := r.u32(f.lenName)
	return r.text(int64(n), f)
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
// ErrTrailing, under the rule id trail.
func parsed[T any](v T, r *reader, trail string) (T, error) {
	if r.err == nil {
		r.err = trailing(r.src, r.off, trail)
	}
	if r.err != nil {
		var zero T
		return zero, r.err
	}
	return v, nil
}
