package codec_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

func decodeEviction(b []byte) error { _, err := codec.DecodeEviction(b); return err }

// ev14Rules breaks, in order, each rule of a reason-14 eviction before its
// window's: DecodeEviction and DecodeEvictionLenient share them.
func ev14Rules() []breakRule {
	return []breakRule{
		ruleCut, ruleCommand(8),
		{"size 257", false, setLE(48, 4, 257), errKey{codec.ErrSize, "size", 48, ""}},
		ruleClient0,
		ruleReserved("reserved_frame", 70),
		ruleReserved("reserved", 152),
		{"reason 16", false, setByte(255, 16), errKey{codec.ErrReason, "reason", 255, ""}},
	}
}

var ruleWindow = breakRule{"window min 0", false, setLE(148, 4, 0), errKey{codec.ErrWindow, "window", 144, ""}}

// TestEvictionRuleOrder breaks each rule of an eviction alone, then in
// pairs, in the reference's order: length, command, size == 256, client,
// reserved_frame, reserved, reason, window.
func TestEvictionRuleOrder(t *testing.T) {
	t.Run("reason 14", func(t *testing.T) {
		checkRuleOrder(t, ev14Hex, decodeEviction, append(ev14Rules(), ruleWindow))
	})
	t.Run("reason 1", func(t *testing.T) {
		checkRuleOrder(t, ev1Hex, decodeEviction, []breakRule{
			ruleCut, ruleCommand(5),
			{"size 0", false, setLE(48, 4, 0), errKey{codec.ErrSize, "size", 48, ""}},
			ruleClient0,
			ruleReserved("reserved_frame", 127),
			ruleReserved("reserved", 254),
			{"reason 0", false, setByte(255, 0), errKey{codec.ErrReason, "reason", 255, ""}},
			{"window max set", false, setByte(146, 1), errKey{codec.ErrWindow, "window", 144, ""}},
		})
	})
}

// TestEvictionWindowRules: reason 14 needs 1 <= min <= max; every other
// reason needs both window fields zero.
func TestEvictionWindowRules(t *testing.T) {
	cases := []struct {
		reason   byte
		max, min uint64
		ok       bool
	}{
		{14, 0x2C00, 0x2C00, true},
		{14, 1, 1, true},
		{14, 0xC000_0000, 1, true}, // well-formed, though no version matches max
		{14, 0x2C00, 0x2C01, false},
		{14, 0, 0, false},
		{14, 5, 0, false},
		{1, 0, 1, false},
		{1, 1, 0, false},
		{15, 0, 0, true},
	}
	for _, c := range cases {
		h := applyRules(ev14Hex, breakRule{mutate: setByte(255, c.reason)},
			breakRule{mutate: setLE(144, 4, c.max)}, breakRule{mutate: setLE(148, 4, c.min)})
		got, err := codec.DecodeEviction(h)
		if !c.ok {
			wantErr(t, err, codec.ErrWindow, "window", 144)
			continue
		}
		if err != nil {
			t.Fatalf("reason %d, max %#x, min %#x: err = %v", c.reason, c.max, c.min, err)
		}
		if want := (codec.Window{Min: codec.Version(c.min), Max: codec.Version(c.max)}); got.Window != want {
			t.Fatalf("reason %d: window = %v, want %v", c.reason, got.Window, want)
		}
	}
}

// TestEvictionEveryReason decodes every reason byte with a zero window:
// 1..15 but 14 pass, 14 fails its window rule, the rest the reason rule.
func TestEvictionEveryReason(t *testing.T) {
	for r := range 256 {
		got, err := codec.DecodeEviction(applyRules(ev1Hex, breakRule{mutate: setByte(255, byte(r))}))
		switch {
		case r == 0 || r > 15:
			wantErr(t, err, codec.ErrReason, "reason", 255)
		case r == 14:
			wantErr(t, err, codec.ErrWindow, "window", 144)
		default:
			if err != nil {
				t.Fatalf("reason %d: err = %v", r, err)
			}
			if got.Reason != codec.EvictionReason(r) {
				t.Fatalf("reason = %d, want %d", got.Reason, r)
			}
		}
	}
}

// TestEvictionValidate checks the encoder's rules (client, reason, window)
// and the constructors.
func TestEvictionValidate(t *testing.T) {
	w := codec.Window{Min: 0x2800, Max: 0x2C00}
	if got := codec.NewIncompatibleProtocolEviction(client5, w); got != ev14 {
		t.Fatalf("NewIncompatibleProtocol = %+v, want %+v", got, ev14)
	}
	if got, want := codec.NewEviction(client5, codec.ReasonStaleClient), (codec.Eviction{Client: client5, Reason: codec.ReasonStaleClient}); got != want {
		t.Fatalf("NewEviction = %+v, want %+v", got, want)
	}
	cases := []struct {
		name  string
		e     codec.Eviction
		kind  error
		field string
		off   int
	}{
		{"zero value", codec.Eviction{}, codec.ErrField, "client", 128},
		{"reason 0", codec.NewEviction(client5, 0), codec.ErrReason, "reason", 255},
		{"reason 16", codec.NewEviction(client5, 16), codec.ErrReason, "reason", 255},
		{"14 without window", codec.NewEviction(client5, codec.ReasonIncompatibleProtocol), codec.ErrWindow, "window", 144},
		{"14 with min > max", codec.NewIncompatibleProtocolEviction(client5, codec.Window{Min: 2, Max: 1}), codec.ErrWindow, "window", 144},
		{"1 with a window", codec.Eviction{Client: client5, Reason: codec.ReasonNoSession, Window: w}, codec.ErrWindow, "window", 144},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.e.Validate(), c.kind, c.field, c.off)
			out, err := c.e.AppendBinary(nil)
			wantErr(t, err, c.kind, c.field, c.off)
			if out != nil {
				t.Fatalf("dst after a failed AppendBinary = %#v, want nil", out)
			}
		})
	}
	if got := ev1.EncodedLen(); got != 256 {
		t.Fatalf("EncodedLen() = %d, want 256", got)
	}
}

// TestEvictionErr maps every reason byte as WIRE.md section 8 does.
func TestEvictionErr(t *testing.T) {
	want := func(r int) codec.Status {
		switch r {
		case 1, 7, 8, 11, 12:
			return codec.StatusUnauthenticated
		case 9:
			return codec.StatusInvalidCredentials
		case 10:
			return codec.StatusInvalidPAT
		case 13:
			return codec.StatusStaleClient
		case 15:
			return codec.StatusInvalidFormat
		case 14:
			return codec.StatusUnauthenticated // the window below is ill-formed
		}
		return codec.StatusInvalidCommand // 2..6, 0 and 16..255
	}
	for r := range 256 {
		e := codec.Eviction{Client: client5, Reason: codec.EvictionReason(r)}
		var ie *codec.IggyError
		if got := e.Err(); !errors.As(got, &ie) || ie.Status != want(r) || e.Reason.Status() != want(r) {
			t.Fatalf("reason %d: Err() = %v, Status() = %v; want %v", r, got, e.Reason.Status(), want(r))
		}
	}

	// Reason 14 with a well-formed window is IncompatibleProtocolError.
	err := ev14.Err()
	var ipe *codec.IncompatibleProtocolError
	if !errors.As(fmt.Errorf("login: %w", err), &ipe) {
		t.Fatalf("reason 14: got %v, want IncompatibleProtocolError", err)
	}
	if ipe.Window != ev14.Window {
		t.Fatalf("window = %v, want %v", ipe.Window, ev14.Window)
	}
	if got, want := err.Error(), "codec: incompatible protocol version: server accepts [0.10.0, 0.11.0]"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	for _, bad := range []codec.Window{{}, {Min: 2, Max: 1}, {Min: 0, Max: 5}} {
		e := codec.NewIncompatibleProtocolEviction(client5, bad)
		if got, want := e.Err(), codec.StatusUnauthenticated.Err(); !errors.Is(got, want) {
			t.Fatalf("14 with %v: Err() = %v, want %v", bad, got, want)
		}
	}

	// A status error survives wrapping, and matches its own status only.
	wrapped := fmt.Errorf("connect: %w", codec.Eviction{Reason: codec.ReasonSessionTooLow}.Err())
	if !errors.Is(wrapped, codec.StatusUnauthenticated.Err()) || errors.Is(wrapped, codec.StatusInvalidCommand.Err()) {
		t.Fatalf("errors.Is through %%w: %v", wrapped)
	}
}
