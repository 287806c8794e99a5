package props

import (
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// inPlace: decoding a header in place (RequestHeader.Decode and kin) over
// a value that already holds another header gives exactly what the
// value-returning decoder gives, error included: every field is written,
// none is left from before, and a failed decode leaves the zero value.
// Inputs are valid headers and hostile mutations of them, decoded over a
// second generated header.
func inPlace[T interface {
	comparable
	Message
}](decode func([]byte) (T, error), into func(*T, []byte) error, gen gopter.Gen) gopter.Prop {
	return prop.ForAll(func(h Hostile[T], before T) string {
		b := h.Bytes()
		want, werr := decode(b)
		got := before
		err := into(&got, b)
		if got != want || (err == nil) != (werr == nil) || fmt.Sprint(err) != fmt.Sprint(werr) {
			return fmt.Sprintf("in place over %s: %s, %v; the function: %s, %v",
				Describe(before), Describe(got), err, Describe(want), werr)
		}
		if err != nil && got != *new(T) {
			return "a failed in-place decode left a non-zero value: " + Describe(got)
		}
		return ""
	}, GenHostile[T](gen), gen)
}

func TestDecodeInPlace(t *testing.T) {
	t.Parallel()
	t.Run("RequestHeader", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "h.Decode(b) == DecodeRequestHeader(b)",
			inPlace(codec.DecodeRequestHeader, (*codec.RequestHeader).Decode, GenRequestHeader()))
	})
	t.Run("ReplyHeader", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "h.Decode(b) == DecodeReplyHeader(b)",
			inPlace(codec.DecodeReplyHeader, (*codec.ReplyHeader).Decode, GenReplyHeader()))
	})
	t.Run("Eviction", func(t *testing.T) {
		t.Parallel()
		property(t, 1, "e.Decode(b) == DecodeEviction(b)",
			inPlace(codec.DecodeEviction, (*codec.Eviction).Decode, GenEviction()))
	})
}
