package codec_test

import (
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// ev14IllFormed is ev14Hex with window {min 0.11.0, max 0.10.0}: reason 14
// with an ill-formed window, which DecodeEviction refuses.
func ev14IllFormed() []byte {
	return applyRules(ev14Hex, breakRule{mutate: setLE(144, 4, 0x2800)}, breakRule{mutate: setLE(148, 4, 0x2C00)})
}

// TestDecodeEvictionLenientIllFormed: reason 14 with an ill-formed window
// decodes for a client, window as sent, beside the window rule's error, and
// means Unauthenticated (WIRE.md section 8); DecodeEviction refuses it.
func TestDecodeEvictionLenientIllFormed(t *testing.T) {
	for _, w := range []codec.Window{{Min: 0x2C00, Max: 0x2800}, {}, {Min: 0, Max: 5}, {Min: 5, Max: 0}} {
		b := applyRules(ev14Hex, breakRule{mutate: setLE(144, 4, uint64(w.Max))}, breakRule{mutate: setLE(148, 4, uint64(w.Min))})
		_, strict := codec.DecodeEviction(b)
		require.ErrorIs(t, strict, codec.ErrWindow)
		e, err := codec.DecodeEvictionLenient(b)
		require.Equal(t, strict, err, "window %v: the lenient error is the strict one", w)
		assert.Equal(t, codec.Eviction{Client: client5, Window: w, Reason: codec.ReasonIncompatibleProtocol}, e, "window %v", w)
		assert.ErrorIs(t, e.Err(), codec.StatusUnauthenticated.Err(), "window %v", w)
	}
}

// TestDecodeEvictionLenient: on every frame, the lenient error is the strict
// one; the value is the strict one when there is no error, the fields as
// sent when a rule past the command breaks (client 0, an unknown reason,
// a reserved byte), and zero when the frame is short or not an eviction.
func TestDecodeEvictionLenient(t *testing.T) {
	frames := [][]byte{ev14Hex, ev1Hex, ev14Hex[:255], nil, repOKHex}
	for r := range 256 {
		for _, base := range [][]byte{ev14Hex, ev1Hex} {
			frames = append(frames, applyRules(base, breakRule{mutate: setByte(255, byte(r))}),
				applyRules(base, breakRule{mutate: setByte(255, byte(r))}, breakRule{mutate: setLE(128, 16, 0)}))
		}
	}
	for _, b := range frames {
		want, wantErr := codec.DecodeEviction(b)
		got, err := codec.DecodeEvictionLenient(b)
		require.Equal(t, wantErr, err, "%x", b)
		switch {
		case err == nil:
			require.Equal(t, want, got)
		case len(b) < codec.HeaderSize || b[60] != 13:
			require.Equal(t, codec.Eviction{}, got)
		default:
			h, _ := codec.HeaderOf(b)
			require.Equal(t, h.Eviction().Reason(), got.Reason)
			require.Equal(t, h.Eviction().Client(), got.Client)
			require.Equal(t, h.Eviction().Window(), got.Window)
		}
	}
	// client 0 and an unknown reason: mapped as the reason says
	e, err := codec.DecodeEvictionLenient(applyRules(ev1Hex, breakRule{mutate: setByte(255, 99)}, breakRule{mutate: setLE(128, 16, 0)}))
	var ce *codec.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, codec.FieldClient, ce.Field, "client 0 is the first broken rule")
	assert.Equal(t, codec.EvictionReason(99), e.Reason)
	assert.ErrorIs(t, e.Err(), codec.StatusInvalidCommand.Err())
}

// TestDecodeEvictionLenientRuleOrder: on reason 14 with an ill-formed
// window, every other rule is still reported first, in DecodeEviction's
// order.
func TestDecodeEvictionLenientRuleOrder(t *testing.T) {
	decode := func(b []byte) error {
		_, err := codec.DecodeEvictionLenient(b)
		if errors.Is(err, codec.ErrWindow) {
			return nil // the window rule is the base's own
		}
		return err
	}
	checkRuleOrder(t, ev14IllFormed(), decode, ev14Rules())
}

// TestDecodeReplyHeaderLenient: a denial with a stray body is still read as
// a denial, beside the status rule's error (ErrField, FieldSize); an unknown
// operation keeps the status and request; a short or wrong frame is zero.
func TestDecodeReplyHeaderLenient(t *testing.T) {
	b := applyRules(repDenyHex, breakRule{mutate: setLE(48, 4, 300)})
	h, err := codec.DecodeReplyHeaderLenient(b)
	var ce *codec.Error
	require.ErrorAs(t, err, &ce)
	assert.ErrorIs(t, err, codec.ErrField)
	assert.Equal(t, codec.FieldSize, ce.Field)
	want := repDeny
	want.Size = 300
	assert.Equal(t, want, h)
	assert.ErrorIs(t, h.Status.Err(), codec.StatusUnauthenticated.Err())

	h, err = codec.DecodeReplyHeaderLenient(applyRules(repDenyHex, breakRule{mutate: setByte(208, 99)}))
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, codec.FieldOperation, ce.Field)
	assert.Equal(t, codec.StatusUnauthenticated, h.Status)
	assert.Equal(t, uint64(3), h.Request)

	for _, bad := range [][]byte{repDenyHex[:255], ev1Hex} {
		h, err := codec.DecodeReplyHeaderLenient(bad)
		_, strict := codec.DecodeReplyHeader(bad)
		assert.Equal(t, strict, err)
		assert.Equal(t, codec.ReplyHeader{}, h)
	}
	h, err = codec.DecodeReplyHeaderLenient(repOKHex)
	require.NoError(t, err)
	assert.Equal(t, repOK, h)
}

// TestDecodeLoginReplyLenient: a login reply with session 0 comes back
// decoded beside ErrField/FieldSession, so a client can take its bind
// failure path; a truncated one is still the zero value.
func TestDecodeLoginReplyLenient(t *testing.T) {
	body := applyRules(hx(replyBodyHex), breakRule{mutate: setLE(4, 8, 0)})
	l, n, err := codec.DecodeLoginReplyLenient(body)
	var ce *codec.Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, codec.FieldSession, ce.Field)
	assert.ErrorIs(t, err, codec.ErrField)
	assert.Equal(t, len(body), n)
	assert.Equal(t, uint32(1), l.UserID)
	assert.Equal(t, uint64(0), l.Session)
	assert.Equal(t, "0.6.0", string(l.ServerVersion))

	l, n, err = codec.DecodeLoginReplyLenient(body[:len(body)-1])
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, codec.FieldSession, ce.Field, "the session rule comes first")
	assert.Equal(t, codec.LoginReply{}, l)
	assert.Zero(t, n)

	l, _, err = codec.DecodeLoginReplyLenient(hx(replyBodyHex))
	require.NoError(t, err)
	assert.Equal(t, uint64(42), l.Session)

	empty := append(hx(replyBodyHex)[:16:16], 0) // an empty server version
	l, n, err = codec.DecodeLoginReplyLenient(empty)
	assert.ErrorIs(t, err, codec.ErrLength)
	assert.Equal(t, 17, n)
	assert.Equal(t, uint64(42), l.Session)
	assert.Nil(t, l.ServerVersion)
}

// TestLenientAllocs: the lenient paths cost no allocation beyond the error.
func TestLenientAllocs(t *testing.T) {
	b := ev14IllFormed()
	allocs := testing.AllocsPerRun(100, func() { sinkEv, sinkErr = codec.DecodeEvictionLenient(ev14Hex) })
	assert.Zero(t, allocs, "a valid eviction")
	allocs = testing.AllocsPerRun(100, func() { sinkEv, sinkErr = codec.DecodeEvictionLenient(b) })
	assert.LessOrEqual(t, allocs, 1.0, "an ill-formed window: the error only")
}

// TestEvictionErrFor: ErrFor fills the client's own version into the
// incompatible-protocol error, and leaves every other error as Err's.
func TestEvictionErrFor(t *testing.T) {
	w := codec.Window{Min: 0x2800, Max: 0x2C00}
	var ipe *codec.IncompatibleProtocolError
	require.ErrorAs(t, codec.NewIncompatibleProtocolEviction(client5, w).ErrFor(codec.MustPack(0, 12, 1)), &ipe)
	assert.Equal(t, codec.IncompatibleProtocolError{Client: codec.MustPack(0, 12, 1), Window: w}, *ipe)
	assert.Equal(t, codec.NewEviction(client5, codec.ReasonStaleClient).Err(), codec.NewEviction(client5, codec.ReasonStaleClient).ErrFor(1))
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
