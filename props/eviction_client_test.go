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

// TestEvictionForClient: a client's reading of an eviction
// (DecodeEvictionForClient) is DecodeEviction's, value and error, on every
// input but one kind: reason 14 with an ill-formed window and every other
// rule kept. WIRE.md section 8 gives that one a meaning, so it decodes, its
// window as sent, and means Unauthenticated. Whether every other rule holds
// is decided as the reference orders them: the window is checked last, so
// it is DecodeEviction of the same bytes with a well-formed window. Inputs
// are valid evictions, hostile mutations of them, and (half of the cases)
// the same with reason 14 and a generated window, ill-formed or not.
func TestEvictionForClient(t *testing.T) {
	t.Parallel()
	seen := map[string]int{}
	property(t, 1, "DecodeEvictionForClient is DecodeEviction but for reason 14's ill-formed window", prop.ForAll(
		func(h Hostile[codec.Eviction], w codec.Window, as14 bool) string {
			b := h.Bytes()
			if as14 && len(b) >= codec.HeaderSize {
				b = append([]byte(nil), b...)
				b[255] = byte(codec.ReasonIncompatibleProtocol)
				binary.LittleEndian.PutUint32(b[144:], uint32(w.Max))
				binary.LittleEndian.PutUint32(b[148:], uint32(w.Min))
			}
			want, werr := codec.DecodeEviction(b)
			if len(b) >= codec.HeaderSize && b[255] == byte(codec.ReasonIncompatibleProtocol) && !windowAt(b).IsValid() {
				fixed := append([]byte(nil), b...)
				binary.LittleEndian.PutUint32(fixed[144:], 1)
				binary.LittleEndian.PutUint32(fixed[148:], 1)
				if e, err := codec.DecodeEviction(fixed); err == nil {
					e.Window = windowAt(b)
					want, werr = e, nil
					seen["ill-formed window read"]++
				} else {
					seen["ill-formed window, another rule broken"]++
				}
			} else if werr == nil {
				seen["decodes as it is"]++
			}
			got, err := codec.DecodeEvictionForClient(b)
			if got != want || (err == nil) != (werr == nil) || fmt.Sprint(err) != fmt.Sprint(werr) {
				return fmt.Sprintf("DecodeEvictionForClient = %s, %v; want %s, %v", Describe(got), err, Describe(want), werr)
			}
			if err == nil && got.Reason == codec.ReasonIncompatibleProtocol && !got.Window.IsValid() && !errors.Is(got.Err(), codec.StatusUnauthenticated.Err()) {
				return fmt.Sprintf("reason 14 with an ill-formed window means %v, want Unauthenticated", got.Err())
			}
			return ""
		}, GenHostile[codec.Eviction](GenEviction()), GenWindow(), gen.Bool()))
	for _, kind := range []string{"ill-formed window read", "ill-formed window, another rule broken", "decodes as it is"} {
		if seen[kind] == 0 {
			t.Errorf("no case of %q was checked: %v", kind, seen)
		}
	}
}
