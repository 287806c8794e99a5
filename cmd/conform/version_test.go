package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/internal/release"
)

// TestVersion: -version prints one line, the command and its release
// first, and nothing on stderr.
func TestVersion(t *testing.T) {
	for _, flag := range []string{"-version", "--version"} {
		var out, stderr bytes.Buffer
		require.NoError(t, run(context.Background(), []string{flag}, &out, &stderr), flag)
		assert.True(t, strings.HasPrefix(out.String(), "conform "+release.Version+" "), "%s: %q", flag, out.String())
		assert.Equal(t, 1, strings.Count(out.String(), "\n"), "%s: %q", flag, out.String())
		assert.Empty(t, stderr.String(), flag)
	}
}
