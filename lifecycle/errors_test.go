package lifecycle_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestErrorChains: each error names its class and its cause, and the cause
// stays reachable with errors.As.
func TestErrorChains(t *testing.T) {
	conn := newTestServer(t).NewConn()
	bad := nonReplicated(t, clientA, 1, codec.CodePing)
	bad[60] = 13
	_, _, dropped := conn.Handle(bad, nil)
	_, _, size := newTestServer(t).NewConn().Handle(bad[:10], nil)

	c := newTestClient(t)
	if _, err := c.Ping(nil); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	_, malformed := c.Receive(bad)

	for _, tc := range []struct {
		err   error
		class error
		text  string
	}{
		{dropped, lifecycle.ErrDropped, "frame dropped: codec: command at offset 60"},
		{size, codec.ErrSize, "codec: header at offset 10: bad size"},
		{malformed, lifecycle.ErrMalformed, "malformed frame: codec: "},
	} {
		if !errors.Is(tc.err, tc.class) {
			t.Fatalf("error = %v, want %v", tc.err, tc.class)
		}
		if !strings.Contains(tc.err.Error(), tc.text) {
			t.Fatalf("%q lacks %q", tc.err, tc.text)
		}
		var ce *codec.Error
		if !errors.As(tc.err, &ce) {
			t.Fatalf("%v reaches its codec cause: it holds no *codec.Error", tc.err)
		}
	}
	if want := codec.StatusInvalidCommand.Err(); !errors.Is(malformed, want) {
		t.Fatalf("a malformed frame means status 3 to an SDK: error = %v, want %v", malformed, want)
	}
	_, err := c.Logout(nil)
	if !errors.Is(err, lifecycle.ErrClosed) {
		t.Fatalf("a closed client builds nothing but a login: Logout error = %v, want %v", err, lifecycle.ErrClosed)
	}
}
