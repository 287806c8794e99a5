package codec_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// TestStatus: the codes of WIRE.md section 8, their names, and Status as an
// error that survives wrapping.
func TestStatus(t *testing.T) {
	names := map[codec.Status]string{
		0: "OK", 3: "InvalidCommand", 4: "InvalidFormat", 30: "StaleClient",
		40: "Unauthenticated", 42: "InvalidCredentials", 53: "InvalidPersonalAccessToken",
		57: "TransientNotCommitted", 58: "TransientNotAccepted",
	}
	for s := range codec.Status(100) {
		want, known := names[s]
		require.Equal(t, known, s.Known(), fmt.Sprintf("Status(%d).Known", s))
		if !known {
			want = fmt.Sprintf("UNKNOWN_STATUS_%d", s)
		}
		require.Equal(t, want, s.String(), fmt.Sprintf("Status(%d).String", s))
	}
	require.Equal(t, "iggy status 40 (Unauthenticated)", codec.StatusUnauthenticated.Error(), "Error")
	require.Equal(t, "iggy status 7 (UNKNOWN_STATUS_7)", codec.Status(7).Error(), "Error")

	err := fmt.Errorf("ping: %w", codec.StatusUnauthenticated)
	require.Equal(t, true, errors.Is(err, codec.StatusUnauthenticated), "errors.Is through %w")
	require.Equal(t, false, errors.Is(err, codec.StatusInvalidCommand), "errors.Is another status")
	var s codec.Status
	require.Equal(t, true, errors.As(err, &s), "errors.As")
	require.Equal(t, codec.StatusUnauthenticated, s, "errors.As value")
}
