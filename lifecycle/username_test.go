package lifecycle_test

import (
	"bytes"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// tokenAsUsername is a token body whose context is invalid UTF-8 where
// the password shape reads its context_len: it fails as a token body and
// parses as a password login whose username is the token.
func tokenAsUsername(t *testing.T, token string) []byte {
	t.Helper()
	b, err := info(v011).AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, byte(len(token)))
	b = append(b, token...)
	b = append(b, 8, 0, 0, 0, 'a', 'b', 'c', 'd', 'e', 0x80, 0, 0, 0)
	b = append(b, bytes.Repeat([]byte("x"), 128)...)
	if _, _, err := codec.DecodeLoginRegisterPAT(b); err == nil {
		t.Fatal("decodes as a token body")
	}
	if l, _, err := codec.DecodeLoginRegister(b); err != nil || string(l.Username) != token {
		t.Fatalf("does not parse as a password login of username %q: %v", token, err)
	}
	return b
}

// TestFailedLoginNamesNobody: a body that fails as a token body and parses
// as a password login has no username in the Outcome, even when its token
// is an account's name; nor has a wrong password of a real account. Only
// a login that bound names its account.
func TestFailedLoginNamesNobody(t *testing.T) {
	for _, tc := range []struct {
		name  string
		frame []byte
		ok    bool
	}{
		{"token read as a username", register(t, clientA, tokenAsUsername(t, "tok-Zq9-secret")), false},
		{"token that is an account's name", register(t, clientA, tokenAsUsername(t, "iggy")), false},
		{"wrong password", register(t, clientA, passwordBody(t, v011, "iggy", "nope")), false},
		{"login", register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), true},
	} {
		conn := newTestServer(t).NewConn()
		_, o, err := conn.Handle(tc.frame, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if o.Login.OK != tc.ok {
			t.Fatalf("%s: Login.OK = %t", tc.name, o.Login.OK)
		}
		want := []byte(nil)
		if tc.ok {
			want = []byte("iggy")
		}
		if !bytes.Equal(o.Login.Username, want) || (want == nil) != (o.Login.Username == nil) {
			t.Errorf("%s: Login.Username = %q, want %q", tc.name, o.Login.Username, want)
		}
		if o.Login.Reason != 0 && o.Login.Reason != codec.ReasonInvalidCredentials {
			t.Errorf("%s: reason %v", tc.name, o.Login.Reason)
		}
	}
}
