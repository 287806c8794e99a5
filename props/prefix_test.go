package props

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// prefixAgreement: Decode on b ++ junk returns the value of b and uses
// exactly len(b) bytes; Parse on it fails with ErrTrailing at offset
// len(b) whenever junk is non-empty. A header decoder reads the first 256
// bytes and leaves the body alone.
func (k kind[T]) prefixAgreement() gopter.Prop {
	return prop.ForAll(func(v T, junk []byte) string {
		b, _ := appendMessage(nil, &v)
		bj := append(b[:len(b):len(b)], junk...)
		got, n, err := k.decode(bj)
		if err != nil || n != len(b) || !k.equal(got, v) {
			return fmt.Sprintf("Decode(b ++ % x) = %s, %d, %v; want %d bytes", junk, Describe(got), n, err, len(b))
		}
		if k.parse == nil {
			return ""
		}
		_, err = k.parse(bj)
		if len(junk) == 0 {
			if err != nil {
				return "Parse(b) = " + err.Error()
			}
			return ""
		}
		var ce *codec.Error
		if !errors.Is(err, codec.ErrTrailing) || !errors.As(err, &ce) || ce.Offset != len(b) {
			return fmt.Sprintf("Parse(b ++ % x) = %v; want ErrTrailing at %d", junk, err, len(b))
		}
		return ""
	}, k.gen(), gen.SliceOf(gen.UInt8()))
}

func TestPrefixAgreement(t *testing.T) {
	forEachKind(t, func(t *testing.T, k propKind) {
		property(t, 1, "Decode(b ++ junk) == Decode(b)", k.prefixAgreement())
	})
}
