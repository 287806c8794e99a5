package props

import (
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/internal/refcodec/codecclass"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// agree compares the codec's decoders with the reference's on b: the same
// error class, and on success the same value and the same length used.
func (k kind[T]) agree(b []byte) string {
	got, n, err := k.decode(b)
	want, wn, werr := k.ref(b)
	if c, wc := codecclass.Of(err), refcodec.ClassOf(werr); c != wc {
		return fmt.Sprintf("Decode class %v (%v), reference %v", c, err, wc)
	}
	if err == nil && (n != wn || !k.equal(got, want)) {
		return fmt.Sprintf("Decode = %s, %d; reference %s, %d", Describe(got), n, Describe(want), wn)
	}
	if k.parse == nil {
		return ""
	}
	got, err = k.parse(b)
	want, werr = k.refPar(b)
	if c, wc := codecclass.Of(err), refcodec.ClassOf(werr); c != wc {
		return fmt.Sprintf("Parse class %v (%v), reference %v", c, err, wc)
	}
	if err == nil && !k.equal(got, want) {
		return fmt.Sprintf("Parse = %s; reference %s", Describe(got), Describe(want))
	}
	return ""
}

// differential: the codec and the reference agree, value for value and
// error class for error class, on valid encodings or on hostile ones.
func (k kind[T]) differential(hostile bool) gopter.Prop {
	if hostile {
		return prop.ForAll(func(h Hostile[T]) string { return k.agree(h.Bytes()) }, GenHostile[T](k.gen()))
	}
	return prop.ForAll(func(v T) string {
		b, _ := appendMessage(nil, &v)
		return k.agree(b)
	}, k.gen())
}

func TestDifferential(t *testing.T) {
	forEachKind(t, func(t *testing.T, k propKind) {
		property(t, 2, "codec agrees with refcodec on valid bytes", k.differential(false))
		property(t, 1, "codec agrees with refcodec on hostile bytes", k.differential(true))
	})
}
