package props

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
)

// verbs are the fmt verbs a program might print a message with.
var verbs = []string{"%s", "%v", "%+v", "%#v", "%q", "%x", "%X"}

// printings returns every way this suite prints a message holding secret:
// the value, a pointer to it, the secret alone and inside a slice, under
// every verb.
func printings(msg any, secret codec.Secret) []string {
	var out []string
	for _, v := range verbs {
		out = append(out,
			fmt.Sprintf(v, msg), fmt.Sprintf(v, &msg), fmt.Sprintf(v, secret),
			fmt.Sprintf(v, []any{msg}), fmt.Sprintf(v, struct{ S codec.Secret }{secret}))
	}
	if text, err := secret.MarshalText(); err == nil {
		out = append(out, string(text))
	}
	return append(out, Describe(msg))
}

// leaks reports which form of secret s contains: its bytes, or their hex in
// either case. A marked secret's bytes occur nowhere else by construction.
func leaks(s []byte, text string) string {
	h := hex.EncodeToString(s)
	switch {
	case strings.Contains(text, string(s)):
		return "bytes"
	case strings.Contains(text, h):
		return "hex"
	case strings.Contains(text, strings.ToUpper(h)):
		return "HEX"
	}
	return ""
}

func TestSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	t.Run("LoginRegister", func(t *testing.T) {
		t.Parallel()
		property(t, 4, "no verb shows the password", prop.ForAll(func(l codec.LoginRegister) string {
			return noLeak(l, l.Password)
		}, GenMarkedLoginRegister()))
	})
	t.Run("LoginRegisterPAT", func(t *testing.T) {
		t.Parallel()
		property(t, 4, "no verb shows the token", prop.ForAll(func(l codec.LoginRegisterPAT) string {
			return noLeak(l, l.Token)
		}, GenMarkedLoginRegisterPAT()))
	})
}

func noLeak(msg any, secret codec.Secret) string {
	for i, s := range printings(msg, secret) {
		if how := leaks(secret.Bytes(), s); how != "" {
			return fmt.Sprintf("printing %d (verb %s) shows the secret's %s", i, verbs[i/5%len(verbs)], how)
		}
	}
	return ""
}

// TestSecretsDoNotChangePrinting: for any secret (marked or not, empty or
// not) a message prints exactly the same as with another secret in its
// place, so printing carries no information about it at all.
func TestSecretsDoNotChangePrinting(t *testing.T) {
	t.Parallel()
	property(t, 4, "printing is independent of the secret", prop.ForAll(func(l codec.LoginRegister, other []byte) string {
		m := l
		m.Password = codec.NewSecret(other)
		p := codec.LoginRegisterPAT{Info: l.Info, Token: l.Password, Context: l.Context}
		q := p
		q.Token = codec.NewSecret(other)
		for _, v := range verbs {
			if fmt.Sprintf(v, l) != fmt.Sprintf(v, m) || fmt.Sprintf(v, &l) != fmt.Sprintf(v, &m) {
				return "LoginRegister prints differently under " + v + " with another password"
			}
			if fmt.Sprintf(v, p) != fmt.Sprintf(v, q) || fmt.Sprintf(v, l.Password) != fmt.Sprintf(v, m.Password) {
				return "a token prints differently under " + v + " with another token"
			}
		}
		return ""
	}, GenLoginRegister(), GenSecret()))
}

// TestSecretsNotInErrors: no error returned while decoding a body holding a
// marked secret, or a hostile mutation of it, or while encoding an invalid
// value holding it, contains the secret.
func TestSecretsNotInErrors(t *testing.T) {
	t.Parallel()
	seen := 0
	t.Run("LoginRegister", func(t *testing.T) {
		property(t, 1, "decode errors never carry the password", prop.ForAll(func(h Hostile[codec.LoginRegister]) string {
			b := h.Bytes()
			_, _, err1 := codec.DecodeLoginRegister(b)
			_, err2 := codec.ParseLoginRegister(b)
			_, _, err3 := codec.DecodeLoginRegisterPAT(b) // the server's second try
			bad := h.V
			bad.Username = nil
			_, err4 := bad.AppendBinary(nil)
			return errorsClean(h.V.Password.Bytes(), &seen, err1, err2, err3, err4)
		}, GenHostile[codec.LoginRegister](GenMarkedLoginRegister())))
	})
	t.Run("LoginRegisterPAT", func(t *testing.T) {
		property(t, 1, "decode errors never carry the token", prop.ForAll(func(h Hostile[codec.LoginRegisterPAT]) string {
			b := h.Bytes()
			_, _, err1 := codec.DecodeLoginRegisterPAT(b)
			_, err2 := codec.ParseLoginRegisterPAT(b)
			_, _, err3 := codec.DecodeLoginRegister(b)
			bad := h.V
			bad.Info.SDKName = nil
			_, err4 := bad.AppendBinary(nil)
			return errorsClean(h.V.Token.Bytes(), &seen, err1, err2, err3, err4)
		}, GenHostile[codec.LoginRegisterPAT](GenMarkedLoginRegisterPAT())))
	})
	t.Logf("%d errors checked", seen)
	assert.Positive(t, seen, "no error was produced: the property checked nothing")
}

func errorsClean(secret []byte, seen *int, errs ...error) string {
	for _, err := range errs {
		if err == nil {
			continue
		}
		*seen++
		for _, text := range []string{err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err)} {
			if how := leaks(secret, text); how != "" || bytes.Contains([]byte(text), []byte(string(SecretMarker))) {
				return fmt.Sprintf("an error shows the secret's %s", how)
			}
		}
	}
	return ""
}
