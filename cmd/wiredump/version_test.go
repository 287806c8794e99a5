package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/iggywire/iggywire/internal/release"
)

// TestVersion: -version prints one line, the command and its release
// first, exits 0 and reads no input, even when one is given.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"-version"}, {"-version", "-hex", "00"}, {"-json", "-version"}} {
		code, out, stderr := runWith(nil, args...)
		assert.Equal(t, exitOK, code, "%v", args)
		assert.Empty(t, stderr, "%v", args)
		assert.True(t, strings.HasPrefix(out, "wiredump "+release.Version+" "), "%v: %q", args, out)
		assert.Equal(t, 1, strings.Count(out, "\n"), "%v: %q", args, out)
		assert.Contains(t, out, " go=go", "%v", args)
	}
	_, _, help := runWith(nil, "-h")
	assert.Contains(t, help, "-version")
}
