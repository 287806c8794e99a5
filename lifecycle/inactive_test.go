package lifecycle_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// checks records what a Guard is told.
type checks struct{ ok []bool }

func (c *checks) Allow(lifecycle.Attempt) bool         { return true }
func (c *checks) Checked(_ lifecycle.Attempt, ok bool) { c.ok = append(c.ok, ok) }
func (c *checks) failed() bool                         { return len(c.ok) == 1 && !c.ok[0] }

// TestInactiveTokenIsAFailedCheck: a right token of an inactive user keeps
// the reference's 11 (docs/loginserver.md says why), a wrong token gets
// 10, and the Guard (the failed-login throttle) is told both are failed
// checks, so that it charges them alike; an inactive user's right
// password is 9, like a wrong one.
func TestInactiveTokenIsAFailedCheck(t *testing.T) {
	for _, tc := range []struct {
		name   string
		body   []byte
		reason codec.EvictionReason
	}{
		{"right token, inactive user", tokenBody(t, v011, "tok-bob"), codec.ReasonUserInactive},
		{"wrong token", tokenBody(t, v011, "tok-nob"), codec.ReasonInvalidToken},
		{"right password, inactive user", passwordBody(t, v011, "bob", "bobpw"), codec.ReasonInvalidCredentials},
		{"wrong password", passwordBody(t, v011, "bob", "bobpx"), codec.ReasonInvalidCredentials},
	} {
		g := &checks{}
		conn := newTestServer(t).NewConnWith(lifecycle.ConnConfig{Guard: g})
		_, o, err := conn.Handle(register(t, clientA, tc.body), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if o.Answer != lifecycle.AnswerEviction || o.Reason != tc.reason {
			t.Errorf("%s: %v %v, want eviction %v", tc.name, o.Answer, o.Reason, tc.reason)
		}
		if !g.failed() {
			t.Errorf("%s: the Guard was told %v, want one failed check", tc.name, g.ok)
		}
		if o.Login.Username != nil {
			t.Errorf("%s: Login.Username = %q, want nil", tc.name, o.Login.Username)
		}
	}
}
