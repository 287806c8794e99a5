package tcp_test

import (
	"strconv"
	"testing"

	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestEnumNames: every defined CloseCause and Limit has its own name, and a
// value the package does not define prints in the module's one form for
// unknown values, UNKNOWN_<KIND>_N, never as a defined name.
func TestEnumNames(t *testing.T) {
	seen := map[string]bool{}
	for c := tcp.CloseCause(0); c < 64; c++ {
		name := c.String()
		if name == "UNKNOWN_CAUSE_"+strconv.Itoa(int(c)) {
			continue
		}
		if seen[name] {
			t.Errorf("CloseCause %d: name %q used twice", c, name)
		}
		seen[name] = true
	}
	if got := tcp.CloseCause(250).String(); got != "UNKNOWN_CAUSE_250" {
		t.Errorf("CloseCause(250) = %q, want UNKNOWN_CAUSE_250", got)
	}
	seen = map[string]bool{}
	for l := tcp.Limit(0); l < 64; l++ {
		name := l.String()
		if name == "UNKNOWN_LIMIT_"+strconv.Itoa(int(l)) {
			continue
		}
		if seen[name] {
			t.Errorf("Limit %d: name %q used twice", l, name)
		}
		seen[name] = true
	}
	if got := tcp.Limit(250).String(); got != "UNKNOWN_LIMIT_250" {
		t.Errorf("Limit(250) = %q, want UNKNOWN_LIMIT_250", got)
	}
}
