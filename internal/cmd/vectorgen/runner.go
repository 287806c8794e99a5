package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"github.com/iggywire/iggywire/codec"
)

// replayElsewhere plays a lifecycle case the way a runner plays it against
// a server that is not the one the vectors were written from: a server
// that has handed out shift sessions and connection ids before the case
// starts (logins on other connections came first) and that puts its own
// id for the connection on evictions 1 and 13, as the reference does.
// The runner follows the steps' data only: it writes into each request
// the session its in_session names, and compares each answer with the
// case's outside the free fields and by their rules inside them. The
// generator runs it on every case, so that the data is what such a
// runner needs.
func replayElsewhere(servers map[string]ServerConfig, c *Case, shift int) error {
	cfg, ok := servers[c.Server]
	if !ok {
		return fmt.Errorf("no server %q in the file", c.Server)
	}
	srv, err := newServerWith(cfg, true)
	if err != nil {
		return err
	}
	maxV, err := parseVersionText(cfg.Window.Max)
	if err != nil {
		return err
	}
	login := register(0xfeed, loginBody(cvi(uint32(maxV), "go-sdk", "0.1.0"), "iggy", "iggy", ""))
	if codec.RevisionOf(maxV) == codec.RevisionBindSecret {
		login = register(0xfeed, loginSecretBody(cvi(uint32(maxV), "go-sdk", "0.1.0"), wrong11, "iggy", "iggy", ""))
	}
	last := uint64(0)
	for range shift {
		out, _, err := srv.NewConn().Handle(login, nil)
		if err != nil || !isLoginReply(out) {
			return fmt.Errorf("server %q: a login on another connection does not log in (%v)", c.Server, err)
		}
		last = le.Uint64(out[offLoginReplySession:])
	}
	open := connsOf(srv)
	handed := map[int]uint64{}
	for j, want := range c.Steps {
		in := want.inBytes()
		if r := want.InSession; r != nil {
			s, ok := handed[r.Step]
			if !ok || r.Offset+8 > len(in) {
				return fmt.Errorf("step %d: in_session names step %d, which handed out no session", j, r.Step)
			}
			le.PutUint64(in[r.Offset:], s+uint64(r.Plus))
		}
		got, err := handleStep(open(want.Conn), in)
		if err != nil {
			return fmt.Errorf("step %d: %w", j, err)
		}
		if got.Then != want.Then {
			return fmt.Errorf("step %d (%s): then %s, want %s", j, want.Note, got.Then, want.Then)
		}
		if (got.outBytes() == nil || want.outBytes() == nil) && got.Out != want.Out {
			return fmt.Errorf("step %d (%s): out %s, want %s", j, want.Note, short(got.Out), short(want.Out))
		}
		if got.outBytes() == nil {
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
			if !handedOut(handed, le.Uint64(v)) {
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
		return 0, fmt.Errorf("answers differ outside the free fields:\n got %s\nwant %s", short(hex.EncodeToString(g[firstDiff(g, w):])), short(hex.EncodeToString(w[firstDiff(g, w):])))
	}
	return session, nil
}

// handedOut reports whether s is one of the sessions handed out.
func handedOut(handed map[int]uint64, s uint64) bool {
	for _, h := range handed {
		if h == s {
			return true
		}
	}
	return false
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// The shift replayElsewhere uses: any number above zero would do.
const elsewhereShift = 3
