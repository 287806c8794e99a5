package codec_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// ev14IllFormed is ev14Hex with window {min 0.11.0, max 0.10.0}: reason 14
// with an ill-formed window, which DecodeEviction refuses.
func ev14IllFormed() []byte {
	return applyRules(ev14Hex, breakRule{mutate: setLE(144, 4, 0x2800)}, breakRule{mutate: setLE(148, 4, 0x2C00)})
}

// TestDecodeEvictionForClientIllFormed: reason 14 with an ill-formed window
// decodes for a client, window as sent, and means Unauthenticated (WIRE.md
// section 8); DecodeEviction still refuses it.
func TestDecodeEvictionForClientIllFormed(t *testing.T) {
	for _, w := range []codec.Window{{Min: 0x2C00, Max: 0x2800}, {}, {Min: 0, Max: 5}, {Min: 5, Max: 0}} {
		b := applyRules(ev14Hex, breakRule{mutate: setLE(144, 4, uint64(w.Max))}, breakRule{mutate: setLE(148, 4, uint64(w.Min))})
		_, err := codec.DecodeEviction(b)
		if !errors.Is(err, codec.ErrWindow) {
			t.Fatalf("DecodeEviction refuses %v: err = %v, want %v", w, err, codec.ErrWindow)
		}
		e, err := codec.DecodeEvictionForClient(b)
		if err != nil {
			t.Fatalf("DecodeEvictionForClient, window %v: err = %v", w, err)
		}
		if want := (codec.Eviction{Client: client5, Window: w, Reason: codec.ReasonIncompatibleProtocol}); e != want {
			t.Errorf("DecodeEvictionForClient, window %v = %+v, want %+v", w, e, want)
		}
		if got, want := e.Err(), codec.StatusUnauthenticated.Err(); !errors.Is(got, want) {
			t.Errorf("window %v: Err() = %v, want %v", w, got, want)
		}
	}
}

// TestDecodeEvictionForClientAgrees: on every frame DecodeEviction decides
// (both goldens, every reason byte, window edits), DecodeEvictionForClient
// gives the same eviction or the same error.
func TestDecodeEvictionForClientAgrees(t *testing.T) {
	frames := [][]byte{ev14Hex, ev1Hex, ev14Hex[:255], nil}
	for r := range 256 {
		for _, base := range [][]byte{ev14Hex, ev1Hex} {
			frames = append(frames, applyRules(base, breakRule{mutate: setByte(255, byte(r))}))
		}
	}
	for _, b := range frames {
		want, wantErr := codec.DecodeEviction(b)
		got, err := codec.DecodeEvictionForClient(b)
		if wantErr != nil && len(b) == codec.HeaderSize && b[255] == 14 {
			continue // the ill-formed window case, tested above
		}
		if got != want {
			t.Errorf("DecodeEvictionForClient(%x) = %+v, want DecodeEviction's %+v", b, got, want)
		}
		if !reflect.DeepEqual(err, wantErr) {
			t.Errorf("DecodeEvictionForClient(%x): err = %v, want DecodeEviction's %v", b, err, wantErr)
		}
	}
}

// TestDecodeEvictionForClientRuleOrder: on reason 14 with an ill-formed
// window, every other rule is still checked, in DecodeEviction's order.
func TestDecodeEvictionForClientRuleOrder(t *testing.T) {
	decode := func(b []byte) error { _, err := codec.DecodeEvictionForClient(b); return err }
	checkRuleOrder(t, ev14IllFormed(), decode, ev14Rules())
}

// TestDecodeEvictionForClientAllocs: the ill-formed window path costs no
// allocation either.
func TestDecodeEvictionForClientAllocs(t *testing.T) {
	b := ev14IllFormed()
	allocs := testing.AllocsPerRun(100, func() { sinkEv, sinkErr = codec.DecodeEvictionForClient(b) })
	if allocs != 0 {
		t.Errorf("DecodeEvictionForClient: %v allocations, want 0", allocs)
	}
	if sinkErr != nil {
		t.Fatalf("DecodeEvictionForClient: err = %v", sinkErr)
	}
}

// TestIncompatibleProtocolErrorClient: the error of WIRE.md section 8,
// IncompatibleProtocolVersion(client, min, max), names all three once the
// client's version is known.
func TestIncompatibleProtocolErrorClient(t *testing.T) {
	w := codec.Window{Min: 0x2800, Max: 0x2C00}
	e := codec.IncompatibleProtocolError{Client: codec.MustPack(0, 12, 1), Window: w}
	if got, want := e.Error(), "codec: incompatible protocol version: client speaks 0.12.1, server accepts [0.10.0, 0.11.0]"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := (&codec.IncompatibleProtocolError{Window: w}).Error(), "codec: incompatible protocol version: server accepts [0.10.0, 0.11.0]"; got != want {
		t.Errorf("Error() without a client version = %q, want %q", got, want)
	}
	got, ok := codec.NewIncompatibleProtocolEviction(client5, w).Err().(*codec.IncompatibleProtocolError)
	if want := (codec.IncompatibleProtocolError{Window: w}); !ok || *got != want {
		t.Errorf("an eviction alone does not know the client's version: Err() = %#v, want %#v", got, want)
	}
}
