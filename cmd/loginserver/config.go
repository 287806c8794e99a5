package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
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

// userFlags collects -user NAME:PASSWORD in flag order; user ids are 1, 2,
// ... in that order. It prints only names.
type userFlags struct{ users *[]lifecycle.User }

func (f userFlags) String() string {
	if f.users == nil {
		return ""
	}
	names := make([]string, len(*f.users))
	for i, u := range *f.users {
		names[i] = u.Name
	}
	return strings.Join(names, ",")
}

func (f userFlags) Set(s string) error {
	name, password, ok := strings.Cut(s, ":")
	if !ok || name == "" {
		return errors.New("want NAME:PASSWORD")
	}
	for _, u := range *f.users {
		if u.Name == name {
			return fmt.Errorf("user %q given twice", name)
		}
	}
	*f.users = append(*f.users, lifecycle.User{ID: uint32(len(*f.users) + 1), Name: name, Password: codec.Secret(password)})
	return nil
}

// tokenFlags collects -token TOKEN=NAME. It prints only the user names.
type tokenFlags struct{ tokens *[]lifecycle.Token }

func (f tokenFlags) String() string {
	if f.tokens == nil {
		return ""
	}
	names := make([]string, len(*f.tokens))
	for i, t := range *f.tokens {
		names[i] = "[REDACTED]=" + t.User
	}
	return strings.Join(names, ",")
}

func (f tokenFlags) Set(s string) error {
	// The last '=' splits, since a user name has none and a token might.
	i := strings.LastIndexByte(s, '=')
	if i < 0 || i == len(s)-1 {
		return errors.New("want TOKEN=NAME")
	}
	*f.tokens = append(*f.tokens, lifecycle.Token{Value: codec.Secret(s[:i]), User: s[i+1:]})
	return nil
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
	var inactive []string
	version := "0.11.0"
	fs := flag.NewFlagSet("loginserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.Addr, "addr", "127.0.0.1:8090", "address to listen on")
	fs.Var(userFlags{&cfg.Auth.Users}, "user", "a user `NAME:PASSWORD` (repeatable; ids 1, 2, ... in order)")
	fs.Var(tokenFlags{&cfg.Auth.Tokens}, "token", "a personal access token `TOKEN=NAME` (repeatable)")
	fs.Var(listFlag{&inactive}, "inactive", "mark user `NAME` inactive (repeatable)")
	fs.StringVar(&version, "version", version, "server protocol version `X.Y.Z`; the window is its default one")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	}
	var err error
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
