package props

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
)

// rejectPrefixes: every proper prefix of a valid encoding is rejected with
// ErrTruncated, by the prefix decoder and by the strict one.
func (k kind[T]) rejectPrefixes() gopter.Prop {
	return prop.ForAll(func(v T) string {
		b, _ := appendMessage(nil, &v)
		for i := range len(b) {
			if _, _, err := k.decode(b[:i]); !errors.Is(err, codec.ErrTruncated) {
				return fmt.Sprintf("Decode(first %d of %d bytes) = %v; want ErrTruncated", i, len(b), err)
			}
			if _, err := k.strict(b[:i]); !errors.Is(err, codec.ErrTruncated) {
				return fmt.Sprintf("strict decode of first %d of %d bytes = %v; want ErrTruncated", i, len(b), err)
			}
		}
		return ""
	}, k.gen())
}

// expectation is what a hostile case must produce when the mutation alone
// decides it: the sentinel, and the field and offset the error names
// (offset -1: any).
type expectation struct {
	label  string
	err    error
	field  string
	offset int
}

// expect derives, from the mutation and the layout alone, the error a
// strict decode must report; ok is false when the outcome depends on more
// than the mutation (e.g. a length claim that still fits).
func expect(v any, m Mutation, enc, b []byte) (expectation, bool) {
	l := LayoutOf(v)
	switch {
	case len(b) < len(enc) && m.Op == MutTruncate:
		return expectation{"truncate", codec.ErrTruncated, "", -1}, true
	case m.Op == MutExtend && len(l.Texts) > 0:
		return expectation{"extend", codec.ErrTrailing, "body", len(enc)}, true
	case m.Op == MutBadUTF8 && len(l.Texts) > 0:
		t, ok := m.target(l)
		if !ok {
			return expectation{}, false
		}
		return badUTF8Expectation(t, b)
	case m.Op == MutClaim:
		return claimExpectation(v, l, m, b)
	}
	if i, s, ok := flippedReserved(l, enc, b); ok {
		return expectation{"flip-reserved", codec.ErrReserved, s.Name, i}, true
	}
	return expectation{}, false
}

// badUTF8Expectation: the field now holds invalid UTF-8, so the error is
// ErrUTF8 naming the field at its first invalid byte; for a password or a
// token at the field's first byte, since where a secret's bad byte sits
// would say something of the secret (WIRE.md section 9, secret_utf8).
func badUTF8Expectation(t TextField, b []byte) (expectation, bool) {
	field := b[t.Off : t.Off+t.Len]
	if utf8.Valid(field) {
		return expectation{}, false
	}
	if t.Name == "password" || t.Name == "token" {
		return expectation{"badutf8", codec.ErrUTF8, t.Name, t.Off}, true
	}
	i := 0
	for {
		r, size := utf8.DecodeRune(field[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	return expectation{"badutf8", codec.ErrUTF8, t.Name, t.Off + i}, true
}

// claimExpectation: a text length claiming more than the bytes after it is
// ErrTruncated; a header size above the cap is ErrSize, and so is any
// change of an eviction's size; a denial reply's is ErrField (reply.status)
// when it is still in range.
func claimExpectation(v any, l Layout, m Mutation, b []byte) (expectation, bool) {
	f := l.Lengths[int(m.Pos)%len(l.Lengths)]
	if f.Name != "size" {
		claim := uint64(b[f.Off])
		if f.Size == 4 {
			claim = uint64(binary.LittleEndian.Uint32(b[f.Off:]))
		}
		if claim > uint64(len(b)-f.Off-f.Size) {
			return expectation{"claim-truncated", codec.ErrTruncated, "", -1}, true
		}
		return expectation{}, false
	}
	off := f.Off // the size field, from the header's layout
	size := binary.LittleEndian.Uint32(b[off:])
	_, eviction := v.(codec.Eviction)
	r, reply := v.(codec.ReplyHeader)
	switch {
	case size > codec.MaxFrameSize || size < codec.HeaderSize || eviction:
		return expectation{"claim-size", codec.ErrSize, "size", off}, true
	case reply && r.Status != 0:
		// a usable size, but a denial's must be 256: the status rule
		return expectation{"claim-size", codec.ErrField, "size", off}, true
	}
	return expectation{}, false
}

// flippedReserved reports the one reserved byte b changed from enc, if the
// only difference is there.
func flippedReserved(l Layout, enc, b []byte) (int, Span, bool) {
	if len(enc) != len(b) {
		return 0, Span{}, false
	}
	diff := -1
	for i := range b {
		if b[i] != enc[i] {
			if diff >= 0 {
				return 0, Span{}, false
			}
			diff = i
		}
	}
	for _, s := range l.Reserved {
		if diff >= s.Off && diff < s.Off+s.Len {
			return diff, s, true
		}
	}
	return 0, Span{}, false
}

// rejectHostile: every hostile case whose outcome the mutation decides is
// rejected with the expected sentinel, naming the expected field at the
// expected offset. counts tallies the cases by kind of expectation.
func (k kind[T]) rejectHostile(counts map[string]int) gopter.Prop {
	return prop.ForAll(func(h Hostile[T]) string {
		enc, _ := appendMessage(nil, &h.V)
		b := h.Bytes()
		want, ok := expect(h.V, h.M, enc, b)
		if !ok {
			return ""
		}
		counts[want.label]++
		_, err := k.strict(b)
		var ce *codec.Error
		if !errors.Is(err, want.err) || !errors.As(err, &ce) {
			return fmt.Sprintf("%s: got %v, want %v", want.label, err, want.err)
		}
		if want.field != "" && string(ce.Field) != want.field || want.offset >= 0 && ce.Offset != want.offset {
			return fmt.Sprintf("%s: got %v, want field %q at offset %d", want.label, err, want.field, want.offset)
		}
		return ""
	}, GenHostile[T](k.gen()))
}

func TestRejectPrefixes(t *testing.T) {
	forEachKind(t, func(t *testing.T, k propKind) {
		property(t, 8, "every proper prefix is ErrTruncated", k.rejectPrefixes())
	})
}

func TestRejectHostile(t *testing.T) {
	forEachKind(t, func(t *testing.T, k propKind) {
		counts := map[string]int{}
		property(t, 1, "hostile bytes are rejected as the mutation dictates", k.rejectHostile(counts))
		t.Logf("checked: %v", counts)
		want := []string{"truncate", "claim-truncated", "badutf8", "extend"}
		if k.isHeader() {
			want = []string{"truncate", "flip-reserved", "claim-size"}
		}
		for _, label := range want {
			assert.Positive(t, counts[label], "no %s case was checked", label)
		}
	})
}
