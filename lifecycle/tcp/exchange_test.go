package tcp_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/leakcheck"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestExchangeNoSecretsPrinted: an Exchange holding a login frame prints
// no password, through fmt, JSON or slog, and still tells its sizes.
func TestExchangeNoSecretsPrinted(t *testing.T) {
	login := lifecycletest.Register(t, lifecycletest.ClientA, lifecycletest.PasswordBody(t, lifecycletest.V011, "iggy", "hunter2"))
	ex := tcp.Exchange{In: codec.NewSecret(login), Err: lifecycle.ErrFrameTooLarge}
	secrets := []string{"hunter2", "68756e74657232" /* hunter2 in hex */, "aHVudGVyM" /* base64 */}
	for _, v := range []any{ex, &ex} {
		forms := leakcheck.PrintForms(v)
		require.Contains(t, forms, "json", "%T marshals", v)
		for how, s := range forms {
			for _, secret := range secrets {
				assert.NotContains(t, s, secret, "%T printed with %s", v, how)
			}
		}
	}
	assert.Contains(t, fmt.Sprint(ex), fmt.Sprintf("in %d bytes", len(login)), "the summary still says something")
}
