package props

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// windowAt is the window an eviction frame carries, whatever its reason.
func windowAt(b []byte) codec.Window {
	return codec.Window{
		Max: codec.Version(binary.LittleEndian.Uint32(b[144:])),
		Min: codec.Version(binary.LittleEndian.Uint32(b[148:])),
	}
}

// TestEvictionLenient: a client's reading of an eviction
// (DecodeEvictionLenient) returns DecodeEviction's error on every input;
// its value is DecodeEviction's when that succeeds, the fields as sent when
// a rule past the length and the command breaks, and zero otherwise.
// Inputs are valid evictions, hostile mutations of them, and (half of the
// cases) the same with reason 14 and a generated window, ill-formed or not:
// reason 14 with an ill-formed window means Unauthenticated.
func TestEvictionLenient(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	property(t, 1, "DecodeEvictionLenient is DecodeEviction's error with the fields as sent", prop.ForAll(
		func(h Hostile[codec.Eviction], w codec.Window, as14 bool) string {
			b := h.Bytes()
			if as14 && len(b) >= codec.HeaderSize {
				b = append([]byte(nil), b...)
				b[255] = byte(codec.ReasonIncompatibleProtocol)
				binary.LittleEndian.PutUint32(b[144:], uint32(w.Max))
				binary.LittleEndian.PutUint32(b[148:], uint32(w.Min))
			}
			want, werr := codec.DecodeEviction(b)
			got, err := codec.DecodeEvictionLenient(b)
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				return fmt.Sprintf("DecodeEvictionLenient error %v, want DecodeEviction's %v", err, werr)
			}
			switch {
			case werr == nil:
				seen["decodes as it is"]++
				if got != want {
					return fmt.Sprintf("DecodeEvictionLenient = %s, want %s", Describe(got), Describe(want))
				}
			case len(b) < codec.HeaderSize || codec.Command(b[60]) != codec.CommandEviction:
				seen["unreadable"]++
				if got != (codec.Eviction{}) {
					return fmt.Sprintf("DecodeEvictionLenient of an unreadable frame = %s, want zero", Describe(got))
				}
			default:
				seen["read beside its error"]++
				hv, _ := codec.HeaderOf(b)
				if got.Reason != hv.Eviction().Reason() || got.Client != hv.Eviction().Client() || got.Window != windowAt(b) {
					return fmt.Sprintf("DecodeEvictionLenient = %s, not the fields as sent", Describe(got))
				}
				if got.Reason == codec.ReasonIncompatibleProtocol && !got.Window.IsValid() && !errors.Is(got.Err(), codec.StatusUnauthenticated.Err()) {
					return fmt.Sprintf("reason 14 with an ill-formed window means %v, want Unauthenticated", got.Err())
				}
			}
			return ""
		}, GenHostile[codec.Eviction](GenEviction()), GenWindow(), gen.Bool()))
	for _, kind := range []string{"decodes as it is", "read beside its error"} {
		if seen[kind] == 0 {
			t.Errorf("no case of %q was checked: %v", kind, seen)
		}
	}
}
