package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestBudget(t *testing.T) {
	for in, want := range map[string]string{"7s": "7s", "10m": "10m0s", "50000x": "50000x", "1x": "1x"} {
		var b budget
		if assert.NoError(t, b.Set(in), "Set(%q)", in) {
			assert.Equal(t, want, b.String(), "Set(%q)", in)
		}
	}
	for _, in := range []string{"", "x", "0x", "-5x", "1.5x", "0s", "-1s", "soon"} {
		var b budget
		assert.Error(t, b.Set(in), "Set(%q) accepted %v", in, b.String())
	}
	b := budget{d: 7 * time.Second}
	assert.Equal(t, "7s", b.String(), "the default")
}
