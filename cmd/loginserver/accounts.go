package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Accounts come from three places. Users get ids 1, 2, ... in this order:
//
//   - IGGY_ROOT_USERNAME and IGGY_ROOT_PASSWORD: one user, as the Iggy
//     server takes its root user (both or neither). A process's environment
//     is readable only by its own user and root, unlike its command line.
//     There is no token variable: the Iggy server has none (its personal
//     access tokens are issued by the server), and a token belongs with the
//     other secrets in the users file.
//   - -users-file PATH: one user NAME:PASSWORD or token TOKEN=NAME a line.
//     The file must not be open to group or others (mode & 0o077 == 0).
//   - -user NAME:PASSWORD and -token TOKEN=NAME, which any local user can
//     read in the process list: for tests.
//
// -inactive and tokens may name a user from any of them. No error says a
// value that may be a secret (a name, a password, a token, a line): it
// names the flag and its position, the variable, or the file and line.
const (
	envUsername = "IGGY_ROOT_USERNAME"
	envPassword = "IGGY_ROOT_PASSWORD"
)

// maxUsersFile bounds the users file read.
const maxUsersFile = 1 << 20

// accounts collects users and tokens, and where each came from.
type accounts struct {
	users     []lifecycle.User
	userFrom  []string
	tokens    []lifecycle.Token
	tokenFrom []string
}

// fromEnv adds the user of IGGY_ROOT_USERNAME and IGGY_ROOT_PASSWORD, if
// set. A variable set to the empty string counts as not set.
func (a *accounts) fromEnv(lookup func(string) (string, bool)) error {
	name, _ := lookup(envUsername)
	password, _ := lookup(envPassword)
	switch {
	case name == "" && password == "":
		return nil
	case password == "":
		return fmt.Errorf("%s is set but %s is not: set both or neither", envUsername, envPassword)
	case name == "":
		return fmt.Errorf("%s is set but %s is not: set both or neither", envPassword, envUsername)
	}
	return a.addUser(envUsername+"/"+envPassword, name, []byte(password))
}

// fromFile adds the users and tokens of a users file: one a line, blank
// lines and lines starting with '#' (after blanks) skipped, a trailing CR
// dropped. A line whose first ':' comes before its first '=' (or that has
// no '=') is a user NAME:PASSWORD, split at that ':' (the password may hold
// ':' and '='); any other is a token TOKEN=NAME, split at its last '='
// (the token may hold '=', but no ':' before its first '=': give such a
// token with -token). Values are taken as written: white space at the
// start or end of one is refused, since it is almost always a mistake.
func (a *accounts) fromFile(path string) error {
	data, err := readUsersFile(path)
	defer clear(data) // every secret kept was copied
	if err != nil {
		return err
	}
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSuffix(line, []byte("\r"))
		if t := bytes.TrimSpace(line); len(t) == 0 || t[0] == '#' {
			continue
		}
		where := "-users-file " + path + ":" + strconv.Itoa(n+1)
		colon, eq := bytes.IndexByte(line, ':'), bytes.IndexByte(line, '=')
		var parts [2][]byte
		var err error
		switch {
		case colon >= 0 && (eq < 0 || colon < eq):
			parts = [2][]byte{line[:colon], line[colon+1:]}
			if err = spaced(where, "user name", "password", parts); err == nil {
				err = a.addUser(where, string(parts[0]), bytes.Clone(parts[1]))
			}
		case eq >= 0:
			j := bytes.LastIndexByte(line, '=')
			parts = [2][]byte{line[:j], line[j+1:]}
			if err = spaced(where, "token", "user name", parts); err == nil {
				err = a.addToken(where, bytes.Clone(parts[0]), string(parts[1]))
			}
		default:
			err = fmt.Errorf("%s: want NAME:PASSWORD or TOKEN=NAME", where)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// spaced refuses white space at either end of the two parts of a line.
func spaced(where, first, second string, parts [2][]byte) error {
	for i, what := range [2]string{first, second} {
		if p := parts[i]; len(bytes.TrimSpace(p)) != len(p) {
			return fmt.Errorf("%s: white space at the start or end of the %s (values are taken as written)", where, what)
		}
	}
	return nil
}

// readUsersFile reads the users file, refusing one that group or others
// may read or write: its mode is checked on the open file, so it is the
// mode of what is read.
func readUsersFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-users-file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("-users-file: %w", err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("-users-file %s: a directory, not a file", path)
	}
	// Windows has no such mode bits (Go reports 0666 or 0444 there).
	if perm := uint32(fi.Mode().Perm()); perm&0o077 != 0 && runtime.GOOS != "windows" {
		return nil, fmt.Errorf("-users-file %s: mode %#o gives group or others access to it, and it holds passwords: run chmod 600 %s", path, perm, path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxUsersFile+1))
	switch {
	case err != nil:
		return data, fmt.Errorf("-users-file: %w", err)
	case len(data) > maxUsersFile:
		return data, fmt.Errorf("-users-file %s: larger than %d bytes", path, maxUsersFile)
	}
	return data, nil
}

// addUser adds a user with the next id. The login body carries a name of
// 1..255 bytes and a password of up to 255, both UTF-8; an empty password
// is refused too (as from "-user iggy: pw", whose password ended at the
// space).
func (a *accounts) addUser(where, name string, password []byte) error {
	if err := loginField(where, "user name", []byte(name)); err != nil {
		return err
	}
	if err := loginField(where, "password", password); err != nil {
		return err
	}
	for i, u := range a.users {
		if u.Name == name {
			return fmt.Errorf("%s: the same user as %s", where, a.userFrom[i])
		}
	}
	a.users = append(a.users, lifecycle.User{ID: uint32(len(a.users) + 1), Name: name, Password: codec.NewSecret(password)})
	a.userFrom = append(a.userFrom, where)
	return nil
}

// addToken adds a token; resolve checks that it names a user.
func (a *accounts) addToken(where string, token []byte, user string) error {
	if err := loginField(where, "token", token); err != nil {
		return err
	}
	if user == "" {
		return fmt.Errorf("%s: empty user name (want TOKEN=NAME)", where)
	}
	for i, t := range a.tokens {
		if bytes.Equal(t.Value.Bytes(), token) {
			return fmt.Errorf("%s: the same token as %s", where, a.tokenFrom[i])
		}
	}
	a.tokens = append(a.tokens, lifecycle.Token{Value: codec.NewSecret(token), User: user})
	a.tokenFrom = append(a.tokenFrom, where)
	return nil
}

// loginField checks a value a login body must be able to carry.
func loginField(where, what string, b []byte) error {
	switch {
	case len(b) == 0:
		return fmt.Errorf("%s: empty %s", where, what)
	case len(b) > 255:
		return fmt.Errorf("%s: %s of %d bytes, more than the 255 a login carries", where, what, len(b))
	case !utf8.Valid(b):
		return fmt.Errorf("%s: %s is not UTF-8, as a login's is", where, what)
	}
	return nil
}

// fromUserFlags adds the -user values (NAME:PASSWORD, split at the first
// ':').
func (a *accounts) fromUserFlags(raw []string) error {
	for i, s := range raw {
		where := "-user #" + strconv.Itoa(i+1)
		name, password, ok := strings.Cut(s, ":")
		if !ok || name == "" {
			return fmt.Errorf("%s: want NAME:PASSWORD", where)
		}
		if password == "" {
			return fmt.Errorf("%s: empty password (a space after the ':' ends the value: quote a password with spaces)", where)
		}
		if err := a.addUser(where, name, []byte(password)); err != nil {
			return err
		}
	}
	return nil
}

// fromTokenFlags adds the -token values (TOKEN=NAME, split at the last '=',
// since a user name has none and a token might).
func (a *accounts) fromTokenFlags(raw []string) error {
	for i, s := range raw {
		where := "-token #" + strconv.Itoa(i+1)
		j := strings.LastIndexByte(s, '=')
		if j <= 0 || j == len(s)-1 {
			return fmt.Errorf("%s: want TOKEN=NAME", where)
		}
		if err := a.addToken(where, []byte(s[:j]), s[j+1:]); err != nil {
			return err
		}
	}
	return nil
}

// errNoUser is the end of the error for a token or -inactive that names no
// user.
var errNoUser = errors.New("names no user given by IGGY_ROOT_USERNAME, -users-file or -user")

// resolve checks that every token and -inactive name a user, and marks the
// inactive ones. A token naming no user is often one written NAME=TOKEN.
func (a *accounts) resolve(inactive []string) error {
	index := make(map[string]int, len(a.users))
	for i, u := range a.users {
		index[u.Name] = i
	}
	for i, t := range a.tokens {
		if _, ok := index[t.User]; !ok {
			return fmt.Errorf("%s: %w (want TOKEN=NAME, not NAME=TOKEN)", a.tokenFrom[i], errNoUser)
		}
	}
	for i, name := range inactive {
		u, ok := index[name]
		if !ok {
			return fmt.Errorf("-inactive #%d: %w", i+1, errNoUser)
		}
		a.users[u].Inactive = true
	}
	return nil
}
