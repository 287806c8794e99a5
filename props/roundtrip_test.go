package props

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// roundTrip: for every valid x, AppendBinary(x) has EncodedLen(x) bytes, appends
// after whatever dst held without touching it (and writes every byte it
// appends, whatever garbage dst's spare capacity held), and Decode and Parse
// give x back, using every byte.
func (k kind[T]) roundTrip() gopter.Prop {
	return prop.ForAll(func(v T) string {
		b, err := appendMessage(nil, &v)
		if err != nil {
			return "AppendBinary(" + Describe(v) + "): " + err.Error()
		}
		if len(b) != v.EncodedLen() {
			return fmt.Sprintf("len(AppendBinary) = %d, EncodedLen = %d", len(b), v.EncodedLen())
		}
		dst := bytes.Repeat([]byte{0xff}, 2+len(b))[:2]
		dst[0], dst[1] = 0xA5, 0x5A
		if out, _ := appendMessage(dst, &v); !bytes.Equal(out[:2], []byte{0xA5, 0x5A}) || !bytes.Equal(out[2:], b) {
			return "AppendBinary onto a non-empty dst with garbage capacity differs from AppendBinary(nil)"
		}
		got, n, err := k.decode(b)
		if err != nil || n != len(b) || !k.equal(got, v) {
			return fmt.Sprintf("Decode = %s, %d, %v; want %s, %d", Describe(got), n, err, Describe(v), len(b))
		}
		if k.parse != nil {
			if got, err := k.parse(b); err != nil || !k.equal(got, v) {
				return fmt.Sprintf("Parse = %s, %v", Describe(got), err)
			}
		}
		return ""
	}, k.gen())
}

func TestRoundTrip(t *testing.T) {
	forEachKind(t, func(t *testing.T, k propKind) {
		property(t, 1, "Parse(AppendBinary(x)) == x", k.roundTrip())
	})
}
