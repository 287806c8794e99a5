package props

import (
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
	"github.com/leanovate/gopter/prop"
)

func TestEvictionConstructors(t *testing.T) {
	t.Parallel()
	property(t, 1, "NewEviction and NewIncompatibleProtocol frames decode and validate", prop.ForAll(
		func(client codec.Uint128, reason codec.EvictionReason, w codec.Window) string {
			e := codec.NewEviction(client, reason)
			if reason == codec.ReasonIncompatibleProtocol {
				if _, err := e.AppendBinary(nil); !errors.Is(err, codec.ErrWindow) {
					return fmt.Sprintf("NewEviction(reason 14) with no window encodes: %v", err)
				}
				e = codec.NewIncompatibleProtocolEviction(client, w)
			}
			if err := e.Validate(); err != nil {
				return fmt.Sprintf("%s: Validate: %v", Describe(e), err)
			}
			b, err := e.AppendBinary(nil)
			if err != nil {
				return fmt.Sprintf("%s: AppendBinary: %v", Describe(e), err)
			}
			got, err := codec.DecodeEviction(b)
			if err != nil || got != e {
				return fmt.Sprintf("DecodeEviction = %s, %v; want %s", Describe(got), err, Describe(e))
			}
			return ""
		}, GenClient(), pick[codec.EvictionReason](1, 15, 14, 15), GenValidWindow()))
}

// evictionRule is one rule of WIRE.md section 5's eviction validity list,
// in the reference's order, with a way to break it alone.
type evictionRule struct {
	field string
	err   error
	// breakIt damages the valid 256 bytes b of e; x varies how.
	breakIt func(b []byte, e codec.Eviction, x uint32)
}

// evictionRules lists the rules after the length check, in order.
func evictionRules() []evictionRule {
	f := func(name string) layout.Field { return headerField(codec.CommandEviction, name) }
	command, size, client, frame := f("command").Offset, f("size").Offset, f("client"), f("reserved_frame")
	reserved, reason := f("reserved"), f("reason").Offset
	max, min := f("server_protocol_version").Offset, f("server_protocol_version_min").Offset
	return []evictionRule{
		{"command", codec.ErrCommand, func(b []byte, _ codec.Eviction, x uint32) {
			b[command] = byte(x % 255)
			if b[command] == byte(codec.CommandEviction) {
				b[command] = 255
			}
		}},
		{"size", codec.ErrSize, func(b []byte, _ codec.Eviction, x uint32) {
			binary.LittleEndian.PutUint32(b[size:], []uint32{0, 255, 257, 512, codec.MaxFrameSize, x | 1<<31}[x%6])
		}},
		{"client", codec.ErrField, func(b []byte, _ codec.Eviction, _ uint32) { clear(b[client.Offset:client.End()]) }},
		{"reserved_frame", codec.ErrReserved, func(b []byte, _ codec.Eviction, x uint32) {
			b[frame.Offset+int(x%uint32(frame.Size))] = byte(x>>8) | 1
		}},
		{"reserved", codec.ErrReserved, func(b []byte, _ codec.Eviction, x uint32) {
			b[reserved.Offset+int(x%uint32(reserved.Size))] = byte(x>>8) | 1
		}},
		{"reason", codec.ErrReason, func(b []byte, _ codec.Eviction, x uint32) {
			b[reason] = []byte{0, 16, 17, 255, byte(16 + x%240)}[x%5]
		}},
		{"window", codec.ErrWindow, func(b []byte, e codec.Eviction, x uint32) {
			if e.Reason != codec.ReasonIncompatibleProtocol {
				binary.LittleEndian.PutUint32(b[[2]int{max, min}[x%2]:], x|1) // any non-zero max or min
				return
			}
			if x%2 == 0 {
				binary.LittleEndian.PutUint32(b[min:], 0) // min 0
			} else {
				binary.LittleEndian.PutUint32(b[min:], uint32(e.Window.Max)+1+x%7) // min > max
			}
		}},
	}
}

// TestEvictionRules: every rule broken alone is reported as that rule,
// naming its field; several broken together are reported as the first in
// the reference's order.
func TestEvictionRules(t *testing.T) {
	t.Parallel()
	rules := evictionRules()
	subset := pick[uint8](1, 1<<len(rules)-1, 1, 2, 4, 8, 16, 32, 64)
	property(t, 1, "each broken rule is reported as itself, the first one first", prop.ForAll(
		func(e codec.Eviction, mask uint8, x uint32) string {
			b, err := e.AppendBinary(nil)
			if err != nil {
				return "valid eviction does not encode: " + err.Error()
			}
			first := -1
			for i := len(rules) - 1; i >= 0; i-- { // the window rule reads the reason: break it first
				if mask&(1<<i) != 0 {
					rules[i].breakIt(b, e, x)
					first = i
				}
			}
			want := rules[first]
			_, err = codec.DecodeEviction(b)
			var ce *codec.Error
			if !errors.Is(err, want.err) || !errors.As(err, &ce) || string(ce.Field) != want.field {
				return fmt.Sprintf("rules %07b broken: got %v; want %v naming %q", mask, err, want.err, want.field)
			}
			if want.field == "window" && ce.Rule != windowRule(e.Reason) {
				return fmt.Sprintf("reason %d, window broken: rule %q; want %q", e.Reason, ce.Rule, windowRule(e.Reason))
			}
			return ""
		}, GenEviction(), subset, pick[uint32](0, ^uint32(0), 0, 1, 2, 3)))
}

// windowRule is the id of the rule a broken window breaks, which depends
// on the reason (WIRE.md section 5): reason 14 needs a well-formed window,
// every other reason a zero one.
func windowRule(r codec.EvictionReason) string {
	if r == codec.ReasonIncompatibleProtocol {
		return "eviction.window.incompatible"
	}
	return "eviction.window.zero"
}

// TestEvictionValidateRules: Validate reports each rule of a value, the
// way AppendBinary refuses it, naming the field.
func TestEvictionValidateRules(t *testing.T) {
	t.Parallel()
	property(t, 1, "Validate names the broken field", prop.ForAll(func(e codec.Eviction, which uint8, w codec.Window) string {
		var want evictionRule
		switch which % 3 {
		case 0:
			e.Client = codec.Uint128{}
			want = evictionRule{field: "client", err: codec.ErrField}
		case 1:
			e.Reason = codec.EvictionReason([]uint8{0, 16, 255}[int(w.Min)%3])
			want = evictionRule{field: "reason", err: codec.ErrReason}
		default:
			if e.Reason == codec.ReasonIncompatibleProtocol {
				e.Window = codec.Window{Min: w.Max + 1, Max: w.Max}
			} else {
				e.Window = codec.Window{Min: w.Min, Max: w.Max | 1}
			}
			want = evictionRule{field: "window", err: codec.ErrWindow}
		}
		err := e.Validate()
		var ce *codec.Error
		if !errors.Is(err, want.err) || !errors.As(err, &ce) || string(ce.Field) != want.field {
			return fmt.Sprintf("Validate(%s) = %v; want %v naming %q", Describe(e), err, want.err, want.field)
		}
		if out, err2 := e.AppendBinary([]byte{1}); len(out) != 1 || err2 == nil {
			return "AppendBinary of an invalid eviction did not refuse it"
		}
		return ""
	}, GenEviction(), pick[uint8](0, 2), GenWindow()))
}

// TestEvictionMeaning: what an eviction means to a client is the table of
// WIRE.md section 8, for all 256 reason bytes.
func TestEvictionMeaning(t *testing.T) {
	t.Parallel()
	property(t, 1, "Err follows section 8", prop.ForAll(func(client codec.Uint128, reason uint8, w codec.Window) string {
		e := codec.Eviction{Client: client, Reason: codec.EvictionReason(reason), Window: w}
		got, want := e.Err(), sectionEight(reason, w)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			return fmt.Sprintf("reason %d window %v: Err = %v; want %v", reason, w, got, want)
		}
		return ""
	}, GenClient(), pick[uint8](0, 255, 0, 1, 2, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16), GenWindow()))
}

// sectionEight is WIRE.md section 8's table.
func sectionEight(reason uint8, w codec.Window) error {
	switch reason {
	case 15:
		return codec.StatusInvalidFormat.Err()
	case 13:
		return codec.StatusStaleClient.Err()
	case 1, 7, 8, 11, 12:
		return codec.StatusUnauthenticated.Err()
	case 9:
		return codec.StatusInvalidCredentials.Err()
	case 10:
		return codec.StatusInvalidPAT.Err()
	case 14:
		if 1 <= w.Min && w.Min <= w.Max {
			return &codec.IncompatibleProtocolError{Window: w}
		}
		return codec.StatusUnauthenticated.Err()
	}
	return codec.StatusInvalidCommand.Err()
}
