package main

import (
	"slices"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
)

// Framings of a step's in.
const (
	FramingWhole   = "whole"    // exactly one frame: its size is its length
	FramingShort   = "short"    // shorter than the frame it starts: the client ends its side after it
	FramingBadSize = "bad_size" // the header's size is outside 256..64 MiB: the server stops at the header
	FramingLong    = "long"     // more bytes than its frame: a stream would read the rest as the next frame
)

// Free is a field of an answer that WIRE.md leaves to the server: a
// comparison applies Rule to the Length bytes at Offset of out instead of
// comparing them.
type Free struct {
	Field  string `json:"field"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	Rule   string `json:"rule"`
}

// Rules of a free field.
const (
	FreeAny     = "any"     // WIRE.md sets no value
	FreeNonZero = "nonzero" // any non-zero value
	FreeSession = "session" // non-zero, above every session the server handed out before
	// FreeBound is the session a BIND_SESSION reply binds: one a login of
	// the case handed out before (WIRE.md section 10.4).
	FreeBound = "bound"
)

// SessionRef says that the u64 at Offset of a step's in is the session
// handed out by the login answered at Step, plus Plus: a runner against a
// server whose sessions differ writes that session there before sending.
type SessionRef struct {
	Offset int `json:"offset"`
	Step   int `json:"step"`
	Plus   int `json:"plus"`
}

// offLoginReplySession is where a login reply frame holds its session:
// after the empty result section and user_id.
const offLoginReplySession = codec.HeaderSize + 4 + 4

func framing(in []byte) string {
	if len(in) < codec.HeaderSize {
		return FramingShort
	}
	size := int(le.Uint32(in[48:]))
	switch {
	case size < codec.HeaderSize || size > maxFrame:
		return FramingBadSize
	case len(in) < size:
		return FramingShort
	case len(in) > size:
		return FramingLong
	}
	return FramingWhole
}

// layoutFree lists the fields of a cmd header named in names, in wire
// order and at the offsets of internal/layout, each under rule.
func layoutFree(cmd byte, rule string, names ...string) []Free {
	var f []Free
	for _, l := range layout.Header(cmd) {
		if slices.Contains(names, l.Name) {
			f = append(f, Free{l.Name, l.Offset, l.Size, rule})
		}
	}
	return f
}

// freeFields lists the fields of an answer that a server may fill
// differently: the prologue nobody verifies; on a Reply, the optional
// fields of kinds.go (request_checksum: WIRE.md marks it echoed, no client
// checks it; context, op, commit and timestamp), and a login reply's
// session; on an eviction 1 or 13, the client id, which the reference sets
// to its own id for the connection (section 7, point 10).
func freeFields(out []byte) []Free {
	if len(out) < codec.HeaderSize {
		return nil
	}
	f := layoutFree(cmdReply, FreeAny, prologueOptional()...)
	switch codec.Command(out[60]) {
	case codec.CommandReply:
		f = layoutFree(cmdReply, FreeAny, replyOptional()...)
		if isLoginReply(out) {
			f = append(f, Free{"session", offLoginReplySession, 8, FreeSession})
		}
		// A Reply under NonReplicated, status 0, with a body is a BIND_SESSION
		// that succeeded (a ping's reply has none). Any other such reply would
		// fail the bound rule when the generator replays it elsewhere.
		if len(out) > codec.HeaderSize && out[208] == opNonReplicated && le.Uint32(out[216:]) == 0 {
			f = append(f, Free{"session", offBindReplySession, 8, FreeBound})
		}
	case codec.CommandEviction:
		if r := codec.EvictionReason(out[255]); r == codec.ReasonNoSession || r == codec.ReasonStaleClient {
			f = append(f, layoutFree(cmdEviction, FreeNonZero, "client")...)
		}
	}
	return f
}

// isLoginReply: a Reply under Register, status 0, with an empty result
// section and a login reply after it.
func isLoginReply(out []byte) bool {
	return len(out) >= offLoginReplySession+8 && codec.Command(out[60]) == codec.CommandReply &&
		out[208] == opRegister && le.Uint32(out[216:]) == 0 && le.Uint32(out[256:]) == 0
}

// offBindReplySession is where a BIND_SESSION reply holds the session it
// binds: its body is the bare login reply, after user_id.
const offBindReplySession = codec.HeaderSize + 4

// sessionRef finds the login of the case whose session a request carries:
// the latest login that handed out the same session, or the latest login's
// session plus one (a session ahead of the bound one). Registers carry
// none, and neither does a request before any login.
func sessionRef(in []byte, logins map[uint64]int, latest uint64) *SessionRef {
	if framing(in) != FramingWhole || codec.Command(in[60]) != codec.CommandRequest || in[176] == opRegister || latest == 0 {
		return nil
	}
	off := at(cmdRequest, "session")
	// A BIND_SESSION names its session in its body, after its
	// ClientVersionInfo and client_id; its header's is 0.
	if in[176] == opNonReplicated && le.Uint32(in[196:]) == uint32(codec.CodeBindSession) {
		_, n, err := codec.DecodeClientVersionInfo(in[codec.HeaderSize:])
		if _, berr := codec.ParseBindSession(in[codec.HeaderSize:]); err == nil && berr == nil {
			off = codec.HeaderSize + n + 16
		}
	}
	s := le.Uint64(in[off:])
	if step, ok := logins[s]; ok {
		return &SessionRef{Offset: off, Step: step}
	}
	if s == latest+1 {
		return &SessionRef{Offset: off, Step: logins[latest], Plus: 1}
	}
	return nil
}

// describeSteps fills in the fields of every step that a stream runner reads.
func (g *gen) describeSteps() {
	for i := range g.cases {
		c := &g.cases[i] // only a lifecycle case has steps
		logins, latest := map[uint64]int{}, uint64(0)
		for j := range c.Steps {
			st := &c.Steps[j]
			in := st.inBytes()
			st.Framing = framing(in)
			st.End = st.Framing == FramingShort
			st.InSession = sessionRef(in, logins, latest)
			out := st.outBytes()
			st.Free = freeFields(out)
			if isLoginReply(out) {
				latest = le.Uint64(out[offLoginReplySession:])
				logins[latest] = j
			}
		}
	}
}
