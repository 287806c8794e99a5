package tcp_test

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestExchangeNoSecretsPrinted: an Exchange holding a login frame prints
// no password, through fmt, JSON or slog, and still tells its sizes.
func TestExchangeNoSecretsPrinted(t *testing.T) {
	login := register(t, clientA, passwordBody(t, v011, "iggy", "hunter2"))
	ex := tcp.Exchange{In: codec.NewSecret(login), Err: lifecycle.ErrFrameTooLarge}
	secrets := []string{"hunter2", "68756e74657232" /* hunter2 in hex */, "aHVudGVyM" /* base64 */}
	var printed []string
	for _, v := range []any{ex, &ex} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
			printed = append(printed, fmt.Sprintf(verb, v))
		}
		j, err := json.Marshal(v)
		require.NoError(t, err)
		printed = append(printed, string(j))
		var text, js strings.Builder
		slog.New(slog.NewTextHandler(&text, nil)).Info("x", "v", v)
		slog.New(slog.NewJSONHandler(&js, nil)).Info("x", "v", v)
		printed = append(printed, text.String(), js.String())
	}
	for _, s := range printed {
		for _, secret := range secrets {
			assert.NotContains(t, s, secret)
		}
	}
	assert.Contains(t, fmt.Sprint(ex), fmt.Sprintf("in %d bytes", len(login)), "the summary still says something")
}
