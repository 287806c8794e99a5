package main

import (
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// newServerWith builds the lifecycle.Server a case's configuration states;
// connIDs makes it put its own id for the connection on evictions 1 and
// 13, as the reference server does.
func newServerWith(cfg ServerConfig, connIDs bool) (*lifecycle.Server, error) {
	w, err := parseWindow(cfg.Window)
	if err != nil {
		return nil, fmt.Errorf("window: %w", err)
	}
	if cfg.Handler != "deny" {
		return nil, fmt.Errorf("handler %q: only deny is defined", cfg.Handler)
	}
	auth := lifecycle.StaticAuth{}
	for _, u := range cfg.Users {
		auth.Users = append(auth.Users, lifecycle.User{ID: u.ID, Name: u.Name, Password: codec.NewSecret([]byte(u.Password)), Inactive: u.Inactive})
	}
	for _, t := range cfg.Tokens {
		auth.Tokens = append(auth.Tokens, lifecycle.Token{Value: codec.NewSecret([]byte(t.Token)), User: t.User})
	}
	return lifecycle.NewServer(lifecycle.Config{Window: w, Version: cfg.Version, Auth: auth, ConnIDEvictions: connIDs})
}

// replay runs the request frames of a lifecycle case through the Conns of
// a fresh Server, frame i through connection conns[i] (the first when
// conns is nil), and returns what happened at each step.
func replay(cfg ServerConfig, ins [][]byte, conns []int) ([]Step, error) {
	srv, err := newServerWith(cfg, false)
	if err != nil {
		return nil, err
	}
	open := connsOf(srv)
	steps := make([]Step, 0, len(ins))
	for i, in := range ins {
		k := 0
		if conns != nil {
			k = conns[i]
		}
		st, err := handleStep(open(k), in)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", len(steps), err)
		}
		steps = append(steps, st)
	}
	return steps, nil
}

// handleStep feeds one step's bytes to conn and says what came of it.
func handleStep(conn *lifecycle.Conn, in []byte) (Step, error) {
	out, _, err := conn.Handle(in, nil)
	st := Step{In: hex.EncodeToString(in), Then: StateOpen}
	if conn.Closed() {
		st.Then = OutClosed
	}
	switch {
	case err == nil:
		st.Out = hex.EncodeToString(out)
	case errors.Is(err, lifecycle.ErrDropped):
		st.Out = OutDropped
	case errors.Is(err, codec.ErrSize), errors.Is(err, lifecycle.ErrClosed):
		st.Out = OutClosed
	default:
		return Step{}, fmt.Errorf("undocumented error %w", err)
	}
	return st, nil
}

// replayCase replays c and reports the first step that differs.
func replayCase(servers map[string]ServerConfig, c *Case) error {
	cfg, ok := servers[c.Server]
	if !ok {
		return fmt.Errorf("no server %q in the file", c.Server)
	}
	ins := make([][]byte, len(c.Steps))
	conns := make([]int, len(c.Steps))
	for i, s := range c.Steps {
		b, err := hex.DecodeString(s.In)
		if err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		ins[i], conns[i] = b, s.Conn
	}
	got, err := replay(cfg, ins, conns)
	if err != nil {
		return err
	}
	for i, s := range c.Steps {
		if got[i].Out != s.Out || got[i].Then != s.Then {
			return fmt.Errorf("step %d (%s): got out %s then %s, want out %s then %s", i, s.Note, short(got[i].Out), got[i].Then, short(s.Out), s.Then)
		}
	}
	return nil
}

// connsOf returns the connections of one case to srv by index, each made
// when first asked for.
func connsOf(srv *lifecycle.Server) func(int) *lifecycle.Conn {
	conns := map[int]*lifecycle.Conn{}
	return func(k int) *lifecycle.Conn {
		if conns[k] == nil {
			conns[k] = srv.NewConn()
		}
		return conns[k]
	}
}

func short(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
