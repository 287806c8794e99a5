package lifecycle_test

import (
	"testing"

	"github.com/iggywire/iggywire/internal/leakcheck"
)

// TestSecretsNeverPrinted prints a value of every type that holds a secret
// (codec bodies, auth tables, a Config, a Server, an Exchange), with every
// fmt verb and through JSON and slog, by value, by pointer, in containers
// and in an unexported field, and finds the secret nowhere.
func TestSecretsNeverPrinted(t *testing.T) {
	for _, secret := range []string{"hunter2-s3cr3t-pw", "tökén-ünïcödé-42"} {
		where, err := leakcheck.Leak([]byte(secret))
		if err != nil {
			t.Fatalf("Leak(%q): %v", secret, err)
		}
		if where != "" {
			t.Fatalf("Leak(%q) found the secret: %s", secret, where)
		}
	}
}

// TestSecretProbeWorks: the same search finds bytes that are printed, so an
// empty result above means something.
func TestSecretProbeWorks(t *testing.T) {
	if !leakcheck.Shows([]byte("visible-bytes")) {
		t.Fatalf("Shows(%q) = false, want true", "visible-bytes")
	}
}
