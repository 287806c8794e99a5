package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// accounts are the server's users and tokens the kit logs in with. They
// come in loginserver's format (a user NAME:PASSWORD or a token TOKEN=NAME
// a line), from -users-file or the -user and -token flags, and are held
// as codec.Secret, so no printer shows them.
type accounts struct {
	users  []lifecycle.User
	tokens []lifecycle.Token
}

// fromFile adds the users and tokens of a file.
func (a *accounts) fromFile(path string) error {
	data, err := os.ReadFile(path)
	defer clear(data)
	if err != nil {
		return fmt.Errorf("-users-file: %w", err)
	}
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if t := bytes.TrimSpace(line); len(t) == 0 || t[0] == '#' {
			continue
		}
		if err := a.add(string(line)); err != nil {
			return fmt.Errorf("-users-file %s:%d: %w", path, n+1, err)
		}
	}
	return nil
}

// add reads one NAME:PASSWORD or TOKEN=NAME; its error never quotes it.
func (a *accounts) add(s string) error {
	colon, eq := strings.IndexByte(s, ':'), strings.IndexByte(s, '=')
	switch {
	case colon > 0 && (eq < 0 || colon < eq):
		name, password := s[:colon], s[colon+1:]
		if len(name) > maxField || len(password) > maxField {
			return errTooLong
		}
		a.users = append(a.users, lifecycle.User{ID: uint32(len(a.users) + 1), Name: name, Password: codec.NewSecret([]byte(password))})
		return nil
	case eq > 0:
		j := strings.LastIndexByte(s, '=')
		if j > maxField || len(s)-j-1 > maxField {
			return errTooLong
		}
		a.tokens = append(a.tokens, lifecycle.Token{Value: codec.NewSecret([]byte(s[:j])), User: s[j+1:]})
		return nil
	}
	return errors.New("want NAME:PASSWORD or TOKEN=NAME (not shown: it may hold a secret)")
}

// maxField is the longest name, password or token a login body carries
// (WIRE.md section 3: a u8 length).
const maxField = 255

var errTooLong = errors.New("a name, password or token longer than the 255 bytes a login carries")

// markInactive marks the users named inactive.
func (a *accounts) markInactive(names []string) error {
	for i, n := range names {
		found := false
		for k := range a.users {
			if a.users[k].Name == n {
				a.users[k].Inactive, found = true, true
			}
		}
		if !found {
			return errors.New("-inactive #" + strconv.Itoa(i+1) + ": names no user")
		}
	}
	return nil
}

// secrets lists every password and token, for the redactor.
func (a *accounts) secrets() [][]byte {
	var s [][]byte
	for _, u := range a.users {
		s = append(s, u.Password.Bytes())
	}
	for _, t := range a.tokens {
		s = append(s, t.Value.Bytes())
	}
	return s
}

// role picks the account standing for a vector account: the first active
// or the first inactive user, or a token whose user is (in)active.
func (a *accounts) user(inactive bool) (lifecycle.User, bool) {
	for _, u := range a.users {
		if u.Inactive == inactive {
			return u, true
		}
	}
	return lifecycle.User{}, false
}

func (a *accounts) token(inactive bool) (lifecycle.Token, bool) {
	for _, t := range a.tokens {
		for _, u := range a.users {
			if u.Name == t.User && u.Inactive == inactive {
				return t, true
			}
		}
	}
	return lifecycle.Token{}, false
}

// auth is the accounts as the model server's Authenticator.
func (a *accounts) auth() lifecycle.StaticAuth {
	return lifecycle.StaticAuth{Users: a.users, Tokens: a.tokens}
}

// listFlag collects a repeatable flag; secretList one whose values are
// secrets, which it never prints.
type listFlag []string

func (f *listFlag) String() string     { return strings.Join(*f, ",") }
func (f *listFlag) Set(s string) error { *f = append(*f, s); return nil }

type secretList []string

func (f *secretList) String() string     { return strconv.Itoa(len(*f)) + " redacted" }
func (f *secretList) Set(s string) error { *f = append(*f, s); return nil }
