package fuzz

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
)

// checkEnums holds every typed value a header carries to its String and
// Known contract, whatever the header's validity: a String admits an
// unknown value by its UNKNOWN_ (or numbered) form, never by a name.
func checkEnums(t *testing.T, h []byte) {
	cmd := codec.Command(h[60])
	knownName(t, cmd.String(), cmd.IsKnown(), "UNKNOWN_COMMAND_")
	for _, o := range []codec.Operation{codec.Operation(h[176]), codec.Operation(h[208])} {
		knownName(t, o.String(), o.IsKnown(), "UNKNOWN_OPERATION_")
		// WIRE.md section 6: metadata is internal (64..68) plus 128..149
		// except DeleteSegments (138).
		meta := o >= 64 && o <= 68 || o >= 128 && o <= 149 && o != 138
		part := o >= 160 && o <= 162
		if o.IsMetadata() != meta || o.IsPartition() != part {
			t.Fatalf("operation %d: IsMetadata %v, IsPartition %v", o, o.IsMetadata(), o.IsPartition())
		}
	}
	code := codec.Code(le.Uint32(h[196:]))
	knownName(t, code.String(), code.IsKnown(), "UNKNOWN_CODE_")
	checkCodeTable(t, code, codec.Operation(h[176]))
	status := codec.Status(le.Uint32(h[216:]))
	knownName(t, status.String(), status.IsKnown(), "UNKNOWN_STATUS_")
	if se := (&codec.IggyError{Status: status}).Error(); !strings.Contains(se, status.String()) {
		t.Fatalf("status error %q does not name %q", se, status.String())
	}
	if (status == codec.StatusOK) != (status.Err() == nil) {
		t.Fatalf("%v.Err() = %v: nil exactly for StatusOK", status, status.Err())
	}
	reason := codec.EvictionReason(h[255])
	knownName(t, reason.String(), reason <= 15, "UNKNOWN_REASON_")
	kind := layout.Kind(h[61]) // any byte, as a layout-table field kind
	knownName(t, kind.String(), kind >= layout.Uint && kind <= layout.Bytes, "UNKNOWN_FIELD_KIND_")
	checkUint128(t, codec.Uint128{Lo: le.Uint64(h[128:]), Hi: le.Uint64(h[136:])})
	w := codec.Window{Min: codec.Version(le.Uint32(h[148:])), Max: codec.Version(le.Uint32(h[144:]))}
	checkMeaning(t, codec.Eviction{Reason: reason, Window: w})
}

// knownName: a known value has a name, an unknown one the unknown form.
func knownName(t *testing.T, s string, known bool, unknownPrefix string) {
	if s == "" || strings.HasPrefix(s, unknownPrefix) == known {
		t.Fatalf("String %q for a value whose Known() is %v", s, known)
	}
}

// checkUint128: String is 0x and 32 hex digits that parse back.
func checkUint128(t *testing.T, u codec.Uint128) {
	s := u.String()
	hi, err1 := strconv.ParseUint(s[2:18], 16, 64)
	lo, err2 := strconv.ParseUint(s[18:], 16, 64)
	if len(s) != 34 || s[:2] != "0x" || err1 != nil || err2 != nil || (codec.Uint128{Lo: lo, Hi: hi}) != u {
		t.Fatalf("Uint128 %+v prints as %q", u, s)
	}
	if codec.Uint128From(u.Lo) != (codec.Uint128{Lo: u.Lo}) || u.IsZero() != (u.Lo == 0 && u.Hi == 0) {
		t.Fatalf("Uint128From/IsZero disagree for %+v", u)
	}
}

// meanings is wire reference section 8: what each reason means to a client.
var meanings = map[codec.EvictionReason]codec.Status{
	1: codec.StatusUnauthenticated, 2: codec.StatusInvalidCommand, 3: codec.StatusInvalidCommand,
	4: codec.StatusInvalidCommand, 5: codec.StatusInvalidCommand, 6: codec.StatusInvalidCommand,
	7: codec.StatusUnauthenticated, 8: codec.StatusUnauthenticated, 9: codec.StatusInvalidCredentials,
	10: codec.StatusInvalidPAT, 11: codec.StatusUnauthenticated, 12: codec.StatusUnauthenticated,
	13: codec.StatusStaleClient, 15: codec.StatusInvalidFormat,
}

// checkMeaning restates section 8 for any reason and window.
func checkMeaning(t *testing.T, e codec.Eviction) {
	got := e.Err()
	if e.Reason == codec.ReasonIncompatibleProtocol {
		if e.Window.IsValid() {
			ip, ok := got.(*codec.IncompatibleProtocolError)
			if !ok || ip.Window != e.Window || !strings.Contains(ip.Error(), e.Window.String()) {
				t.Fatalf("reason 14 with window %v means %v", e.Window, got)
			}
			return
		}
		if !errors.Is(got, codec.StatusUnauthenticated.Err()) || e.Reason.Status() != codec.StatusUnauthenticated {
			t.Fatalf("reason 14 with an ill-formed window means %v, want 40", got)
		}
		return
	}
	want, ok := meanings[e.Reason]
	if !ok {
		want = codec.StatusInvalidCommand // 0 and unknown reasons
	}
	var ie *codec.IggyError
	if !errors.As(got, &ie) || ie.Status != want || e.Reason.Status() != want {
		t.Fatalf("reason %d means %v, want %v", e.Reason, got, want)
	}
}

// checkCodeTable: OperationForCode and Operation.Code read WIRE.md section
// 6's table both ways, so each undoes the other wherever a code exists.
func checkCodeTable(t *testing.T, code codec.Code, o codec.Operation) {
	if c, ok := o.Code(); ok && codec.OperationForCode(c) != o {
		t.Fatalf("operation %d: Code %d rides %v", o, c, codec.OperationForCode(c))
	}
	switch op := codec.OperationForCode(code); op {
	case codec.OperationNonReplicated, codec.OperationRegister:
	default:
		if c, ok := op.Code(); !ok || c != code {
			t.Fatalf("code %d rides %v, whose Code is %d, %v", code, op, c, ok)
		}
	}
}
