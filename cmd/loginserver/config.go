package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// config is what the flags say.
type config struct {
	Addr    string
	Version codec.Version
	Auth    lifecycle.StaticAuth
}

// secretFlag collects the raw values of a repeatable flag that holds a
// secret (-user NAME:PASSWORD, -token TOKEN=NAME). Set never fails: the flag
// package quotes a rejected value in its error, so the values are checked
// after parsing, by code that names only the entry's position and user.
type secretFlag struct{ list *[]string }

func (f secretFlag) String() string {
	if f.list == nil || len(*f.list) == 0 {
		return ""
	}
	return strconv.Itoa(len(*f.list)) + " redacted"
}

func (f secretFlag) Set(s string) error {
	*f.list = append(*f.list, s)
	return nil
}

// parseUsers turns the -user values into users with ids 1, 2, ... in flag
// order. Errors name the position and the user, never the password.
func parseUsers(raw []string) ([]lifecycle.User, error) {
	var users []lifecycle.User
	for i, s := range raw {
		name, password, ok := strings.Cut(s, ":")
		if !ok || name == "" {
			return nil, fmt.Errorf("-user #%d: want NAME:PASSWORD", i+1)
		}
		for _, u := range users {
			if u.Name == name {
				return nil, fmt.Errorf("-user #%d: user %q given twice", i+1, name)
			}
		}
		users = append(users, lifecycle.User{ID: uint32(i + 1), Name: name, Password: codec.Secret(password)})
	}
	return users, nil
}

// parseTokens turns the -token values into tokens. The last '=' splits,
// since a user name has none and a token might. Errors name the position
// only.
func parseTokens(raw []string) ([]lifecycle.Token, error) {
	var tokens []lifecycle.Token
	for i, s := range raw {
		j := strings.LastIndexByte(s, '=')
		if j <= 0 || j == len(s)-1 {
			return nil, fmt.Errorf("-token #%d: want TOKEN=NAME", i+1)
		}
		tokens = append(tokens, lifecycle.Token{Value: codec.Secret(s[:j]), User: s[j+1:]})
	}
	return tokens, nil
}

// userNames lists the user names, for the startup log line.
func userNames(users []lifecycle.User) string {
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = u.Name
	}
	return strings.Join(names, ",")
}

// listFlag collects a repeatable plain string.
type listFlag struct{ list *[]string }

func (f listFlag) String() string {
	if f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f listFlag) Set(s string) error {
	*f.list = append(*f.list, s)
	return nil
}

// parseConfig reads the command line. Errors and usage go to stderr.
func parseConfig(args []string, stderr io.Writer) (config, error) {
	var cfg config
	var inactive, users, tokens []string
	version := "0.11.0"
	fs := flag.NewFlagSet("loginserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8090", "address to listen on")
	fs.Var(secretFlag{&users}, "user", "a user `NAME:PASSWORD` (repeatable; ids 1, 2, ... in order)")
	fs.Var(secretFlag{&tokens}, "token", "a personal access token `TOKEN=NAME` (repeatable)")
	fs.Var(listFlag{&inactive}, "inactive", "mark user `NAME` inactive (repeatable)")
	fs.StringVar(&version, "version", version, "server protocol version `X.Y.Z`; the window is its default one")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	var err error
	if cfg.Auth.Users, err = parseUsers(users); err != nil {
		return config{}, err
	}
	if cfg.Auth.Tokens, err = parseTokens(tokens); err != nil {
		return config{}, err
	}
	if cfg.Version, err = codec.ParseVersion(version); err != nil {
		return config{}, fmt.Errorf("-version: %w", err)
	}
	if !codec.DefaultWindow(cfg.Version).Valid() {
		return config{}, fmt.Errorf("-version: %s gives no usable window", cfg.Version)
	}
	return cfg, cfg.resolve(inactive)
}

// resolve checks that tokens and -inactive name known users and marks the
// inactive ones.
func (c *config) resolve(inactive []string) error {
	index := make(map[string]int, len(c.Auth.Users))
	for i, u := range c.Auth.Users {
		index[u.Name] = i
	}
	for _, t := range c.Auth.Tokens {
		if _, ok := index[t.User]; !ok {
			return fmt.Errorf("-token: unknown user %q", t.User)
		}
	}
	for _, name := range inactive {
		i, ok := index[name]
		if !ok {
			return fmt.Errorf("-inactive: unknown user %q", name)
		}
		c.Auth.Users[i].Inactive = true
	}
	return nil
}
