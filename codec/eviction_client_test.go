package codec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		require.ErrorIs(t, err, codec.ErrWindow, "DecodeEviction refuses %v", w)
		e, err := codec.DecodeEvictionForClient(b)
		require.NoError(t, err, "window %v", w)
		assert.Equal(t, codec.Eviction{Client: client5, Window: w, Reason: codec.ReasonIncompatibleProtocol}, e)
		assert.Equal(t, error(codec.StatusUnauthenticated), e.Err(), "window %v", w)
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
		assert.Equal(t, want, got)
		assert.Equal(t, wantErr, err)
	}
}

// TestDecodeEvictionForClientRuleOrder: on reason 14 with an ill-formed
// window, every other rule is still checked, in DecodeEviction's order.
func TestDecodeEvictionForClientRuleOrder(t *testing.T) {
	decode := func(b []byte) error { _, err := codec.DecodeEvictionForClient(b); return err }
	checkRuleOrder(t, ev14IllFormed(), decode, []breakRule{
		ruleCut, ruleCommand(8),
		{"size 257", false, setLE(48, 4, 257), errKey{codec.ErrSize, "size", 48, ""}},
		ruleClient0,
		ruleReserved("reserved_frame", 70),
		ruleReserved("reserved", 152),
		{"reason 16", false, setByte(255, 16), errKey{codec.ErrReason, "reason", 255, ""}},
	})
}

// TestDecodeEvictionForClientAllocs: the ill-formed window path costs no
// allocation either.
func TestDecodeEvictionForClientAllocs(t *testing.T) {
	b := ev14IllFormed()
	allocs := testing.AllocsPerRun(100, func() { sinkEv, sinkErr = codec.DecodeEvictionForClient(b) })
	assert.Zero(t, allocs)
	require.NoError(t, sinkErr)
}

// TestIncompatibleProtocolErrorClient: the error of WIRE.md section 8,
// IncompatibleProtocolVersion(client, min, max), names all three once the
// client's version is known.
func TestIncompatibleProtocolErrorClient(t *testing.T) {
	w := codec.Window{Min: 0x2800, Max: 0x2C00}
	e := codec.IncompatibleProtocolError{Client: codec.MustPack(0, 12, 1), Window: w}
	assert.Equal(t, "incompatible protocol version: client speaks 0.12.1, server accepts [0.10.0, 0.11.0]", e.Error())
	assert.Equal(t, "incompatible protocol version: server accepts [0.10.0, 0.11.0]", codec.IncompatibleProtocolError{Window: w}.Error())
	assert.Equal(t, codec.IncompatibleProtocolError{Window: w}, codec.NewIncompatibleProtocol(client5, w).Err(),
		"an eviction alone does not know the client's version")
}
