package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// newServer builds the lifecycle.Server a case's configuration states;
// connIDs makes it put its own id for the connection on evictions 1 and
// 13, as the reference server does.
func newServer(cfg ServerConfig, connIDs bool) (*lifecycle.Server, error) {
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

// replay plays a lifecycle case through the Conns of a fresh Server of its
// configuration and reports the first step that differs. With shift 0 the
// server is the one the vectors were written from and every answer must
// be the case's, byte for byte.
//
// With shift above 0 it plays the case the way a runner plays it against
// a server that is not that one: a server that has handed out shift
// sessions and connection ids before the case starts (logins on other
// connections came first) and that puts its own id for the connection on
// evictions 1 and 13, as the reference does. The runner follows the
// steps' data only: it writes into each request the session its
// in_session names, and compares each answer with the case's outside the
// free fields and by their rules inside them. The generator plays every
// case both ways, so that the data is what such a runner needs.
func replay(servers map[string]ServerConfig, c *Case, shift int) error {
	cfg, ok := servers[c.Server]
	if !ok {
		return fmt.Errorf("no server %q in the file", c.Server)
	}
	srv, err := newServer(cfg, shift > 0)
	if err != nil {
		return err
	}
	last, err := loginElsewhere(srv, cfg, shift)
	if err != nil {
		return fmt.Errorf("server %q: %w", c.Server, err)
	}
	conns := map[int]*lifecycle.Conn{} // by index, each made when first used
	handed := map[int]uint64{}
	for j, want := range c.Steps {
		in := want.inBytes() // schema.json holds in to hex
		if r := want.InSession; r != nil && shift > 0 {
			s, ok := handed[r.Step]
			if !ok || r.Offset+8 > len(in) {
				return fmt.Errorf("step %d: in_session names step %d, which handed out no session", j, r.Step)
			}
			le.PutUint64(in[r.Offset:], s+uint64(r.Plus))
		}
		if conns[want.Conn] == nil {
			conns[want.Conn] = srv.NewConn()
		}
		got, err := handleStep(conns[want.Conn], in)
		if err != nil {
			return fmt.Errorf("step %d: %w", j, err)
		}
		exact := shift == 0 || got.outBytes() == nil || want.outBytes() == nil
		if got.Then != want.Then || exact && got.Out != want.Out {
			return fmt.Errorf("step %d (%s): got out %.80s then %s, want out %.80s then %s", j, want.Note, got.Out, got.Then, want.Out, want.Then)
		}
		if exact {
			continue
		}
		s, err := matchAnswer(got.outBytes(), want.outBytes(), want.Free, last, handed)
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", j, want.Note, err)
		}
		if s != 0 {
			handed[j], last = s, s
		}
	}
	return nil
}

// loginElsewhere logs in shift times on other connections of srv and
// returns the last session handed out.
func loginElsewhere(srv *lifecycle.Server, cfg ServerConfig, shift int) (uint64, error) {
	maxV, err := codec.ParseVersion(cfg.Window.Max)
	if err != nil {
		return 0, err
	}
	login := register(0xfeed, loginBody(cvi(uint32(maxV), "go-sdk", "0.1.0"), "iggy", "iggy", ""))
	if codec.RevisionOf(maxV) == codec.RevisionBindSecret {
		login = login11(0xfeed, "iggy", "iggy", wrong11) // 0.11.1 is the one version of that layout
	}
	last := uint64(0)
	for range shift {
		out, _, err := srv.NewConn().Handle(login, nil)
		if err != nil || !isLoginReply(out) {
			return 0, fmt.Errorf("a login on another connection does not log in (%v)", err)
		}
		last = le.Uint64(out[offLoginReplySession:])
	}
	return last, nil
}

// matchAnswer compares an answer with the expected one: equal outside the
// free fields, each free field true to its rule. It returns the session
// the answer hands out, if it does.
func matchAnswer(got, want []byte, free []Free, last uint64, handed map[int]uint64) (uint64, error) {
	if len(got) != len(want) {
		return 0, fmt.Errorf("an answer of %d bytes, want %d", len(got), len(want))
	}
	g, w := bytes.Clone(got), bytes.Clone(want)
	var session uint64
	for _, f := range free {
		if f.Offset+f.Length > len(got) {
			return 0, fmt.Errorf("free field %s lies past the answer", f.Field)
		}
		v := got[f.Offset : f.Offset+f.Length]
		switch f.Rule {
		case FreeNonZero:
			if bytes.Count(v, []byte{0}) == len(v) {
				return 0, fmt.Errorf("%s is zero", f.Field)
			}
		case FreeSession:
			if session = le.Uint64(v); session <= last {
				return 0, fmt.Errorf("session %d is not above %d, handed out before", session, last)
			}
		case FreeBound:
			bound := false
			for _, h := range handed {
				bound = bound || h == le.Uint64(v)
			}
			if !bound {
				return 0, fmt.Errorf("%s %d is no session handed out before", f.Field, le.Uint64(v))
			}
		case FreeAny:
		default:
			return 0, fmt.Errorf("free field %s: rule %q", f.Field, f.Rule)
		}
		clear(g[f.Offset : f.Offset+f.Length])
		clear(w[f.Offset : f.Offset+f.Length])
	}
	if !bytes.Equal(g, w) {
		d := 0 // the first byte that differs: the lengths are equal
		for g[d] == w[d] {
			d++
		}
		return 0, fmt.Errorf("answers differ outside the free fields:\n got %.40x\nwant %.40x", g[d:], w[d:])
	}
	return session, nil
}

// The shift the generator plays every case with besides 0: any number
// above zero would do.
const elsewhereShift = 3
