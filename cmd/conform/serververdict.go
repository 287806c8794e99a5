package main

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/iggywire/iggywire/codec"
)

func uitoa(n uint64) string { return strconv.FormatUint(n, 10) }

// report turns every case's record into its result.
func (k *kitServer) report() *Report {
	k.mu.Lock()
	defer k.mu.Unlock()
	r := &Report{Tool: toolName, Mode: "server", Agent: k.opts.Agent, Target: k.ln.Addr().String(), Protocol: k.protocol().String(), Vectors: k.opts.Vectors, Started: k.started}
	for _, c := range k.opts.Cases {
		r.Cases = append(r.Cases, k.judge(k.cases[c.ID]))
	}
	r.finish()
	return r
}

// judge decides one case.
func (k *kitServer) judge(cr *caseRun) CaseResult {
	c := cr.c
	res := CaseResult{ID: c.ID, Vector: c.Vector, Name: c.Name, Rule: c.Rule, Expected: "the client " + c.expected()}
	for _, conn := range cr.conns {
		for _, e := range conn.events {
			f := Frame{Conn: conn.n, Dir: e.dir, AtMS: float64(e.at) / float64(time.Millisecond), Note: e.note}
			if e.frame != nil {
				f.Hex = k.opts.Redact.hexOf(e.frame, e.size)
			}
			res.Frames = append(res.Frames, f)
		}
	}
	if len(cr.conns) == 0 {
		res.Verdict, res.Observed = verdictNotRun, "no connection logged in as "+c.ID
		return res
	}
	ok, observed := judgeCase(cr)
	if bad := k.bindRule(cr); ok && bad != "" {
		ok, observed = false, bad
	}
	res.Surfaced = k.opts.Redact.hideInText(cr.surfaced)
	if ok && !surfacedRight(c.surface, cr.surfaced) {
		ok, observed = false, "the SDK surfaced "+res.Surfaced+", not "+c.surface+" (WIRE.md §8); on the wire: "+observed
	}
	res.Observed = observed
	res.Verdict = verdictFail
	if ok {
		res.Verdict = verdictPass
	}
	return res
}

// judgeCase applies the case's expectation, then the rules every case
// holds: no request under a session the client was never given, and no
// login with the same version after a well-formed eviction 14.
func judgeCase(cr *caseRun) (bool, string) {
	if cr.anchorConn == nil {
		return false, "the scripted answer was never sent: the client did not " + map[string]string{"login": "log in", "ping": "ping after its login"}[cr.c.at]
	}
	if bad := garbageSession(cr); bad != "" {
		return false, bad
	}
	if cr.c.noRetryVersion {
		if bad := sameVersionRetry(cr); bad != "" {
			return false, bad
		}
	}
	judge, ok := judges[cr.c.expect]
	if !ok {
		return false, "no expectation"
	}
	after := cr.anchorConn.events[cr.anchorAt+1:]
	if cr.anchorConn.events[cr.anchorAt].dir == dirEvent {
		// The scripted answer was the kit's close: it is how the
		// connection ended.
		after = cr.anchorConn.events[cr.anchorAt:]
	}
	ok, observed := judge(cr, after, nextFrame(after))
	if cr.c.aboutBind != "" {
		observed += "; " + bindSummary(cr)
	}
	return ok, observed
}

// bindSummary says what a case's client did with BIND_SESSION: each bind,
// its answer, and the request after it.
func bindSummary(cr *caseRun) string {
	var parts []string
	for _, c := range cr.conns {
		for i, e := range c.events {
			if e.req == nil || !isBindRequest(e.req) {
				continue
			}
			what := fmt.Sprintf("bound on connection %d", c.n)
			if i+1 < len(c.events) && c.events[i+1].dir == dirKit {
				what += ": " + c.events[i+1].note
			}
			if next := cr.nextRequestAfter(e.at, c, i+1); next != nil {
				what += ", then " + next.note
			}
			parts = append(parts, what)
		}
	}
	if len(parts) == 0 {
		return "it did not bind its session on another connection"
	}
	return strings.Join(parts, "; ")
}

// A judge reads what the client did after the scripted answer: after is
// the rest of that connection, next the client's first frame in it.
type judgeFunc func(cr *caseRun, after []event, next *event) (bool, string)

// judges holds one judge per expectation.
var judges = map[expectKind]judgeFunc{
	expUse:     judgeUse,
	expDrop:    judgeDrop,
	expRefused: func(_ *caseRun, after []event, next *event) (bool, string) { return true, firstOr(next, after) },
	expReplay:  judgeReplay,
	expReissue: judgeReissue,
	expPingOK:  judgePingOK,
	expOneMore: judgeOneMore,
}

// judgeOneMore allows the one request whose answer the unsolicited frame
// takes the place of, and nothing after it.
func judgeOneMore(_ *caseRun, after []event, next *event) (bool, string) {
	if next == nil {
		return true, lastEvent(after)
	}
	for i := range after {
		if &after[i] == next {
			if more := nextFrame(after[i+1:]); more != nil {
				return false, "took the frame nobody asked for as an answer and sent on: " + more.note
			}
		}
	}
	return true, "sent " + next.note + ", then nothing more: " + lastEvent(after)
}

func judgeUse(cr *caseRun, after []event, next *event) (bool, string) {
	if next == nil {
		return false, "sent no request after the login reply: " + lastEvent(after)
	}
	if next.req == nil || next.req.Operation == codec.OperationRegister || next.req.Session != cr.c.session {
		return false, "next request: " + next.note + " (want one carrying session " + uitoa(cr.c.session) + ")"
	}
	return true, "next request: " + next.note
}

func judgeDrop(_ *caseRun, after []event, next *event) (bool, string) {
	if next != nil {
		return false, "sent on the same connection after the frame: " + next.note
	}
	return true, lastEvent(after)
}

// judgeReplay wants the same request: the same client id and body, so
// that a login whose outcome is unknown cannot commit twice.
func judgeReplay(cr *caseRun, after []event, next *event) (bool, string) {
	if next == nil || next.req == nil || next.req.Operation != codec.OperationRegister {
		return false, "did not replay the login on the same connection: " + firstOr(next, after)
	}
	if !sameRequest(next, cr.anchorReq) {
		return false, "sent another login, not the same request (client id or body differ): " + next.note
	}
	return true, "replayed the login: " + next.note
}

// sameRequest reports whether two kept requests carry the same client id
// (bytes 128..144) and the same body (its length, kept bytes and sum).
func sameRequest(a, b *event) bool {
	return len(a.frame) >= 144 && len(b.frame) >= 144 && bytes.Equal(a.frame[128:144], b.frame[128:144]) &&
		a.size == b.size && a.sum == b.sum && bytes.Equal(a.frame[codec.HeaderSize:], b.frame[codec.HeaderSize:])
}

func judgeReissue(cr *caseRun, after []event, next *event) (bool, string) {
	if e := laterRegister(cr); e != nil {
		return true, "logged in again: " + e.note
	}
	return false, "did not log in again: " + firstOr(next, after)
}

// judgePingOK compares the next request with the ping the scripted answer
// answered, which is the event just before it.
func judgePingOK(cr *caseRun, after []event, next *event) (bool, string) {
	pinged := cr.anchorConn.events[cr.anchorAt-1]
	if next == nil {
		return false, "sent nothing more on the connection: " + lastEvent(after)
	}
	if next.req == nil || next.req.Client != pinged.req.Client || next.req.Session != pinged.req.Session {
		return false, "next request under another client id or session: " + next.note
	}
	return true, "next request: " + next.note
}

// nextFrame returns the client's first frame in events (a valid request
// or not: anything sent counts).
func nextFrame(events []event) *event {
	for i := range events {
		if events[i].dir == dirClient {
			return &events[i]
		}
	}
	return nil
}

// lastEvent says how the connection ended.
func lastEvent(events []event) string {
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].dir == dirEvent {
			return fmt.Sprintf("%s after %.1f ms", events[i].note, float64(events[i].at)/float64(time.Millisecond))
		}
	}
	return "the connection was still open when the run ended"
}

func firstOr(next *event, after []event) string {
	if next != nil {
		return "next request: " + next.note
	}
	return lastEvent(after)
}

// garbageSession finds a request carrying a session other than 0 and the
// one its connection was given, and a BIND_SESSION naming a session no good
// login reply of the case gave (its header's session is not looked at, as
// a server does not: WIRE.md section 10.3).
func garbageSession(cr *caseRun) string {
	for _, c := range cr.conns {
		for _, e := range c.events {
			if e.req == nil || e.req.Operation == codec.OperationRegister {
				continue
			}
			if isBindRequest(e.req) {
				if b, _, err := codec.DecodeBindSession(e.frame[min(len(e.frame), codec.HeaderSize):]); err == nil && b.Session != 0 && !cr.sessions[b.Session] {
					return fmt.Sprintf("bound session %d, which no good login reply of the case gave: %s", b.Session, e.note)
				}
				continue
			}
			if e.req.Session != 0 && e.req.Session != e.bound {
				return fmt.Sprintf("sent a request under session %d, which no good login reply on connection %d gave: %s", e.req.Session, c.n, e.note)
			}
		}
	}
	return ""
}

// sameVersionRetry finds a login after the eviction with the version the
// evicted one carried.
func sameVersionRetry(cr *caseRun) string {
	v, _, err := codec.DecodeClientVersionInfo(cr.anchorReq.frame[codec.HeaderSize:])
	if err != nil {
		return ""
	}
	if e := laterRegister(cr); e != nil {
		if w, _, err := codec.DecodeClientVersionInfo(e.frame[codec.HeaderSize:]); err == nil && w.Protocol == v.Protocol {
			return "logged in again with protocol " + v.Protocol.String() + " after eviction 14: " + e.note
		}
	}
	return ""
}

// laterRegister finds a login after the scripted answer, on any
// connection of the case.
func laterRegister(cr *caseRun) *event {
	anchor := cr.anchorConn.events[cr.anchorAt].at
	for _, c := range cr.conns {
		for i := range c.events {
			e := &c.events[i]
			if c == cr.anchorConn && i <= cr.anchorAt || c != cr.anchorConn && e.at < anchor {
				continue
			}
			if e.req != nil && e.req.Operation == codec.OperationRegister {
				return e
			}
		}
	}
	return nil
}

// surfacedRight reports whether what a driver said its SDK surfaced is
// what the case wants; a driver that said nothing is judged on the wire.
// A transient result (57, 58) may also surface as success: a driver posts
// what the login returned after the SDK's own retries, and an SDK that
// replays or re-issues the login by itself (the wire shows whether it did)
// returns the retry's success to its caller.
func surfacedRight(want, got string) bool {
	switch {
	case want == "" || got == "":
		return true
	case want == surfaceError:
		return got != "0"
	case got == "0":
		return want == "0" || want == transient57 || want == transient58
	}
	return got == want
}

// The transient results as a case's surface.
var (
	transient57 = strconv.Itoa(int(codec.StatusTransientNotCommitted))
	transient58 = strconv.Itoa(int(codec.StatusTransientNotAccepted))
)
