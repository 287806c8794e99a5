package codec_test

import (
	"bytes"
	"testing"

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
		{"status 40 with a body", false, setLE(216, 4, 40), errKey{codec.ErrField, "size", 48, ""}},
		ruleReserved("reserved_frame", 90),
		ruleReserved("operation_padding", 215),
		ruleReserved("reserved", 220),
		ruleReserved("reserved", 255),
	})
	// The size rule and the denial rule share a class, field and offset;
	// the rule id tells them apart.
	_, err := codec.DecodeReplyHeader(applyRules(repOKHex, ruleSizeLow, breakRule{mutate: setLE(216, 4, 40)}))
	if got, want := codecError(t, err).Rule, "reply.size"; got != want {
		t.Fatalf("size 255 and status 40: rule = %q, want %q", got, want)
	}
	_, err = codec.DecodeReplyHeader(applyRules(repOKHex, breakRule{mutate: setLE(216, 4, 40)}))
	if got, want := codecError(t, err).Rule, "reply.status"; got != want {
		t.Fatalf("status 40 with a body: rule = %q, want %q", got, want)
	}
}

// TestReplyEveryOperation: a reply accepts every known operation, 0
// included (a reply may echo it), and nothing else.
func TestReplyEveryOperation(t *testing.T) {
	for op := range 256 {
		got, err := codec.DecodeReplyHeader(applyRules(repDenyHex, breakRule{mutate: setByte(208, byte(op))}))
		if !codec.Operation(op).IsKnown() {
			wantErr(t, err, codec.ErrField, "operation", 208)
			continue
		}
		if err != nil {
			t.Fatalf("operation %d: err = %v", op, err)
		}
		if got.Operation != codec.Operation(op) {
			t.Fatalf("operation = %d, want %d", got.Operation, op)
		}
	}
}

// TestReplyDenial: any non-zero status needs size 256; status 0 may carry a
// body.
func TestReplyDenial(t *testing.T) {
	for _, status := range []uint64{1, 3, 40, 1<<32 - 1} {
		h := applyRules(repDenyHex, breakRule{mutate: setLE(216, 4, status)})
		got, err := codec.DecodeReplyHeader(h)
		if err != nil {
			t.Fatalf("status %d: err = %v", status, err)
		}
		if got.Status != codec.Status(status) {
			t.Fatalf("status = %d, want %d", got.Status, status)
		}
		_, err = codec.DecodeReplyHeader(applyRules(h, breakRule{mutate: setLE(48, 4, 257)}))
		wantErr(t, err, codec.ErrField, "size", 48)
	}
}

// TestReplyValidate checks the encoder's rules and that a failed AppendBinary
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
		{"denial with a body", codec.ReplyHeader{Size: 300, Status: codec.StatusUnauthenticated}, codec.ErrField, "size", 48},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.h.Validate(), c.kind, c.field, c.off)
			out, err := c.h.AppendBinary([]byte{7})
			wantErr(t, err, c.kind, c.field, c.off)
			if want := []byte{7}; !bytes.Equal(out, want) {
				t.Fatalf("dst after a failed AppendBinary = %x, want %x", out, want)
			}
		})
	}
	if err := repDeny.Validate(); err != nil {
		t.Fatalf("repDeny.Validate() = %v, want nil", err)
	}
	if got := repDeny.EncodedLen(); got != 256 {
		t.Fatalf("EncodedLen() = %d, want 256", got)
	}
}

// TestReplyDecodeAndLenientReadAlike: ReplyHeader.Decode reads the fields
// itself (for speed) and DecodeReplyHeaderLenient reads them through load;
// with every field set to a distinct value, both return the header encoded,
// the lenient form also when a rule is broken (an unknown operation).
func TestReplyDecodeAndLenientReadAlike(t *testing.T) {
	u := func(x uint64) codec.Uint128 { return codec.Uint128{Lo: x, Hi: x << 8} }
	want := codec.ReplyHeader{
		Checksum: u(1), ChecksumBody: u(2), Cluster: u(3), Size: 300, View: 4, Release: 5, Replica: 6,
		RequestChecksum: u(7), Context: u(8), Client: u(9), Op: 10, Commit: 11, Timestamp: 12, Request: 13,
		Operation: codec.OperationSendMessages,
	}
	b, err := want.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := codec.DecodeReplyHeader(b); err != nil || got != want {
		t.Fatalf("DecodeReplyHeader = %+v, %v; want %+v", got, err, want)
	}
	b[208] = 99 // an unknown operation
	want.Operation = 99
	if got, err := codec.DecodeReplyHeaderLenient(b); err == nil || got != want {
		t.Fatalf("DecodeReplyHeaderLenient = %+v, %v; want %+v and an error", got, err, want)
	}
}
