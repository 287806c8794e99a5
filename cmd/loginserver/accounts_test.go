package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// The root user's variables, spelled out so that the tests say what an
// operator types.
const (
	rootUsername = "IGGY_ROOT_USERNAME"
	rootPassword = "IGGY_ROOT_PASSWORD"
)

// noRootEnv clears the root user's variables for the test, so that an
// IGGY_ROOT_USERNAME of the developer's does not change what it sees (an
// empty variable counts as not set).
func noRootEnv(t *testing.T) {
	t.Setenv(rootUsername, "")
	t.Setenv(rootPassword, "")
}

// writeUsersFile writes a users file with the given mode and returns its path.
func writeUsersFile(t *testing.T, mode os.FileMode, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "users.txt")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // WriteFile's mode is masked by the umask
		t.Fatal(err)
	}
	return path
}

type wantUser struct {
	id       uint32
	name     string
	password string
	inactive bool
}

type wantToken struct{ value, user string }

// checkAuth compares the users and tokens with what is wanted, the secrets
// by their bytes.
func checkAuth(t *testing.T, a lifecycle.StaticAuth, users []wantUser, tokens []wantToken) {
	t.Helper()
	if len(a.Users) != len(users) {
		t.Fatalf("%d users, want %d", len(a.Users), len(users))
	}
	for i, w := range users {
		u := a.Users[i]
		if u.ID != w.id || u.Name != w.name || string(u.Password.Bytes()) != w.password || u.Inactive != w.inactive {
			t.Errorf("user %d: {%d %q inactive=%t}, want {%d %q inactive=%t} and its password", i, u.ID, u.Name, u.Inactive, w.id, w.name, w.inactive)
		}
	}
	if len(a.Tokens) != len(tokens) {
		t.Fatalf("%d tokens, want %d", len(a.Tokens), len(tokens))
	}
	for i, w := range tokens {
		if tk := a.Tokens[i]; string(tk.Value.Bytes()) != w.value || tk.User != w.user {
			t.Errorf("token %d: of %q, want %q and its value", i, tk.User, w.user)
		}
	}
}

// TestAccountSources: the root user's variables, the users file and the
// flags all give accounts, with ids in that order; tokens and -inactive
// may name a user of any of them.
func TestAccountSources(t *testing.T) {
	t.Setenv(rootUsername, "root")
	t.Setenv(rootPassword, "root-pw: with = and spaces")
	path := writeUsersFile(t, 0o600, strings.Join([]string{
		"# users and tokens of the test",
		"",
		"   # an indented comment",
		"alice:al:ice=pw",
		"\t",
		"bob:bob-pw\r", // a CRLF file
		"tok=en==alice",
		"root-token=root",
		"",
	}, "\n"))
	cfg, err := parseConfig([]string{"-users-file", path, "-user", "carol:carol-pw", "-token", "carol-token=carol",
		"-token", "bob-token=bob", "-inactive", "bob", "-inactive", "root"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	checkAuth(t, cfg.Auth, []wantUser{
		{1, "root", "root-pw: with = and spaces", true},
		{2, "alice", "al:ice=pw", false},
		{3, "bob", "bob-pw", true},
		{4, "carol", "carol-pw", false},
	}, []wantToken{{"tok=en=", "alice"}, {"root-token", "root"}, {"carol-token", "carol"}, {"bob-token", "bob"}})

	// Group and other bits must be clear, not owner ones.
	if _, err := parseConfig([]string{"-users-file", writeUsersFile(t, 0o700, "dave:dave-pw\n")}, io.Discard); err != nil {
		t.Errorf("mode 0700: %v", err)
	}
}

// TestUsersFileLogin: a user and a token from the users file log in to the
// running server, and the log shows neither secret.
func TestUsersFileLogin(t *testing.T) {
	noRootEnv(t)
	const password, token = "file-Pa55word", "file-T0ken-123"
	path := writeUsersFile(t, 0o600, "iggy:"+password+"\n"+token+"=iggy\n")
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	addrs, done := make(chan net.Addr, 1), make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-users-file", path}, &logs, func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		cancel()
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatal("not listening")
	}
	for _, login := range []func(*lifecycle.Client) ([]byte, error){
		func(c *lifecycle.Client) ([]byte, error) {
			return c.Login(nil, []byte("iggy"), codec.NewSecret([]byte(password)))
		},
		func(c *lifecycle.Client) ([]byte, error) {
			return c.LoginPAT(nil, codec.NewSecret([]byte(token)))
		},
	} {
		if err := loginOnce(addr, login); err != nil {
			t.Errorf("login: %v", err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out := logs.String()
	if loggedEvents(out, "login", "outcome=OK") != 2 {
		t.Errorf("want two good logins in the log:\n%s", out)
	}
	if strings.Contains(out, password) || strings.Contains(out, token) {
		t.Errorf("the log shows a secret:\n%s", out)
	}
}

// loginOnce dials addr and sends one login.
func loginOnce(addr net.Addr, build func(*lifecycle.Client) ([]byte, error)) error {
	w, nc, err := dialWire(addr)
	if err != nil {
		return err
	}
	defer nc.Close()
	_, err = w.Do(build(w.Client))
	return err
}

// TestAccountErrorsShowNoSecret plants a secret in every value that may
// hold one, down every way the account configuration can be refused: the
// error and what is written to stderr name the place (flag and position,
// variable, file and line) and never the secret, nor a piece of it.
func TestAccountErrorsShowNoSecret(t *testing.T) {
	const secret = "PLANTED-s3cr3t-9f8e7d"
	type account struct {
		name     string
		args     []string
		env      map[string]string // set for the case, the others cleared
		file     string            // a users file (mode 0600 unless fileMode), "-users-file PATH" appended
		fileMode os.FileMode
		want     string // in the error
	}
	cases := []account{
		{name: "-user without a colon", args: []string{"-user", secret}, want: "-user #1: want NAME:PASSWORD"},
		{name: "-user, empty name", args: []string{"-user", ":" + secret}, want: "-user #1: want NAME:PASSWORD"},
		{name: "-user, a space after the colon", args: []string{"-user", "iggy:", secret}, want: "1 unexpected argument after the flags"},
		{name: "flags after a stray argument", args: []string{"-user", "iggy:", secret, "-max-conns", "5"}, want: "3 unexpected arguments"},
		{name: "-user, empty password", args: []string{"-user", "iggy:", "-user", secret + ":x"}, want: "-user #1: empty password"},
		{name: "-user given twice", args: []string{"-user", "a:" + secret, "-user", "a:" + secret + "2"}, want: "-user #2: the same user as -user #1"},
		{name: "-user, a secret as the name, twice", args: []string{"-user", secret + ":x", "-user", secret + ":y"}, want: "-user #2: the same user as -user #1"},
		{name: "-user, name too long", args: []string{"-user", strings.Repeat(secret, 20) + ":x"}, want: "-user #1: user name of 420 bytes"},
		{name: "-user, password not UTF-8", args: []string{"-user", "iggy:" + secret + "\xff"}, want: "-user #1: password is not UTF-8"},
		{name: "-token, name and token swapped", args: []string{"-user", "iggy:pw", "-token", "iggy=" + secret}, want: "-token #1: names no user"},
		{name: "-token, unknown user", args: []string{"-token", secret + "=" + secret}, want: "-token #1: names no user"},
		{name: "-token without =", args: []string{"-token", secret}, want: "-token #1: want TOKEN=NAME"},
		{name: "-token, empty name", args: []string{"-token", secret + "="}, want: "-token #1: want TOKEN=NAME"},
		{name: "-token, empty token", args: []string{"-token", "=" + secret}, want: "-token #1: want TOKEN=NAME"},
		{name: "-token given twice", args: []string{"-user", "iggy:pw", "-token", secret + "=iggy", "-token", secret + "=iggy"}, want: "-token #2: the same token as -token #1"},
		{name: "-inactive, unknown user", args: []string{"-user", "iggy:pw", "-inactive", secret}, want: "-inactive #1: names no user"},
		{name: "IGGY_ROOT_USERNAME alone", env: map[string]string{rootUsername: secret}, want: "IGGY_ROOT_USERNAME is set but IGGY_ROOT_PASSWORD is not"},
		{name: "IGGY_ROOT_PASSWORD alone", env: map[string]string{rootPassword: secret}, want: "IGGY_ROOT_PASSWORD is set but IGGY_ROOT_USERNAME is not"},
		{name: "root user given again by -user", env: map[string]string{rootUsername: "iggy", rootPassword: secret},
			args: []string{"-user", "iggy:" + secret}, want: "-user #1: the same user as IGGY_ROOT_USERNAME/IGGY_ROOT_PASSWORD"},
		{name: "root password too long", env: map[string]string{rootUsername: "iggy", rootPassword: strings.Repeat(secret, 20)},
			want: "IGGY_ROOT_USERNAME/IGGY_ROOT_PASSWORD: password of 420 bytes"},
		{name: "file open to others", file: "iggy:" + secret + "\n", fileMode: 0o644, want: "mode 0644 gives group or others access to it"},
		{name: "file open to the group", file: "iggy:" + secret + "\n", fileMode: 0o620, want: "run chmod 600"},
		{name: "file line without a separator", file: "# comment\n\n" + secret + "\n", want: "users.txt:3: want NAME:PASSWORD or TOKEN=NAME"},
		{name: "file user, empty name", file: ":" + secret + "\n", want: "users.txt:1: empty user name"},
		{name: "file user, empty password", file: secret + ":\n", want: "users.txt:1: empty password"},
		{name: "file user, a space after the colon", file: "iggy: " + secret + "\n", want: "users.txt:1: white space at the start or end of the password"},
		{name: "file user, a space at the end", file: "iggy:" + secret + " \n", want: "users.txt:1: white space at the start or end of the password"},
		{name: "file user given twice", file: secret + ":a\n" + secret + ":b\n", want: "users.txt:2: the same user as -users-file "},
		{name: "file user given again by -user", file: "iggy:" + secret + "\n", args: []string{"-user", "iggy:" + secret},
			want: "-user #1: the same user as -users-file "},
		{name: "file token, name and token swapped", file: "iggy:pw\niggy=" + secret + "\n", want: "users.txt:2: names no user"},
		{name: "file token, empty token", file: "=" + secret + "\n", want: "users.txt:1: empty token"},
		{name: "file token, empty name", file: secret + "=\n", want: "users.txt:1: empty user name"},
		{name: "file token given twice", file: "iggy:pw\n" + secret + "=iggy\n" + secret + "=iggy\n", want: "users.txt:3: the same token as -users-file "},
		{name: "file token not UTF-8", file: "iggy:pw\n" + secret + "\xfe=iggy\n", want: "users.txt:2: token is not UTF-8"},
		{name: "file missing", args: []string{"-users-file", filepath.Join(t.TempDir(), "none")}, want: "-users-file: open "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			noRootEnv(t)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			args := c.args
			if c.file != "" {
				mode := c.fileMode
				if mode == 0 {
					mode = 0o600
				}
				args = append([]string{"-users-file", writeUsersFile(t, mode, c.file)}, args...)
			}
			var stderr bytes.Buffer
			_, err := parseConfig(args, &stderr)
			if err == nil {
				t.Fatal("no error")
			}
			out := err.Error() + "\n" + stderr.String()
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to say %q", err, c.want)
			}
			for i := 0; i+6 <= len(secret); i++ {
				if piece := secret[i : i+6]; strings.Contains(out, piece) {
					t.Fatalf("the error shows a piece of the secret (%q): %s", piece, out)
				}
			}
		})
	}
}

// TestUsageOnSecrets: -h says that -user and -token are seen by other
// local users and names the safer ways in.
func TestUsageOnSecrets(t *testing.T) {
	var usage strings.Builder
	if _, err := parseConfig([]string{"-h"}, &usage); err == nil {
		t.Fatal("-h: no ErrHelp")
	}
	u := usage.String()
	for _, want := range []string{
		"-user NAME:PASSWORD", "-token TOKEN=NAME", "any local user can read it in the process list (ps)",
		"-users-file PATH", "chmod 600", "IGGY_ROOT_USERNAME, IGGY_ROOT_PASSWORD", "There is no token variable",
		"User ids are 1, 2, ... in this order",
	} {
		if !strings.Contains(u, want) {
			t.Errorf("-h does not say %q:\n%s", want, u)
		}
	}
	if n := strings.Count(u, "any local user can read it in the process list"); n != 2 {
		t.Errorf("-h warns %d times of the process list, want twice (-user, -token)", n)
	}
}
