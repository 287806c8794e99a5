package tcp_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestExchangeNoSecretsPrinted: an Exchange holding a login frame prints
// no password, through fmt, JSON or slog, and still tells its sizes.
func TestExchangeNoSecretsPrinted(t *testing.T) {
	login := lifecycletest.Register(t, lifecycletest.ClientA, lifecycletest.PasswordBody(t, lifecycletest.V011, "iggy", "hunter2"))
	ex := tcp.Exchange{In: codec.NewSecret(login), Err: codec.ErrFrameTooLarge}
	secrets := []string{"hunter2", "68756e74657232" /* hunter2 in hex */, "aHVudGVyM" /* base64 */}
	for _, v := range []any{ex, &ex} {
		lifecycletest.EachShownSecret(t, v, secrets, func(how, secret, s string) {
			t.Errorf("%T printed with %s shows %q: %s", v, how, secret, s)
		})
	}
	if s, want := fmt.Sprint(ex), fmt.Sprintf("in %d bytes", len(login)); !strings.Contains(s, want) {
		t.Errorf("the summary still says something: %q does not contain %q", s, want)
	}
}
