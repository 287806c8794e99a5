package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/iggywire/iggywire/codec"
)

func cmdClient(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conform client", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs, "server")
	addr := fs.String("addr", "127.0.0.1:8090", "the server under test, `HOST:PORT`")
	usersFile := fs.String("users-file", "", "the server's users (NAME:PASSWORD) and tokens (TOKEN=NAME), one a line, as loginserver reads them")
	var users, tokens secretList
	var inactive listFlag
	fs.Var(&users, "user", "a user of the server `NAME:PASSWORD` (repeatable; visible in the process list: prefer -users-file)")
	fs.Var(&tokens, "token", "a personal access token of the server `TOKEN=NAME` (repeatable)")
	fs.Var(&inactive, "inactive", "user `NAME` is inactive on the server (repeatable)")
	protocol := fs.String("protocol", "0.11.0", "the server's protocol version `X.Y.Z`, whose window it serves as loginserver does (0.11.1: [0.11.1, 0.11.1], counting patch; others: the default window); "+
		"a comma-separated list (0.11.0,0.11.1) for a server of every version from the lowest to the highest, counting patch")
	window := fs.String("window", "", "the server's accept window `MIN..MAX` by the 0.11.0 rule (patch not counted at MAX), instead of -protocol's")
	version := fs.String("server-version", "", "the server version text its login replies must carry (default: any UTF-8 of 1..255 bytes)")
	evictOwnID := fs.Bool("evict-own-id", false, "allow evictions 1 and 13 to carry the server's own id, as the reference server does")
	stall := fs.Duration("stall", 300*time.Millisecond, "how long a stalled frame waits (keep it under the server's read timeout)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var a accounts
	if *usersFile != "" {
		if err := a.fromFile(*usersFile); err != nil {
			return err
		}
	}
	for i, s := range append(append([]string{}, users...), tokens...) {
		if err := a.add(s); err != nil {
			return fmt.Errorf("-user/-token #%d: %w", i+1, err)
		}
	}
	if err := a.markInactive(inactive); err != nil {
		return err
	}
	if _, ok := a.user(false); !ok {
		return errors.New("no active user: give -users-file or -user NAME:PASSWORD")
	}
	w, err := parseWindow(*protocol, *window)
	if err != nil {
		return err
	}
	vs, reg, err := c.load()
	if err != nil {
		return err
	}
	all, err := clientCases(vs, reg)
	if err != nil {
		return err
	}
	var cases []clientCase
	ids := map[string]bool{}
	for _, cc := range all {
		ids[cc.ID] = true
		if cc.Vector != 0 {
			ids["v"+strconv.Itoa(cc.Vector)] = true
		}
		// An own case a vector holds is also chosen by the vector's id
		// (-cases v511 runs c6), the id a reader of vectors/ knows it by.
		if c.selected(cc.ID) || cc.Vector != 0 && c.selected("v"+strconv.Itoa(cc.Vector)) {
			cases = append(cases, cc)
		}
	}
	if err := c.checkCases(func(id string) bool { return ids[id] }, len(cases), "client"); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "conform: client mode against %s (window %s), %d cases, vectors %s\n", *addr, w, len(cases), vs.Dir)
	r := runClient(clientOptions{Addr: *addr, Agent: c.agent, Wait: c.wait, Stall: *stall, Window: w, Version: *version, Vectors: vs.Dir,
		Accounts: &a, EvictOwnID: *evictOwnID, Cases: cases, Redact: &redactor{secrets: a.secrets()}})
	return finishRun(r, c.out, stdout)
}

// parseWindow reads -window MIN..MAX, or the window a server of -protocol
// serves: codec.ServeWindow of one version (upstream's gate, which counts
// patch from 0.11.1 on), or for a list of versions every one from the
// lowest to the highest, counting patch, as cmd/loginserver reads its
// -protocol.
func parseWindow(protocol, window string) (codec.Window, error) {
	if window == "" {
		var vs []codec.Version
		for _, s := range strings.Split(protocol, ",") {
			v, err := codec.ParseVersion(strings.TrimSpace(s))
			if err != nil {
				return codec.Window{}, fmt.Errorf("-protocol: %w", err)
			}
			vs = append(vs, v)
		}
		if len(vs) == 1 {
			return codec.ServeWindow(vs[0]), nil
		}
		return codec.InclusiveWindow(slices.Min(vs), slices.Max(vs)), nil
	}
	lo, hi, ok := strings.Cut(window, "..")
	min, err1 := codec.ParseVersion(lo)
	max, err2 := codec.ParseVersion(hi)
	w := codec.Window{Min: min, Max: max}
	if !ok || err1 != nil || err2 != nil || !w.IsValid() {
		return codec.Window{}, fmt.Errorf("-window: want MIN..MAX with 1 <= MIN <= MAX, got %q", window)
	}
	return w, nil
}
