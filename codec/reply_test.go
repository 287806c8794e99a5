package codec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

func decodeReply(b []byte) error { _, err := codec.DecodeReplyHeader(b); return err }

// TestReplyRuleOrder breaks each rule of a reply header alone, then in
// pairs: length, command, size, a known operation, status != 0 => size ==
// 256, then reserved_frame, operation padding and reserved.
func TestReplyRuleOrder(t *testing.T) {
	checkRuleOrder(t, repOKHex, decodeReply, []breakRule{
		ruleCut, ruleCommand(5), ruleSizeLow,
		ruleField("operation 4", "operation", 208, setByte(208, 4)),
		{"status 40 with a body", false, setLE(216, 4, 40), errKey{codec.ErrSize, "size", 48, ""}},
		ruleReserved("reserved_frame", 90),
		ruleReserved("operation_padding", 215),
		ruleReserved("reserved", 220),
		ruleReserved("reserved", 255),
	})
	// The size rule and the denial rule share a class, field and offset;
	// the rule text tells them apart.
	_, err := codec.DecodeReplyHeader(applyRules(repOKHex, ruleSizeLow, breakRule{mutate: setLE(216, 4, 40)}))
	require.Equal(t, "256 <= size <= 64 MiB", codecError(t, err).Rule, "rule")
	_, err = codec.DecodeReplyHeader(applyRules(repOKHex, breakRule{mutate: setLE(216, 4, 40)}))
	require.Equal(t, "status != 0 => size == 256", codecError(t, err).Rule, "rule")
}

// TestReplyEveryOperation: a reply accepts every known operation, 0
// included (a reply may echo it), and nothing else.
func TestReplyEveryOperation(t *testing.T) {
	for op := range 256 {
		got, err := codec.DecodeReplyHeader(applyRules(repDenyHex, breakRule{mutate: setByte(208, byte(op))}))
		if !codec.Operation(op).Known() {
			wantErr(t, err, codec.ErrField, "operation", 208)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, codec.Operation(op), got.Operation, "operation")
	}
}

// TestReplyDenial: any non-zero status needs size 256; status 0 may carry a
// body.
func TestReplyDenial(t *testing.T) {
	for _, status := range []uint64{1, 3, 40, 1<<32 - 1} {
		h := applyRules(repDenyHex, breakRule{mutate: setLE(216, 4, status)})
		got, err := codec.DecodeReplyHeader(h)
		require.NoError(t, err)
		require.Equal(t, codec.Status(status), got.Status, "status")
		_, err = codec.DecodeReplyHeader(applyRules(h, breakRule{mutate: setLE(48, 4, 257)}))
		wantErr(t, err, codec.ErrSize, "size", 48)
	}
}

// TestReplyValidate checks the encoder's rules and that a failed AppendTo
// or AppendReplyFrame leaves dst unchanged.
func TestReplyValidate(t *testing.T) {
	cases := []struct {
		name  string
		h     codec.ReplyHeader
		kind  error
		field string
		off   int
	}{
		{"zero value", codec.ReplyHeader{}, codec.ErrSize, "size", 48},
		{"unknown operation", codec.ReplyHeader{Size: 256, Operation: 255}, codec.ErrField, "operation", 208},
		{"denial with a body", codec.ReplyHeader{Size: 300, Status: codec.StatusUnauthenticated}, codec.ErrSize, "size", 48},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.h.Validate(), c.kind, c.field, c.off)
			out, err := c.h.AppendTo([]byte{7})
			wantErr(t, err, c.kind, c.field, c.off)
			require.Equal(t, []byte{7}, out, "dst after a failed AppendTo")
		})
	}
	require.NoError(t, repDeny.Validate())
	require.Equal(t, 256, repDeny.EncodedLen(), "EncodedLen")
}
