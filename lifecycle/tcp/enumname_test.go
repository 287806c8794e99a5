package tcp_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestEnumNames: every defined CloseCause and Limit has its own name, and a
// value the package does not define prints in the module's one form for
// unknown values, UNKNOWN_<KIND>_N, never as a defined name.
func TestEnumNames(t *testing.T) {
	checkEnumNames(t, "CAUSE", func(v uint8) fmt.Stringer { return tcp.CloseCause(v) })
	checkEnumNames(t, "LIMIT", func(v uint8) fmt.Stringer { return tcp.Limit(v) })
}

func checkEnumNames(t *testing.T, kind string, of func(uint8) fmt.Stringer) {
	t.Helper()
	seen := map[string]bool{}
	for v := 0; v < 64; v++ {
		name := of(uint8(v)).String()
		if name == "UNKNOWN_"+kind+"_"+strconv.Itoa(v) {
			continue
		}
		if seen[name] {
			t.Errorf("%s %d: name %q used twice", kind, v, name)
		}
		seen[name] = true
	}
	if got, want := of(250).String(), "UNKNOWN_"+kind+"_250"; got != want {
		t.Errorf("%s 250 = %q, want %q", kind, got, want)
	}
}
