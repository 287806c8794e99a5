package props

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
)

// strict decodes b as exactly one T: Parse for a body, and for a header the
// decoder on exactly 256 bytes (a header has no other length to check).
func (k kind[T]) strict(b []byte) (T, error) {
	if k.parse != nil {
		return k.parse(b)
	}
	if len(b) > codec.HeaderSize {
		var zero T
		return zero, errTooLong
	}
	v, _, err := k.decode(b)
	return v, err
}

// errTooLong marks a header case with more than 256 bytes, which strict
// leaves to the prefix property.
var errTooLong = errors.New("longer than a header")

// canonical: whatever bytes the strict decoder accepts are exactly the
// bytes AppendBinary writes for the value it returns. Inputs are hostile
// mutations of valid encodings; accepted counts how many were accepted so
// that the property is not vacuous.
func (k kind[T]) canonical(accepted *int) gopter.Prop {
	return prop.ForAll(func(h Hostile[T]) string {
		b := h.Bytes()
		v, err := k.strict(b)
		if err != nil {
			return ""
		}
		*accepted++
		out, err := appendMessage(nil, &v)
		if err != nil {
			return "accepted value does not encode: " + err.Error()
		}
		if !bytes.Equal(out, b) {
			return fmt.Sprintf("accepted % x\nre-encoded % x", b, out)
		}
		return ""
	}, GenHostile[T](k.gen()))
}

func TestCanonical(t *testing.T) {
	forEachKind(t, func(t *testing.T, k propKind) {
		accepted := 0
		property(t, 1, "AppendBinary(Parse(b)) == b", k.canonical(&accepted))
		t.Logf("%d hostile inputs accepted", accepted)
		assert.Positive(t, accepted, "no hostile input was accepted: the property checked nothing")
	})
}
