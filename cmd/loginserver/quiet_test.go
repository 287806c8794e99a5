package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestQuietStep: memory is handed back in the first quiet period after a
// burst, once; a trickle, a burst still going on, or quiet after quiet
// hand nothing back.
func TestQuietStep(t *testing.T) {
	var busy bool
	var got []bool
	for _, n := range []int64{10, 2000, 5000, 10, 0, 1023, 10, 1024, 63, 64} {
		var release bool
		release, busy = quietStep(busy, n)
		got = append(got, release)
	}
	assert.Equal(t, []bool{false, false, false, true, false, false, false, false, true, false}, got)
}
