package codec_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestStatus: the codes of WIRE.md section 8 and those the lifecycle
// sends, their names, and Err: nil for StatusOK, an *IggyError otherwise
// that survives wrapping and matches its own status only.
func TestStatus(t *testing.T) {
	names := map[codec.Status]string{
		0: "OK", 1: "Error", 3: "InvalidCommand", 4: "InvalidFormat", 30: "StaleClient",
		40: "Unauthenticated", 42: "InvalidCredentials", 53: "InvalidPersonalAccessToken",
		57: "TransientNotCommitted", 58: "TransientNotAccepted",
	}
	for s := range codec.Status(100) {
		want, known := names[s]
		if s.IsKnown() != known {
			t.Errorf("Status(%d).IsKnown() = %t, want %t", s, s.IsKnown(), known)
		}
		if !known {
			want = fmt.Sprintf("UNKNOWN_STATUS_%d", s)
		}
		if s.String() != want {
			t.Errorf("Status(%d).String() = %q, want %q", s, s.String(), want)
		}
	}
	if err := codec.StatusOK.Err(); err != nil {
		t.Fatalf("StatusOK.Err() = %v, want nil: success is never an error", err)
	}
	for s, want := range map[codec.Status]string{
		codec.StatusUnauthenticated: "codec: iggy status 40 (Unauthenticated)",
		7:                           "codec: iggy status 7 (UNKNOWN_STATUS_7)",
	} {
		if got := s.Err().Error(); got != want {
			t.Errorf("%d.Err().Error() = %q, want %q", s, got, want)
		}
	}

	err := fmt.Errorf("ping: %w", codec.StatusUnauthenticated.Err())
	if !errors.Is(err, codec.StatusUnauthenticated.Err()) {
		t.Errorf("errors.Is through %%w: %v does not match its status", err)
	}
	if errors.Is(err, codec.StatusInvalidCommand.Err()) {
		t.Errorf("errors.Is: %v matches another status", err)
	}
	var ie *codec.IggyError
	if !errors.As(err, &ie) || ie.Status != codec.StatusUnauthenticated {
		t.Errorf("errors.As(%v) = %v, want the *IggyError of 40", err, ie)
	}
}
