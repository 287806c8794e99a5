package lifecycle_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestErrorChains: each error names its class and its cause, and the cause
// stays reachable with errors.As.
func TestErrorChains(t *testing.T) {
	conn := newTestServer(t).NewConn()
	bad := nonReplicated(t, clientA, 1, codec.CodePing)
	bad[60] = 13
	_, dropped := conn.Handle(bad, nil)
	_, size := newTestServer(t).NewConn().Handle(bad[:10], nil)

	c := newTestClient(t)
	_, err := c.Ping(nil)
	require.NoError(t, err)
	_, malformed := c.Receive(bad)

	for _, tc := range []struct {
		err   error
		class error
		text  string
	}{
		{dropped, lifecycle.ErrDropped, "frame dropped: codec: command at offset 60"},
		{size, lifecycle.ErrFrameSize, "unusable frame size: codec: header at offset 10"},
		{malformed, lifecycle.ErrMalformed, "malformed frame: codec: "},
	} {
		require.ErrorIs(t, tc.err, tc.class)
		require.True(t, strings.Contains(tc.err.Error(), tc.text), "%q lacks %q", tc.err, tc.text)
		var ce *codec.Error
		require.True(t, errors.As(tc.err, &ce), "%v reaches its codec cause", tc.err)
	}
	require.ErrorIs(t, malformed, codec.StatusInvalidCommand, "a malformed frame means status 3 to an SDK")
	_, err = c.Logout(nil)
	require.ErrorIs(t, err, lifecycle.ErrClosed, "a closed client builds nothing but a login")
}
