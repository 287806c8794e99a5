package main

import (
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	for in, want := range map[string]string{"7s": "7s", "10m": "10m0s", "50000x": "50000x", "1x": "1x"} {
		var b budget
		if err := b.Set(in); err != nil {
			t.Errorf("Set(%q): %v", in, err)
			continue
		}
		if got := b.String(); got != want {
			t.Errorf("Set(%q).String() = %q, want %q", in, got, want)
		}
	}
	for _, in := range []string{"", "x", "0x", "-5x", "1.5x", "0s", "-1s", "soon"} {
		var b budget
		if err := b.Set(in); err == nil {
			t.Errorf("Set(%q) accepted %v", in, b.String())
		}
	}
	b := budget{d: 7 * time.Second}
	if b.String() != "7s" {
		t.Errorf("default prints %q", b.String())
	}
}
