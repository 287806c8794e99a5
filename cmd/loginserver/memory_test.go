package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemoryReleaser: memory is released once a crowd of at least
// crowdGone connections left and at most half the peak is open, once per
// crowd; small ebbs and a crowd that stays release nothing.
func TestMemoryReleaser(t *testing.T) {
	open, released := 0, 0
	m := &memoryReleaser{conns: func() int { return open }, release: func() { released++ }}
	for _, step := range []struct {
		open    int
		release bool
	}{
		{10, false}, {8192, false}, {8000, false}, // a crowd arrives and stays
		{4000, true},  // more than half of it left
		{3900, false}, // the new peak is 4000: 100 less is no crowd
		{3000, false}, // 1,000 gone, but 3,000 is more than half of 4,000
		{1000, true},  // 3,000 gone and under half
		{1000, false}, // nothing more
		{400, true},   // 600 gone from the peak of 1,000, and under half
	} {
		open = step.open
		require.Equal(t, step.release, m.check(), "at %d open", step.open)
	}
	require.Equal(t, 3, released)
}
