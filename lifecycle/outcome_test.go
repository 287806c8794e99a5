package lifecycle_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestOutcome: for each kind of frame, what Handle says it did is what the
// answer on the wire shows, so a transport never has to decode either.
func TestOutcome(t *testing.T) {
	login := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	wrong := register(t, clientA, passwordBody(t, v011, "iggy", "nope"))
	token := register(t, clientA, tokenBody(t, v011, "tok-bob"))
	ping := nonReplicated(t, clientA, 1, codec.CodePing)
	deny := nonReplicated(t, clientA, 1, codec.CodeGetClusterMetadata)
	cases := []struct {
		name   string
		before [][]byte // frames handled first
		frame  []byte
		want   lifecycle.Outcome // Before, After and Login.Username are checked apart
		err    error
	}{
		{name: "ping before login", frame: ping,
			want: lifecycle.Outcome{Operation: codec.OperationNonReplicated, Code: codec.CodePing, Client: clientA, Request: 1,
				Answer: lifecycle.AnswerReply, Status: codec.StatusOK}},
		{name: "command before login", frame: deny,
			want: lifecycle.Outcome{Operation: codec.OperationNonReplicated, Code: codec.CodeGetClusterMetadata, Client: clientA, Request: 1,
				Answer: lifecycle.AnswerReply, Status: codec.StatusUnauthenticated}},
		{name: "login", frame: login,
			want: lifecycle.Outcome{Operation: codec.OperationRegister, Client: clientA, Answer: lifecycle.AnswerReply,
				Login: lifecycle.Login{OK: true, UserID: 1, Session: 1}}},
		{name: "wrong password", frame: wrong,
			want: lifecycle.Outcome{Operation: codec.OperationRegister, Client: clientA, Answer: lifecycle.AnswerEviction,
				Reason: codec.ReasonInvalidCredentials, Login: lifecycle.Login{Reason: codec.ReasonInvalidCredentials}}},
		{name: "token of an inactive user", frame: token,
			want: lifecycle.Outcome{Operation: codec.OperationRegister, Client: clientA, Answer: lifecycle.AnswerEviction,
				Reason: codec.ReasonUserInactive, Login: lifecycle.Login{PAT: true, Reason: codec.ReasonUserInactive}}},
		{name: "logout", before: [][]byte{login}, frame: replicated(t, clientA, codec.OperationLogout, 1, 1),
			want: lifecycle.Outcome{Operation: codec.OperationLogout, Code: codec.CodeLogoutUser, Client: clientA, Request: 1,
				Answer: lifecycle.AnswerReply, Status: codec.StatusOK}},
		{name: "replicated without session", frame: replicated(t, clientA, codec.OperationCreateStream, 1, 1),
			want: lifecycle.Outcome{Operation: codec.OperationCreateStream, Code: 202, Client: clientA, Request: 1,
				Answer: lifecycle.AnswerEviction, Reason: codec.ReasonNoSession}},
		{name: "dropped header", frame: append(make([]byte, 0, 256), make([]byte, 256)...),
			err: codec.ErrSize},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			conn := newTestServer(t).NewConn()
			for _, f := range tc.before {
				if _, _, err := conn.Handle(f, nil); err != nil {
					t.Fatalf("setup frame: %v", err)
				}
			}
			before := conn.State()
			out, o, err := conn.Handle(tc.frame, nil)
			if tc.err != nil {
				if !errors.Is(err, tc.err) || o.Answer != lifecycle.AnswerNone || len(out) != 0 {
					t.Fatalf("Handle = %d bytes, %+v, %v; want no answer and %v", len(out), o, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Handle: %v", err)
			}
			if o.Before != lifecycletest.PhaseOf(before) || o.After != lifecycletest.PhaseOf(conn.State()) {
				t.Errorf("Before, After = %v, %v; want %v, %v", o.Before, o.After, lifecycletest.PhaseOf(before), lifecycletest.PhaseOf(conn.State()))
			}
			if o.LoggedIn() != (conn.State().LoggedIn && conn.State().Session != before.Session) {
				t.Errorf("LoggedIn() = %t, state %+v after %+v", o.LoggedIn(), conn.State(), before)
			}
			// Only a login that bound names its account: one that did not
			// may have read a token as a username.
			if tc.want.IsLogin() && !tc.want.Login.PAT && o.Login.OK && string(o.Login.Username) != "iggy" {
				t.Errorf("Login.Username = %q, want the account named", o.Login.Username)
			}
			if !o.Login.OK && o.Login.Username != nil {
				t.Errorf("Login.Username = %q on a login that did not bind, want nil", o.Login.Username)
			}
			got := *o
			got.Before, got.After, got.Login.Username = 0, 0, nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Outcome =\n\t%+v\nwant\n\t%+v", got, tc.want)
			}
			checkAnswerShows(t, out, *o)
		})
	}
}

// checkAnswerShows: the answer on the wire is what the Outcome says.
func checkAnswerShows(t *testing.T, out []byte, o lifecycle.Outcome) {
	t.Helper()
	switch o.Answer {
	case lifecycle.AnswerReply:
		h, err := codec.DecodeReplyHeader(out)
		if err != nil || h.Status != o.Status || h.Client != o.Client || h.Request != o.Request {
			t.Errorf("answer %+v, %v does not show the Outcome's reply %v", h, err, o.Status)
		}
	case lifecycle.AnswerEviction:
		e, err := codec.DecodeEviction(out)
		if err != nil || e.Reason != o.Reason || o.After != lifecycle.PhaseClosed {
			t.Errorf("answer %+v, %v does not show the Outcome's eviction %v (after: %v)", e, err, o.Reason, o.After)
		}
	}
}

// TestOutcomeTransient: a login answered with a transient code says so, and
// its label names the code rather than a status 0.
func TestOutcomeTransient(t *testing.T) {
	for _, code := range []codec.Status{codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted} {
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth,
			Transient: lifecycle.Transient{Status: code, Count: 1}})
		if err != nil {
			t.Fatal(err)
		}
		_, o, err := srv.NewConn().Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil)
		if err != nil || !o.IsLogin() || o.Login.Result != code || o.Login.OK || o.LoggedIn() {
			t.Fatalf("transient %v: %+v, %v", code, o.Login, err)
		}
		if got := o.Login.Label(); got != code.String() {
			t.Errorf("transient %v: Label() = %q, want %q", code, got, code.String())
		}
	}
}

// TestOutcomeAnswerErr: a Handler answer over the frame cap is denied with
// status 1, and the Outcome carries why.
func TestOutcomeAnswerErr(t *testing.T) {
	huge := make([]byte, codec.MaxFrameSize)
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth,
		Handler: func(lifecycle.Request) (codec.Status, []byte) { return codec.StatusOK, huge }})
	if err != nil {
		t.Fatal(err)
	}
	conn := srv.NewConn()
	if _, _, err := conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil); err != nil {
		t.Fatal(err)
	}
	_, o, err := conn.Handle(nonReplicated(t, clientA, 1, codec.CodeGetClusterMetadata), nil)
	if err != nil || o.Status != codec.StatusError || o.AnswerErr == nil {
		t.Fatalf("Outcome = status %v, AnswerErr %v, err %v; want StatusError with the cause", o.Status, o.AnswerErr, err)
	}
}

// guardFunc is a Guard that records what it is asked and lets through
// while allow says so.
type guardFunc struct {
	allow   bool
	asked   []lifecycle.Attempt
	checked []bool
}

func (g *guardFunc) Allow(a lifecycle.Attempt) bool { g.asked = append(g.asked, a); return g.allow }
func (g *guardFunc) Checked(_ lifecycle.Attempt, ok bool) {
	g.checked = append(g.checked, ok)
}

// countingAuth counts the credential checks that reach it.
type countingAuth struct {
	lifecycle.Authenticator
	calls int
}

func (c *countingAuth) Password(u []byte, p codec.Secret) (uint32, error) {
	c.calls++
	return c.Authenticator.Password(u, p)
}

func (c *countingAuth) Token(tok codec.Secret) (uint32, error) {
	c.calls++
	return c.Authenticator.Token(tok)
}

// TestGuard: a refusing Guard stops the check before the Authenticator,
// the login is refused as a wrong credential is (9 for a password, 10 for
// a token), and the Outcome says it was throttled; an allowing one is told
// how each check went.
func TestGuard(t *testing.T) {
	auth := &countingAuth{Authenticator: testAuth}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	g := &guardFunc{}
	for _, tc := range []struct {
		body   []byte
		reason codec.EvictionReason
	}{
		{passwordBody(t, v011, "iggy", "iggy"), codec.ReasonInvalidCredentials},
		{tokenBody(t, v011, "tok-iggy"), codec.ReasonInvalidToken},
	} {
		_, o, err := srv.NewConnWith(lifecycle.ConnConfig{Guard: g}).Handle(register(t, clientA, tc.body), nil)
		if err != nil || !o.Login.Throttled || o.Reason != tc.reason || o.LoggedIn() {
			t.Errorf("refused by the guard: %+v, %v; want throttled with eviction %v", o.Login, err, tc.reason)
		}
		if o.Login.Label() != "Throttled" {
			t.Errorf("Label() = %q, want throttled", o.Login.Label())
		}
	}
	if auth.calls != 0 {
		t.Errorf("the Authenticator was asked %d times behind a refusing guard", auth.calls)
	}
	if len(g.asked) != 2 || string(g.asked[0].Username) != "iggy" || g.asked[0].PAT || !g.asked[1].PAT {
		t.Errorf("guard asked %+v, want the password attempt for iggy then the token attempt", g.asked)
	}

	g.allow = true
	conn := srv.NewConnWith(lifecycle.ConnConfig{Guard: g})
	for _, body := range [][]byte{passwordBody(t, v011, "iggy", "nope"), passwordBody(t, v011, "iggy", "iggy")} {
		if _, _, err := conn.Handle(register(t, clientA, body), nil); err != nil {
			t.Fatal(err)
		}
		conn = srv.NewConnWith(lifecycle.ConnConfig{Guard: g})
	}
	if len(g.checked) != 2 || g.checked[0] || !g.checked[1] || auth.calls != 2 {
		t.Errorf("guard told %v after %d checks, want [false true] after 2", g.checked, auth.calls)
	}
}
