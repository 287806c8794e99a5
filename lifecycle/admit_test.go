package lifecycle_test

import (
	"bytes"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestAdmit: the Admit hook is asked after the credentials passed, with
// the user the login would bind, and before anything is bound; the reason
// it returns is the eviction the login gets (14 and non-reasons become
// 12), and zero lets the login bind as without the hook.
func TestAdmit(t *testing.T) {
	srv := newTestServer(t)
	for _, tc := range []struct {
		name   string
		body   []byte
		give   codec.EvictionReason
		user   uint32
		reason codec.EvictionReason // 0: logged in
	}{
		{"password refused", passwordBody(t, v011, "iggy", "iggy"), codec.ReasonSessionError, 1, codec.ReasonSessionError},
		{"token refused", tokenBody(t, v011, "tok-iggy"), codec.ReasonSessionError, 1, codec.ReasonSessionError},
		{"another reason", passwordBody(t, v011, "iggy", "iggy"), codec.ReasonStaleClient, 1, codec.ReasonStaleClient},
		{"14 has no window here", passwordBody(t, v011, "iggy", "iggy"), codec.ReasonIncompatibleProtocol, 1, codec.ReasonSessionError},
		{"not a reason", passwordBody(t, v011, "iggy", "iggy"), 200, 1, codec.ReasonSessionError},
		{"admitted", passwordBody(t, v011, "iggy", "iggy"), 0, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var asked []uint32
			conn := srv.NewConnWith(lifecycle.ConnConfig{Admit: func(user uint32) codec.EvictionReason {
				asked = append(asked, user)
				return tc.give
			}})
			out, o, err := conn.Handle(register(t, clientA, tc.body), nil)
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if len(asked) != 1 || asked[0] != tc.user {
				t.Fatalf("Admit asked about %v, want once about user %d", asked, tc.user)
			}
			if tc.reason == 0 {
				if !o.LoggedIn() || !conn.State().LoggedIn || o.Login.UserID != tc.user {
					t.Fatalf("admitted: Outcome %+v, state %+v; want logged in as %d", o.Login, conn.State(), tc.user)
				}
				return
			}
			if want := evictionFrame(t, clientA, tc.reason); !bytes.Equal(out, want) {
				t.Fatalf("answer =\n%x\nwant eviction %v\n%x", out, tc.reason, want)
			}
			if conn.State().LoggedIn || !conn.Closed() || o.Login.OK || o.Login.Reason != tc.reason || o.Login.UserID != tc.user {
				t.Fatalf("refused: Outcome %+v, state %+v; want closed, not logged in, reason %v, user %d", o.Login, conn.State(), tc.reason, tc.user)
			}
		})
	}
}

// TestAdmitNotAskedOnFailure: a login whose credentials fail never reaches
// the hook, nor does a ping.
func TestAdmitNotAskedOnFailure(t *testing.T) {
	srv := newTestServer(t)
	asked := 0
	cfg := lifecycle.ConnConfig{Admit: func(uint32) codec.EvictionReason { asked++; return 0 }}
	if _, _, err := srv.NewConnWith(cfg).Handle(register(t, clientA, passwordBody(t, v011, "iggy", "wrong")), nil); err != nil {
		t.Fatalf("Handle: %v", err)
	}
	if _, _, err := srv.NewConnWith(cfg).Handle(nonReplicated(t, clientA, 1, codec.CodePing), nil); err != nil {
		t.Fatalf("Handle: %v", err)
	}
	if asked != 0 {
		t.Fatalf("Admit asked %d times, want 0", asked)
	}
}
