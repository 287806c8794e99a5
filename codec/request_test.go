package codec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

func decodeRequest(b []byte) error { _, err := codec.DecodeRequestHeader(b); return err }

// Rules every request base shares, in WIRE.md's order up to the operation.
var (
	ruleCut     = breakRule{"length", true, nil, errKey{codec.ErrTruncated, "header", 255, ""}}
	ruleSizeLow = breakRule{"size 255", false, setLE(48, 4, 255), errKey{codec.ErrSize, "size", 48, ""}}
)

func ruleCommand(c byte) breakRule {
	return breakRule{fmt.Sprintf("command %d", c), false, setByte(60, c), errKey{codec.ErrCommand, "command", 60, ""}}
}

func ruleReserved(field string, off int) breakRule {
	return breakRule{fmt.Sprintf("%s byte %d", field, off), false, setByte(off, 0x80), errKey{codec.ErrReserved, field, off, ""}}
}

func ruleField(name, field string, off int, mutate func([]byte)) breakRule {
	return breakRule{name, false, mutate, errKey{codec.ErrField, field, off, ""}}
}

var ruleClient0 = ruleField("client 0", "client", 128, setLE(128, 16, 0))

// TestRequestRuleOrder breaks each rule of a request header alone, then in
// pairs: length, command, size, client, operation, the session/request
// rules, the NonReplicated code, then reserved_frame, operation padding and
// the reserved area (bytes 196..200 included outside NonReplicated).
func TestRequestRuleOrder(t *testing.T) {
	for _, c := range []struct {
		name    string
		base    []byte
		command byte
		rules   []breakRule // after length, command, size and client
	}{
		{"Register", reqRegisterHex, 8, []breakRule{
			ruleField("operation 4", "operation", 176, setByte(176, 4)),
			ruleField("session 1", "session", 184, setByte(184, 1)),
			ruleField("request 1", "request", 168, setByte(168, 1)),
			ruleReserved("reserved_frame", 100),
			ruleReserved("operation_padding", 180),
			ruleReserved("reserved", 197),
			ruleReserved("reserved", 255),
		}},
		{"NonReplicated", reqMetadataHex, 13, []breakRule{
			ruleField("operation 0", "operation", 176, setByte(176, 0)),
			ruleField("code 0", "code", 196, setLE(196, 4, 0)),
			ruleReserved("reserved_frame", 62),
			ruleReserved("operation_padding", 177),
			ruleReserved("reserved", 200),
			ruleReserved("reserved", 240),
		}},
		{"Logout", reqLogoutHex, 0, []breakRule{
			ruleField("operation 200", "operation", 176, setByte(176, 200)),
			ruleField("session 0", "session", 184, setLE(184, 8, 0)),
			ruleField("request 0", "request", 168, setLE(168, 8, 0)),
			ruleReserved("reserved_frame", 127),
			ruleReserved("operation_padding", 183),
			ruleReserved("reserved", 196),
			ruleReserved("reserved", 199),
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rules := append([]breakRule{ruleCut, ruleCommand(c.command), ruleSizeLow, ruleClient0}, c.rules...)
			checkRuleOrder(t, c.base, decodeRequest, rules)
		})
	}
}

// TestRequestSizeBounds checks both ends of 256 <= size <= 64 MiB.
func TestRequestSizeBounds(t *testing.T) {
	for _, c := range []struct {
		size uint64
		ok   bool
	}{{0, false}, {255, false}, {256, true}, {codec.MaxFrameSize, true}, {codec.MaxFrameSize + 1, false}, {1<<32 - 1, false}} {
		h := applyRules(reqLogoutHex, breakRule{mutate: setLE(48, 4, c.size)})
		got, err := codec.DecodeRequestHeader(h)
		if c.ok {
			if err != nil {
				t.Fatalf("size %d: err = %v", c.size, err)
			}
			if got.Size != uint32(c.size) {
				t.Fatalf("size = %d, want %d", got.Size, c.size)
			}
			continue
		}
		wantErr(t, err, codec.ErrSize, "size", 48)
	}
}

// TestRequestEveryOperation decodes every operation byte on a header with
// session 1, request 1 and no code: the replicated known operations pass;
// Register fails its session rule, NonReplicated its code rule, and 0 or
// an unknown value the operation rule.
func TestRequestEveryOperation(t *testing.T) {
	base := applyRules(reqLogoutHex, breakRule{mutate: setByte(184, 1)}, breakRule{mutate: setByte(168, 1)})
	for op := range 256 {
		h := applyRules(base, breakRule{mutate: setByte(176, byte(op))})
		got, err := codec.DecodeRequestHeader(h)
		o := codec.Operation(op)
		switch {
		case op == 0 || !o.IsKnown():
			wantErr(t, err, codec.ErrField, "operation", 176)
		case o == codec.OperationRegister:
			wantErr(t, err, codec.ErrField, "session", 184)
		case o == codec.OperationNonReplicated:
			wantErr(t, err, codec.ErrField, "code", 196)
		default:
			if err != nil {
				t.Fatalf("operation %d: err = %v", op, err)
			}
			if got.Operation != o {
				t.Fatalf("operation = %d, want %d", got.Operation, o)
			}
		}
	}
}

// TestRequestValidate checks the encoder's rules, which are the decoder's
// minus the bytes a value cannot hold, and that a failed AppendBinary leaves
// dst unchanged.
func TestRequestValidate(t *testing.T) {
	ok := reqLogout
	cases := []struct {
		name  string
		edit  func(*codec.RequestHeader)
		kind  error
		field string
		off   int
	}{
		{"zero size", func(h *codec.RequestHeader) { h.Size = 0 }, codec.ErrSize, "size", 48},
		{"size over the cap", func(h *codec.RequestHeader) { h.Size = codec.MaxFrameSize + 1 }, codec.ErrSize, "size", 48},
		{"client 0", func(h *codec.RequestHeader) { h.Client = codec.Uint128{} }, codec.ErrField, "client", 128},
		{"client with only the high half set passes, operation 0 does not", func(h *codec.RequestHeader) {
			h.Client = codec.Uint128{Hi: 1}
			h.Operation = 0
		}, codec.ErrField, "operation", 176},
		{"unknown operation", func(h *codec.RequestHeader) { h.Operation = 100 }, codec.ErrField, "operation", 176},
		{"Register with session", func(h *codec.RequestHeader) { h.Operation = codec.OperationRegister; h.Request = 0 }, codec.ErrField, "session", 184},
		{"Register with request", func(h *codec.RequestHeader) { h.Operation = codec.OperationRegister; h.Session = 0 }, codec.ErrField, "request", 168},
		{"NonReplicated without code", func(h *codec.RequestHeader) { h.Operation = codec.OperationNonReplicated }, codec.ErrField, "code", 196},
		{"Logout without session", func(h *codec.RequestHeader) { h.Session = 0 }, codec.ErrField, "session", 184},
		{"Logout without request", func(h *codec.RequestHeader) { h.Request = 0 }, codec.ErrField, "request", 168},
		{"Logout with a code", func(h *codec.RequestHeader) { h.Code = codec.CodeLogoutUser }, codec.ErrReserved, "reserved", 196},
		{"Register with a code", func(h *codec.RequestHeader) {
			*h = reqRegister
			h.Code = codec.CodeLoginRegister
		}, codec.ErrReserved, "reserved", 196},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := ok
			c.edit(&h)
			wantErr(t, h.Validate(), c.kind, c.field, c.off)
			dst := []byte{1, 2, 3}
			out, err := h.AppendBinary(dst)
			wantErr(t, err, c.kind, c.field, c.off)
			if want := []byte{1, 2, 3}; !bytes.Equal(out, want) {
				t.Fatalf("dst after a failed AppendBinary = %x, want %x", out, want)
			}
		})
	}
	if err := ok.Validate(); err != nil {
		t.Fatalf("reqLogout.Validate() = %v, want nil", err)
	}
	if got := ok.EncodedLen(); got != 256 {
		t.Fatalf("EncodedLen() = %d, want 256", got)
	}
}
