package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// clientOptions configure client mode.
type clientOptions struct {
	Addr       string
	Agent      string
	Wait       time.Duration // bounds every read of an answer, and the wait for a close
	Stall      time.Duration
	Window     codec.Window // the server's accept window
	Version    string       // the server's version text; "" compares it by rule
	Accounts   *accounts
	EvictOwnID bool // evictions 1 and 13 may carry the server's own id
	Cases      []clientCase
	Redact     *redactor
	Vectors    string // where Cases came from, for the report
}

// player runs client mode: each case on a connection of its own, with the
// answers the lifecycle of WIRE.md section 7 gives for the server's
// configuration as the expectation, compared field by field.
type player struct {
	opts     clientOptions
	started  time.Time
	sessions uint64            // the highest session the server handed out in the run
	userIDs  map[uint32]uint32 // model user id -> the server's, for every login seen
}

// runClient plays every case and returns the report.
func runClient(opts clientOptions) *Report {
	p := &player{opts: opts, started: time.Now(), userIDs: map[uint32]uint32{}}
	r := &Report{Tool: toolName, Mode: "client", Agent: opts.Agent, Target: opts.Addr, Protocol: opts.Window.String(), Vectors: opts.Vectors, Started: p.started}
	salt := runSalt()
	for i, c := range opts.Cases {
		r.Cases = append(r.Cases, p.play(isolate(c, salt, i+1)))
	}
	r.finish()
	return r
}

// caseRec is one case as it is played: its connections, the model server
// whose connections the expectations come from, and the sessions seen.
// A case runs on one connection unless its steps name more (a session
// resumed on a new connection): connection i of the case is conns[i], and
// its model is models[i], a connection of the same model server, so that
// what one connection does (a login, a logout) is what the model's next
// connection sees too.
type caseRec struct {
	p      *player
	res    CaseResult
	start  time.Time
	srv    *lifecycle.Server
	conns  []net.Conn
	models []*lifecycle.Conn
	shut   []bool          // connection i was closed by a step
	cur    int             // the connection of the step being played
	nc     net.Conn        // conns[cur]
	model  *lifecycle.Conn // models[cur]
	frame  int             // the index in the case of the frame being played
	handed map[int]uint64  // the session the server handed out, by the index of the login's frame
	// modelHanded is the session the model handed out, by the index of
	// the login's frame: what a frame that names a session carries when
	// the model plays it.
	modelHanded map[int]uint64
}

// maxCaseConns bounds the connections of one case.
const maxCaseConns = 4

// use makes connection i of the case the current one, dialing it (and
// opening its model connection) the first time.
func (r *caseRec) use(i int) error {
	if i < 0 || i >= maxCaseConns || i > len(r.conns) {
		return fmt.Errorf("connection %d: a case opens its connections in order, at most %d", i+1, maxCaseConns)
	}
	if i < len(r.shut) && r.shut[i] {
		return fmt.Errorf("connection %d: the kit closed it", i+1)
	}
	if i == len(r.conns) {
		nc, err := net.DialTimeout("tcp", r.p.opts.Addr, r.p.opts.Wait)
		if err != nil {
			return err
		}
		r.conns, r.models = append(r.conns, nc), append(r.models, r.srv.NewConn())
		if i > 0 {
			r.log(dirEvent, nil, fmt.Sprintf("connection %d opened", i+1))
		}
	}
	r.cur, r.nc, r.model = i, r.conns[i], r.models[i]
	return nil
}

// closeConn closes connection i of the case, as a client whose socket
// broke: the server sees it end. Its model connection is left as it is,
// since a connection's end ends no logical session (WIRE.md section 10.4).
func (r *caseRec) closeConn(i int) {
	if i < 0 || i >= len(r.conns) {
		return
	}
	for len(r.shut) <= i {
		r.shut = append(r.shut, false)
	}
	if !r.shut[i] {
		r.shut[i] = true
		_ = r.conns[i].Close()
		r.cur = i
		r.log(dirEvent, nil, fmt.Sprintf("the kit closed connection %d", i+1))
	}
}

// play runs one case.
func (p *player) play(c clientCase) CaseResult {
	rec := &caseRec{p: p, start: time.Now(), handed: map[int]uint64{}, modelHanded: map[int]uint64{}, res: CaseResult{ID: c.ID, Vector: c.Vector, Name: c.Name, Rule: c.Rule,
		Expected: p.expectedText(c)}}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: p.opts.Window, Version: p.opts.Version, Auth: p.opts.Accounts.auth()})
	if err == nil {
		rec.srv = srv
		err = rec.use(0)
	}
	defer func() {
		for _, nc := range rec.conns {
			_ = nc.Close()
		}
	}()
	if err != nil {
		rec.res.Verdict, rec.res.Observed = verdictNotRun, "could not start: "+err.Error()
		return rec.res
	}
	if c.overCap {
		rec.overCap(c.steps[0].frames[0])
		return rec.res
	}
	for _, secret := range c.secrets {
		p.opts.Redact.add(secret)
	}
	for i, s := range c.steps {
		if s.close {
			rec.closeConn(s.conn)
			continue
		}
		if err := rec.use(s.conn); err != nil {
			rec.res.Verdict, rec.res.Observed = verdictFail, fmt.Sprintf("step %d: %v", i+1, err)
			return rec.res
		}
		if bad := rec.step(c, s); bad != "" {
			rec.res.Verdict, rec.res.Observed = verdictFail, fmt.Sprintf("step %d: %s", i+1, bad)
			return rec.res
		}
	}
	rec.res.Verdict, rec.res.Observed = verdictPass, fmt.Sprintf("%d %s answered as expected", len(c.steps), plural(len(c.steps), "step"))
	return rec.res
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// expectedText says, frame by frame, what the lifecycle of WIRE.md §7
// answers for the server's window and accounts: what the case expects.
func (p *player) expectedText(c clientCase) string {
	if c.overCap {
		return "Eviction 6 (InvalidRequestBodySize) to the request's client id, then a close; or a close without an answer (WIRE.md §7 point 8)"
	}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: p.opts.Window, Version: p.opts.Version, Auth: p.opts.Accounts.auth()})
	if err != nil {
		return "every answer as WIRE.md §7 gives it for the server's window and accounts"
	}
	var conns []*lifecycle.Conn
	handed := map[int]uint64{}
	var parts []string
	for _, s := range c.steps {
		if s.close {
			if len(parts) > 0 {
				parts[len(parts)-1] += fmt.Sprintf("; then the kit closes connection %d", s.conn+1)
			}
			continue
		}
		for len(conns) <= s.conn && len(conns) < maxCaseConns {
			conns = append(conns, srv.NewConn())
		}
		conn := conns[min(s.conn, len(conns)-1)]
		for k, f := range s.frames {
			in := mapSession(rewriteCredentials(f, c.server, p.opts.Accounts), refOf(s, k), handed)
			want, o, err := conn.Handle(in, nil)
			if session, ok := handedBy(want); ok {
				handed[len(parts)] = session
			}
			what := describeFrame(want)
			switch outcome(o, err) {
			case "dropped":
				what = "dropped: no answer, the connection stays open"
			case "closed":
				what = "no answer, the connection closes"
			case "evicted":
				what += ", then the connection closes"
			default:
				if _, ok := loginReply(want); ok {
					what = "a login reply (" + what + ")"
				}
			}
			if len(conns) > 1 {
				what = fmt.Sprintf("on connection %d, %s", s.conn+1, what)
			}
			parts = append(parts, fmt.Sprintf("%d. %s", len(parts)+1, what))
		}
	}
	return "frame by frame, the server-chosen fields by the vectors' free rules: " + strings.Join(parts, "; ")
}

// log records a frame or an event.
func (r *caseRec) log(dir string, frame []byte, note string) {
	f := Frame{Conn: r.cur + 1, Dir: dir, AtMS: float64(time.Since(r.start)) / float64(time.Millisecond), Note: note}
	if frame != nil {
		f.Hex = r.p.opts.Redact.hex(frame)
	}
	r.res.Frames = append(r.res.Frames, f)
}

// step writes one step's frames and checks every answer.
func (r *caseRec) step(c clientCase, s clientStep) string {
	var wire, expected [][]byte
	var outcomes []string
	first := r.frame
	for k, f := range s.frames {
		in := rewriteCredentials(f, c.server, r.p.opts.Accounts)
		ref := refOf(s, k)
		want, o, err := r.model.Handle(mapSession(in, ref, r.modelHanded), nil)
		if session, ok := handedBy(want); ok {
			r.modelHanded[first+k] = session
		}
		expected = append(expected, want)
		outcomes = append(outcomes, outcome(o, err))
		wire = append(wire, mapSession(in, ref, r.handed))
	}
	for k, w := range wire {
		r.log(dirClient, w, "step frame "+describeFrame(w))
		if err := r.write(w, s); err != nil && outcomes[k] != "closed" {
			return "write: " + err.Error()
		}
	}
	if s.halfClose {
		if tc, ok := r.nc.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}
	for k := range wire {
		r.frame = first + k
		if bad := r.expect(expected[k], outcomes[k], freeFor(c.free, s, k, expected[k])); bad != "" {
			return bad
		}
	}
	r.frame = first + len(wire)
	return ""
}

// outcome names what the model did with a frame: "answer", "dropped" or
// "closed" (no answer, the connection ends).
func outcome(o *lifecycle.Outcome, err error) string {
	switch {
	case errors.Is(err, lifecycle.ErrDropped):
		return "dropped"
	case err != nil:
		return "closed"
	case o.Answer == lifecycle.AnswerEviction:
		return "evicted"
	}
	return "answer"
}

// write sends one frame as the step says.
func (r *caseRec) write(f []byte, s clientStep) error {
	return writeShaped(r.nc, f, s.stall, r.p.opts.Stall, s.chunk, 0, r.p.opts.Wait)
}

// expect reads what the server did with one frame and compares it.
func (r *caseRec) expect(want []byte, what string, free []freeField) string {
	switch what {
	case "dropped":
		return r.probe()
	case "closed":
		return r.closed("no answer and the connection closed")
	}
	got, err := r.read()
	if err != nil {
		return "want an answer (" + describeFrame(want) + "), got " + err.Error()
	}
	r.log(dirKit, got, "answer "+describeFrame(got))
	if bad := r.compare(want, got, free); bad != "" {
		return bad
	}
	if what == "evicted" {
		return r.closed("the connection closed after the eviction")
	}
	return ""
}

// read reads one frame within the wait.
func (r *caseRec) read() ([]byte, error) {
	_ = r.nc.SetReadDeadline(time.Now().Add(r.p.opts.Wait))
	// No lifecycle answer comes near padLimit: a larger frame is wrong
	// anyway, and the kit need not hold it.
	return codec.ReadFrame(r.nc, nil, padLimit)
}

// closed checks that the server closes without a further frame.
func (r *caseRec) closed(want string) string {
	got, err := r.read()
	var ne net.Error
	switch {
	case err == nil:
		r.log(dirKit, got, "answer "+describeFrame(got))
		return "want " + want + ", got a frame: " + describeFrame(got)
	case errors.As(err, &ne) && ne.Timeout():
		r.log(dirEvent, nil, "still open after "+r.p.opts.Wait.String())
		return "want " + want + ", the connection stayed open for " + r.p.opts.Wait.String()
	}
	r.log(dirEvent, nil, "server closed the connection")
	return ""
}

// probe learns that a frame was dropped: a ping sent after it must be
// answered by the next frame, with nothing before it.
func (r *caseRec) probe() string {
	f := ping(probeClient, probeRequest, 0)
	r.log(dirClient, f, "probe ping (the frame before must be dropped)")
	if _, err := r.nc.Write(f); err != nil {
		return "the frame must be dropped with the connection open; the probe ping could not be written: " + err.Error()
	}
	got, err := r.read()
	if err != nil {
		return "the frame must be dropped with the connection open; the probe ping got " + err.Error()
	}
	r.log(dirKit, got, "answer "+describeFrame(got))
	if len(got) < codec.HeaderSize || got[60] != byte(codec.CommandReply) || binary.LittleEndian.Uint64(got[200:]) != probeRequest {
		return "the frame must be dropped; the next frame is not the probe's reply: " + describeFrame(got)
	}
	return ""
}

// overCap checks a header claiming 64 MiB: Eviction 6 with the request's
// client id then a close, or a close without an answer.
func (r *caseRec) overCap(f []byte) {
	r.log(dirClient, f, "a valid ping header claiming "+fmt.Sprint(codec.MaxFrameSize)+" bytes; no body follows")
	_, _ = r.nc.Write(f)
	r.res.Verdict = verdictFail
	got, err := r.read()
	switch {
	case err == nil:
		r.log(dirKit, got, "answer "+describeFrame(got))
		e, derr := codec.DecodeEviction(got)
		// The request's client id, as the case's frame carries it (isolate
		// salted it).
		sent := codec.Uint128{Lo: binary.LittleEndian.Uint64(f[offClient:]), Hi: binary.LittleEndian.Uint64(f[offClient+8:])}
		if derr != nil || e.Reason != codec.ReasonInvalidRequestBodySize || e.Client != sent {
			r.res.Observed = "want Eviction 6 to the request's client id, or a close; got " + describeFrame(got)
			return
		}
		if bad := r.closed("the connection closed after the eviction"); bad != "" {
			r.res.Observed = bad
			return
		}
		r.res.Observed = "Eviction 6, then closed"
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || isReset(err):
		r.log(dirEvent, nil, "server closed the connection")
		r.res.Observed = "closed without an answer"
	default:
		r.log(dirEvent, nil, err.Error())
		r.res.Observed = "want Eviction 6 or a close; got " + err.Error()
		return
	}
	r.res.Verdict = verdictPass
}

func isReset(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && !op.Timeout()
}

// refOf is the session reference of frame k of step s, nil for none.
func refOf(s clientStep, k int) *sessionRef {
	if k < len(s.sessions) {
		return s.sessions[k]
	}
	return nil
}

// mapSession writes into a request the session ref names: the one handed
// out (by the server, or by the model, as handed says) at the login ref
// points to, plus ref.Plus. A request whose login has not been answered
// yet (written in the same batch) keeps the session it has.
func mapSession(in []byte, ref *sessionRef, handed map[int]uint64) []byte {
	if ref == nil || ref.Offset < 0 || ref.Offset+8 > len(in) {
		return in
	}
	s, ok := handed[ref.Step]
	if !ok {
		return in
	}
	out := bytes.Clone(in)
	binary.LittleEndian.PutUint64(out[ref.Offset:], s+uint64(ref.Plus))
	return out
}

// handedBy is the session an answer hands out: a login reply's.
func handedBy(answer []byte) (uint64, bool) {
	l, ok := loginReply(answer)
	return l.Session, ok
}

// describeFrame says what a frame is in a few words.
func describeFrame(f []byte) string {
	if len(f) < codec.HeaderSize {
		return fmt.Sprintf("%d bytes (less than a header)", len(f))
	}
	size := binary.LittleEndian.Uint32(f[48:])
	switch codec.Command(f[60]) {
	case codec.CommandRequest:
		var h codec.RequestHeader
		if h.Decode(f) == nil {
			return describeRequest(&h)
		}
		return fmt.Sprintf("invalid Request (size %d)", size)
	case codec.CommandReply:
		return fmt.Sprintf("Reply operation %d request %d status %d size %d", f[208], binary.LittleEndian.Uint64(f[200:]), binary.LittleEndian.Uint32(f[216:]), size)
	case codec.CommandEviction:
		return fmt.Sprintf("Eviction reason %d (%s)", f[255], codec.EvictionReason(f[255]))
	}
	return fmt.Sprintf("command %d size %d", f[60], size)
}
