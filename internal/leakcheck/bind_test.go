package leakcheck

import (
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// leakBindSecret is Leak for a bind secret of any 32 bytes (a bind secret
// is any value, not text): it looks for bind in every printed form of
// every holder, the 0.11.1 ones holding it as their bind secret.
func leakBindSecret(bind []byte) (string, error) {
	if len(bind) != codec.BindSecretLen {
		return "", fmt.Errorf("leakcheck: a bind secret is %d bytes, not %d", codec.BindSecretLen, len(bind))
	}
	hs, err := holders([]byte("pw-of-the-bind-check"), bind)
	if err != nil {
		return "", err
	}
	return shownIn(hs, bind), nil
}

// TestLeakBindSecret: a bind secret of any bytes, text or not, shows in no
// printed form of any holder; the check refuses one of another length.
func TestLeakBindSecret(t *testing.T) {
	binary, text := make([]byte, 32), []byte("bind-secret-as-text-32-bytes-xyz")
	for i := range binary {
		binary[i] = byte(0x80 + i*3)
	}
	for _, bind := range [][]byte{binary, text} {
		where, err := leakBindSecret(bind)
		if err != nil {
			t.Fatal(err)
		}
		if where != "" {
			t.Errorf("%q: %s", bind, where)
		}
	}
	if _, err := leakBindSecret(text[:31]); err == nil {
		t.Error("a 31-byte bind secret was taken")
	}
}
