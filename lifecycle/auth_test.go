package lifecycle_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
)

func TestStaticAuth(t *testing.T) {
	a := testAuth
	a.Tokens = append(a.Tokens, lifecycle.Token{Value: codec.NewSecret([]byte("tok-ghost")), User: "ghost"})
	cases := []struct {
		name string
		call func() (uint32, error)
		id   uint32
		err  error
	}{
		{"password", func() (uint32, error) { return a.Password([]byte("iggy"), codec.NewSecret([]byte("iggy"))) }, 1, nil},
		{"wrong password", func() (uint32, error) { return a.Password([]byte("iggy"), codec.NewSecret([]byte("iggy2"))) }, 0, lifecycle.ErrInvalidCredentials},
		{"empty password", func() (uint32, error) { return a.Password([]byte("iggy"), codec.Secret{}) }, 0, lifecycle.ErrInvalidCredentials},
		{"unknown user", func() (uint32, error) { return a.Password([]byte("ghost"), codec.NewSecret([]byte("iggy"))) }, 0, lifecycle.ErrInvalidCredentials},
		{"inactive user", func() (uint32, error) { return a.Password([]byte("bob"), codec.NewSecret([]byte("bobpw"))) }, 0, lifecycle.ErrInvalidCredentials},
		{"token", func() (uint32, error) { return a.Token(codec.NewSecret([]byte("tok-iggy"))) }, 1, nil},
		{"unknown token", func() (uint32, error) { return a.Token(codec.NewSecret([]byte("tok-iggyX"))) }, 0, lifecycle.ErrInvalidToken},
		{"empty token", func() (uint32, error) { return a.Token(codec.Secret{}) }, 0, lifecycle.ErrInvalidToken},
		{"token of an unknown user", func() (uint32, error) { return a.Token(codec.NewSecret([]byte("tok-ghost"))) }, 0, lifecycle.ErrInvalidToken},
		{"token of an inactive user", func() (uint32, error) { return a.Token(codec.NewSecret([]byte("tok-bob"))) }, 0, lifecycle.ErrUserInactive},
	}
	for _, c := range cases {
		id, err := c.call()
		if id != c.id {
			t.Fatalf("%s: id = %d, want %d", c.name, id, c.id)
		}
		if err != c.err {
			t.Fatalf("%s: error = %v, want %v", c.name, err, c.err)
		}
	}
}

// TestNoSecretsPrinted: an Authenticator, a Server holding one, a Conn and
// the errors of a failed login print no password or token, through fmt,
// JSON or slog. (lifecycle/tcp checks its Exchange the same way.)
func TestNoSecretsPrinted(t *testing.T) {
	login := register(t, clientA, passwordBody(t, v011, "iggy", "hunter2"))
	srv := newTestServer(t)
	conn := srv.NewConn()
	if _, _, err := conn.Handle(login, nil); err != nil {
		t.Fatalf("login: %v", err)
	}
	secrets := []string{"hunter2", "bobpw", "tok-iggy", "68756e74657232" /* hunter2 in hex */, "aHVudGVyM" /* base64 */}
	for _, v := range []any{testAuth, &testAuth, srv, conn} {
		lifecycletest.EachShownSecret(t, v, secrets, func(how, secret, s string) {
			t.Fatalf("%T printed with %s shows a secret: %s", v, how, s)
		})
	}
	if s := fmt.Sprint(srv); !strings.Contains(s, `version "iggywire-test 1.0"`) {
		t.Fatalf("the server still says something: %v, want it to contain %q", s, `version "iggywire-test 1.0"`)
	}
	c := newTestClient(t)
	_, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("bad\xffsecret")))
	if err == nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("error text: %v, want an error that does not show the secret", err)
	}
}
