package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// finishName is the username a driver logs in with to end a run early.
const finishName = "conform:done"

// serverOptions configure server mode.
type serverOptions struct {
	Listen  string // address to listen on (loopback)
	Control string // address of the HTTP control endpoint, "" for none
	// AllowRemote lets Listen and Control be other than loopback: the kit
	// accepts any password and its control endpoint has no authentication.
	AllowRemote bool
	Wait        time.Duration // how long the kit waits for the client's next frame before it closes
	Stall       time.Duration // how long a stalled or delayed answer waits
	Agent       string
	Vectors     string // where the cases came from, for the report
	// Protocol is the version the kit's own login replies announce
	// (-protocol: 0.11.0 or 0.11.1). A login is read in the layout its
	// own version selects, whatever Protocol says (WIRE.md section 10.5).
	Protocol codec.Version
	Cases    []serverCase
	Redact   *redactor
	// Ready, if set, learns the addresses listened on (control is nil
	// without a control endpoint).
	Ready func(addr, control net.Addr)
}

// kitServer is the scripted server: it tells a connection's case by the
// username of its first login, answers that case's script, and records
// everything the client does on the wire.
type kitServer struct {
	opts        serverOptions
	ln          net.Listener
	started     time.Time
	stopControl func() // ends the control endpoint once its requests in flight are answered

	mu       sync.Mutex
	cases    map[string]*caseRun
	open     map[net.Conn]bool
	idleFrom time.Time // when the last connection closed with every case seen
	session  uint64    // the last session of the kit's own login replies
	finished bool
	finish   chan struct{}

	events     int // recorded over the run, at most maxRunEvents
	keptBytes  int // of frames kept over the run, at most maxRunBytes plus headers
	unassigned int // open connections whose case is not known yet

	// logical holds the logical session of every 0.11.1 login the kit
	// answered with a good reply, by client id, for BIND_SESSION (WIRE.md
	// section 10.4); bindKey keys their verifiers.
	logical map[codec.Uint128]*logicalSession
	bindKey []byte
}

// caseRun is a case's connections and script state.
type caseRun struct {
	c          serverCase
	started    time.Time
	conns      []*connRun
	registers  int
	pinged     bool // the case's scripted ping answer was sent
	anchorConn *connRun
	anchorAt   int    // index in anchorConn.events of the scripted answer
	anchorReq  *event // the login the scripted answer answered, as kept
	surfaced   string // what the driver said its SDK surfaced, "" if it did not
	// sessions are those the kit's good login replies (and the scripted
	// ones the client must use) gave the case: what a BIND_SESSION may name.
	sessions map[uint64]bool
}

// connRun is one connection of a case.
type connRun struct {
	n      int
	events []event
	bound  uint64 // the session of the last good login reply sent on it
}

// event is one thing seen on a connection.
type event struct {
	dir   string // dirClient, dirKit or dirEvent
	at    time.Duration
	frame []byte // the frame's first bytes, what the report shows (see keep)
	size  int    // the frame's whole length
	sum   uint64 // FNV-1a of the whole frame's body, to tell two bodies apart
	note  string
	req   *codec.RequestHeader // a valid request from the client
	bound uint64               // the connection's session when it arrived
	// refusedBind: the kit's answer refused a BIND_SESSION with 40, which
	// the client must answer by logging in again (bindRule).
	refusedBind bool
}

// keepLimit is how much of a frame the kit keeps: what a report shows,
// and room behind it for the longest secret (a u8-length field) that
// begins in what it shows, so that the secret is found whole and hidden.
const keepLimit = hexLimit + 255

// Bounds on what a run keeps, so that no client grows the kit's memory
// without bound: events over the run (a full run records a few thousand),
// bytes of frames kept (past it, a frame keeps its header only), and
// connections open at once that have not named a case yet.
const (
	maxRunEvents  = 1 << 16
	maxRunBytes   = 32 << 20
	maxUnassigned = 64
)

// keep makes the event's copy of frame: its first keepLimit bytes (its
// header only once the run's byte budget is spent), its length and the
// sum of its body. Called under the kit's lock.
func (k *kitServer) keep(e *event, frame []byte) {
	n := min(len(frame), keepLimit)
	if k.keptBytes+n > maxRunBytes {
		n = min(len(frame), codec.HeaderSize)
	}
	k.keptBytes += n
	e.frame, e.size, e.sum = bytes.Clone(frame[:n]), len(frame), bodySum(frame)
}

// bodySum is FNV-1a of the bytes after the header.
func bodySum(frame []byte) uint64 {
	if len(frame) <= codec.HeaderSize {
		return 0
	}
	h := fnv.New64a()
	_, _ = h.Write(frame[codec.HeaderSize:])
	return h.Sum64()
}

const (
	dirClient = "client>server"
	dirKit    = "server>client"
	dirEvent  = "event"
)

// runServer serves until every case has been run and its connections have
// closed, a driver logs in as finishName, or ctx ends; then it returns the
// report.
func runServer(ctx context.Context, opts serverOptions) (*Report, error) {
	k, err := listenKit(opts)
	if err != nil {
		return nil, err
	}
	return k.run(ctx), nil
}

// listenKit opens the kit's listeners (server mode's, and the control
// endpoint's) and tells opts.Ready where they are.
func listenKit(opts serverOptions) (*kitServer, error) {
	if !opts.AllowRemote {
		if err := loopbackOnly("-listen", opts.Listen); err != nil {
			return nil, err
		}
		if err := loopbackOnly("-control", opts.Control); err != nil {
			return nil, err
		}
	}
	ln, err := net.Listen("tcp", opts.Listen)
	if err != nil {
		return nil, err
	}
	k := &kitServer{opts: opts, ln: ln, started: time.Now(), cases: map[string]*caseRun{},
		open: map[net.Conn]bool{}, session: 100000, finish: make(chan struct{}), logical: map[codec.Uint128]*logicalSession{}}
	for _, c := range opts.Cases {
		k.cases[c.ID] = &caseRun{c: c, sessions: map[uint64]bool{}}
	}
	var control net.Addr
	k.stopControl = func() {}
	if opts.Control != "" {
		cl, err := net.Listen("tcp", opts.Control)
		if err != nil {
			_ = ln.Close()
			return nil, err
		}
		control = cl.Addr()
		k.stopControl = k.serveControl(cl)
	}
	if opts.Ready != nil {
		opts.Ready(ln.Addr(), control)
	}
	return k, nil
}

// run serves until the run ends (see runServer) and returns the report.
func (k *kitServer) run(ctx context.Context) *Report {
	ln := k.ln
	var wg sync.WaitGroup
	go k.watch(ctx)
	for {
		nc, err := ln.Accept()
		if err != nil {
			break
		}
		if !k.track(nc, true) {
			_ = nc.Close()
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.serve(nc)
		}()
	}
	k.closeAll()
	wg.Wait()
	// The control endpoint stops before the verdicts are made: the POST
	// /finish that ended the run is answered, and a result already being
	// posted is counted.
	k.stopControl()
	return k.report()
}

// protocol is the version the kit's own login replies announce.
func (k *kitServer) protocol() codec.Version {
	if k.opts.Protocol == 0 {
		return protocol0110
	}
	return k.opts.Protocol
}

// loopbackOnly refuses an address that is not a loopback one ("" is no
// endpoint at all): an empty host or 0.0.0.0 listens on every interface.
func loopbackOnly(flagName, addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s %q: %w", flagName, addr, err)
	}
	if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s %s is not a loopback address: the kit accepts any password and its control endpoint has no authentication; give -allow-remote to listen there anyway", flagName, addr)
}

// watch ends the run when ctx ends, or once every case has been run and
// no connection has been open for a moment (a driver between cases opens
// the next one at once).
func (k *kitServer) watch(ctx context.Context) {
	linger := max(k.opts.Wait/2, 100*time.Millisecond)
	tick := time.NewTicker(25 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			k.end()
			return
		case <-k.finish:
			return
		case <-tick.C:
			if k.allDone(linger) {
				k.end()
				return
			}
		}
	}
}

func (k *kitServer) allDone(linger time.Duration) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.open) > 0 || k.idleFrom.IsZero() {
		return false
	}
	for _, cr := range k.cases {
		if len(cr.conns) == 0 {
			return false
		}
	}
	return time.Since(k.idleFrom) >= linger
}

// end stops accepting, once.
func (k *kitServer) end() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if !k.finished {
		k.finished = true
		close(k.finish)
		_ = k.ln.Close()
	}
}

// track adds or removes an open connection; it refuses new ones once the
// run has ended.
func (k *kitServer) track(nc net.Conn, add bool) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if add {
		if k.finished {
			return false
		}
		k.open[nc] = true
		k.idleFrom = time.Time{}
		return true
	}
	delete(k.open, nc)
	if len(k.open) == 0 {
		k.idleFrom = time.Now()
	}
	return true
}

func (k *kitServer) closeAll() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for nc := range k.open {
		_ = nc.Close()
	}
}

// serve runs one connection.
func (k *kitServer) serve(nc net.Conn) {
	defer k.track(nc, false)
	defer nc.Close()
	s := &session{k: k, nc: nc, start: time.Now(), pending: &connRun{}}
	defer s.unassign()
	if !s.assignable() {
		return
	}
	var buf []byte // one read buffer a connection reuses: events keep copies
	for {
		_ = nc.SetReadDeadline(time.Now().Add(k.opts.Wait))
		frame, err := codec.ReadFrame(nc, buf[:0], padLimit)
		if err != nil {
			s.ended(err)
			return
		}
		buf = frame
		if k.opts.Redact != nil {
			k.opts.Redact.learn(frame)
			k.learnRevision(frame)
		}
		if !s.handle(frame) {
			return
		}
		if s.full() {
			s.log(event{dir: dirEvent, note: "the client sent more than " + uitoa(maxEvents) + " frames in the case, or the run more than " + uitoa(maxRunEvents) + ": the kit closed the connection"})
			return
		}
	}
}

// assignable counts the connection among those not naming a case yet,
// refusing it past maxUnassigned.
func (s *session) assignable() bool {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	if s.k.unassigned >= maxUnassigned {
		return false
	}
	s.k.unassigned++
	s.counted = true
	return true
}

// unassign stops counting the connection as not naming a case.
func (s *session) unassign() {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	if s.counted {
		s.counted = false
		s.k.unassigned--
	}
}

// maxConnsPerCase bounds the connections of one case: an SDK that
// reconnects without end is refused past it (its login is answered as one
// naming no case), so a run always ends.
const maxConnsPerCase = 32

// repeats reports whether every login of a case gets its scripted answer,
// not only the first: a server that sends a bad frame or a refusal sends it
// again to a client that retries, so that an SDK that reconnects on its own
// still has to surface the failure. A transient result is answered once.
func repeats(e expectKind) bool { return e == expDrop || e == expRefused }

// maxEvents bounds what the kit records of one connection: a driver's case
// takes a handful of frames, and a client that floods the kit is closed
// rather than held in memory.
const maxEvents = 512

// full reports whether the connection's record is at its bound.
func (s *session) full() bool {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	return len(s.conn().events) >= maxEvents || s.k.events >= maxRunEvents
}

// session is one connection as it is served.
type session struct {
	k       *kitServer
	nc      net.Conn
	start   time.Time
	cr      *caseRun
	c       *connRun
	pending *connRun // events before the connection's case is known
	counted bool     // among the kit's unassigned connections
	refused bool     // the answer being made refuses a bind with 40
}

// conn is where the connection's events go.
func (s *session) conn() *connRun {
	if s.c != nil {
		return s.c
	}
	return s.pending
}

// log records an event under the kit's lock.
func (s *session) log(e event) int {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	return s.logLocked(e)
}

func (s *session) logLocked(e event) int {
	c := s.conn()
	if s.cr != nil {
		e.at = time.Since(s.cr.started)
	}
	c.events = append(c.events, e)
	s.k.events++
	return len(c.events) - 1
}

// logFrame records an event with a kept copy of frame.
func (s *session) logFrame(e event, frame []byte) int {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	s.k.keep(&e, frame)
	return s.logLocked(e)
}

// ended records why the connection's reads stopped.
func (s *session) ended(err error) {
	var ne net.Error
	switch {
	case errors.As(err, &ne) && ne.Timeout():
		s.log(event{dir: dirEvent, note: "client sent nothing for " + s.k.opts.Wait.String() + " (kept waiting): the kit closed the connection"})
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		s.log(event{dir: dirEvent, note: "client closed the connection"})
	case errors.Is(err, net.ErrClosed), errors.Is(err, os.ErrDeadlineExceeded):
		s.log(event{dir: dirEvent, note: "the kit ended the run"})
	default:
		s.log(event{dir: dirEvent, note: "connection ended: " + err.Error()})
	}
}

// handle answers one frame from the client; false ends the connection.
func (s *session) handle(frame []byte) bool {
	var h codec.RequestHeader
	if err := h.Decode(frame); err != nil {
		s.logFrame(event{dir: dirClient, note: "not a valid Request (dropped): " + err.Error()}, frame)
		return true
	}
	if s.cr == nil && h.Operation == codec.OperationRegister {
		name := loginName(frame)
		if name == finishName {
			s.logFrame(event{dir: dirClient, note: "finish"}, frame)
			s.k.end()
			return false
		}
		if !s.attach(name) {
			return s.write(event{note: "login names no case (or its case has had " + uitoa(maxConnsPerCase) + " connections): Eviction 9"}, answer{frame: mustEviction(codec.NewEviction(h.Client, codec.ReasonInvalidCredentials))}, &h, true)
		}
	}
	if s.cr == nil && isBindRequest(&h) {
		// A connection that binds a logical session belongs to the case
		// whose login made it; one that binds none stays unassigned.
		if cr := s.k.bindCase(frame); cr != nil {
			s.attachTo(cr)
		}
	}
	s.k.mu.Lock()
	c := s.conn()
	e := event{dir: dirClient, note: describeRequest(&h), req: &h, bound: c.bound}
	s.k.keep(&e, frame)
	s.logLocked(e)
	a, note, closeAfter, anchor := s.respondLocked(&h, frame)
	refused := s.refused
	s.refused = false
	s.k.mu.Unlock()
	return s.writeAnchored(event{note: note, refusedBind: refused}, a, &h, closeAfter, anchor)
}

// isBindRequest reports whether h is a BIND_SESSION (code 15).
func isBindRequest(h *codec.RequestHeader) bool {
	return h.Operation == codec.OperationNonReplicated && h.Code == codec.CodeBindSession
}

// attach binds the connection to the case name gives.
func (s *session) attach(name string) bool {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	cr, ok := s.k.cases[name]
	return ok && s.attachLocked(cr)
}

// attachTo binds the connection to case cr.
func (s *session) attachTo(cr *caseRun) bool {
	s.k.mu.Lock()
	defer s.k.mu.Unlock()
	return s.attachLocked(cr)
}

// attachLocked binds the connection to cr, unless the case has had
// maxConnsPerCase connections.
func (s *session) attachLocked(cr *caseRun) bool {
	if len(cr.conns) >= maxConnsPerCase {
		return false
	}
	if cr.started.IsZero() {
		cr.started = s.start
	}
	s.cr = cr
	if s.counted {
		s.counted = false
		s.k.unassigned--
	}
	s.c = s.pending
	s.c.n = len(cr.conns) + 1
	cr.conns = append(cr.conns, s.c)
	return true
}

// respondLocked decides the answer to a valid request: the answer, a
// note for the report, whether the connection closes after it, and whether
// it is the case's scripted answer.
func (s *session) respondLocked(h *codec.RequestHeader, frame []byte) (a answer, note string, closeAfter, anchor bool) {
	c := s.conn()
	switch h.Operation {
	case codec.OperationRegister:
		return s.respondLogin(h, frame)
	case codec.OperationNonReplicated:
		return s.respondNonReplicated(h, frame)
	case codec.OperationLogout:
		c.bound = 0
		s.k.loggedOut(h)
		return echo(0), "logout reply", false, false
	}
	return echo(codec.StatusInvalidCommand), "denied (3)", false, false
}

// echo is a reply of status, patched to answer its request.
func echo(status codec.Status) answer {
	return answer{frame: pingReply(status), patchClient: true, patchRequest: true}
}

// respondLogin answers a Register: the case's scripted answer (the first
// login, or every one for a bad frame or a refusal), else a good login
// reply with a fresh session.
func (s *session) respondLogin(h *codec.RequestHeader, frame []byte) (answer, string, bool, bool) {
	cr, c := s.cr, s.conn()
	if cr == nil {
		return answer{frame: mustEviction(codec.NewEviction(h.Client, codec.ReasonInvalidCredentials))}, "no case: Eviction 9", true, false
	}
	cr.registers++
	if cr.c.at == "login" && (cr.registers == 1 || repeats(cr.c.expect)) {
		if cr.anchorReq == nil {
			cr.anchorReq = &event{}
			s.k.keep(cr.anchorReq, frame)
		}
		if cr.c.expect == expUse || cr.c.expect == expOneMore {
			c.bound = cr.c.session
			s.k.registered(cr, h, frame, cr.c.session)
		}
		return cr.c.answer, "the case's scripted answer", cr.c.answer.closeAfter, true
	}
	s.k.session++
	c.bound = s.k.session
	s.k.registered(cr, h, frame, s.k.session)
	return answer{frame: goodLoginReply(s.k.session, s.k.protocol()), patchClient: true}, "a good login reply", false, false
}

// respondNonReplicated answers pings (the case's scripted answer for the
// first one after a good login), legacy logins, and denies the rest: 40
// before login, 3 after (WIRE.md section 7, points 2 to 4 and 7).
func (s *session) respondNonReplicated(h *codec.RequestHeader, frame []byte) (answer, string, bool, bool) {
	cr, c := s.cr, s.conn()
	switch h.Code {
	case codec.CodePing:
		if cr != nil && cr.c.at == "ping" && !cr.pinged && c.bound != 0 {
			cr.pinged = true
			return cr.c.answer, "the case's scripted answer", cr.c.answer.closeAfter, true
		}
		return echo(0), "ping reply", false, false
	case codec.CodeLoginUser, codec.CodeLoginPAT:
		return answer{frame: mustEviction(codec.NewEviction(h.Client, codec.ReasonMalformedLogin))}, "legacy login: Eviction 15", true, false
	case codec.CodeBindSession:
		return s.respondBind(h, frame)
	}
	if c.bound == 0 {
		return echo(codec.StatusUnauthenticated), "denied before login (40)", false, false
	}
	return echo(codec.StatusInvalidCommand), "denied (3)", false, false
}

// writeAnchored writes an answer and, for the case's scripted one, marks
// where it went so the verdict reads what the client did after it.
func (s *session) writeAnchored(e event, a answer, h *codec.RequestHeader, closeAfter, anchor bool) bool {
	if anchor {
		s.k.mu.Lock()
		if s.cr.anchorConn == nil { // the first scripted answer is the one judged
			s.cr.anchorConn = s.c
			s.cr.anchorAt = len(s.c.events)
		}
		s.k.mu.Unlock()
	}
	return s.write(e, a, h, closeAfter)
}

// write sends a (patched, padded, split or stalled as it says) and records
// it; false when the connection is to end.
func (s *session) write(e event, a answer, h *codec.RequestHeader, closeAfter bool) bool {
	out := build(a, h)
	if len(out) == 0 && closeAfter {
		s.log(event{dir: dirEvent, note: "the kit closed the connection without an answer (" + e.note + ")"})
		return false
	}
	e.dir = dirKit
	s.logFrame(e, out)
	err := s.send(a, out)
	if err != nil {
		s.log(event{dir: dirEvent, note: "write failed: " + err.Error()})
		return false
	}
	if closeAfter {
		s.log(event{dir: dirEvent, note: "the kit closed the connection"})
		return false
	}
	return true
}

// send writes out as a says.
func (s *session) send(a answer, out []byte) error {
	stall := s.k.opts.Stall
	if a.delay {
		time.Sleep(stall)
	}
	pause := time.Duration(0)
	if a.chunk > 0 {
		pause = time.Millisecond
	}
	return writeShaped(s.nc, out, a.stall, stall, a.chunk, pause, s.k.opts.Wait+s.k.opts.Stall)
}

// writeShaped writes f to nc as a case shapes it: with stall, the header,
// then a pause of stallFor, then the rest; with chunk > 0, in writes of
// chunk bytes, pause apart. Each write must be taken within deadline (a
// peer that stops reading is given up on), counted from its own start, so
// that how long a frame in many pieces takes on a loaded machine is no
// part of it.
func writeShaped(nc net.Conn, f []byte, stall bool, stallFor time.Duration, chunk int, pause, deadline time.Duration) error {
	write := func(b []byte) error {
		_ = nc.SetWriteDeadline(time.Now().Add(deadline))
		_, err := nc.Write(b)
		return err
	}
	if stall && len(f) > codec.HeaderSize {
		if err := write(f[:codec.HeaderSize]); err != nil {
			return err
		}
		time.Sleep(stallFor)
		f = f[codec.HeaderSize:]
	}
	step := len(f)
	if chunk > 0 {
		step = chunk
	}
	for len(f) > 0 {
		n := min(step, len(f))
		if err := write(f[:n]); err != nil {
			return err
		}
		if f = f[n:]; len(f) > 0 && pause > 0 {
			time.Sleep(pause)
		}
	}
	return nil
}

// build copies a's frame, patched to answer h and padded to its size, and
// the frame behind it, under h's client id too.
func build(a answer, h *codec.RequestHeader) []byte {
	out := append([]byte(nil), a.frame...)
	if len(out) >= codec.HeaderSize && a.patchClient {
		putClient(out, h.Client)
	}

	if len(out) >= codec.HeaderSize && a.patchRequest {
		binary.LittleEndian.PutUint64(out[200:], h.Request)
	}
	if a.pad && len(out) >= codec.HeaderSize {
		size := int(binary.LittleEndian.Uint32(out[48:]))
		if size > len(out) && size <= padLimit {
			out = append(out, make([]byte, size-len(out))...)
		}
	}
	if len(a.then) >= codec.HeaderSize {
		then := append([]byte(nil), a.then...)
		putClient(then, h.Client)
		out = append(out, then...)
	}
	return out
}

// putClient puts a Reply's client id.
func putClient(f []byte, id codec.Uint128) {
	binary.LittleEndian.PutUint64(f[160:], id.Lo)
	binary.LittleEndian.PutUint64(f[168:], id.Hi)
}

// loginName is the username (or, for a token login, the token) of a
// Register request: the case id the driver names. The body is read in the
// layout its own version selects (WIRE.md section 10.1): a 0.11.1 login
// carries its bind secret before the username.
func loginName(frame []byte) string {
	body := frame[codec.HeaderSize:]
	info, _, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		return ""
	}
	rev := codec.RevisionOf(info.Protocol)
	if l, _, err := codec.DecodeLoginRegisterRev(body, rev); err == nil {
		return string(l.Username)
	}
	if t, _, err := codec.DecodeLoginRegisterPATRev(body, rev); err == nil {
		return strings.TrimSpace(string(t.Token.Bytes()))
	}
	return ""
}

// describeRequest says what a request is, without its body.
func describeRequest(h *codec.RequestHeader) string {
	var b strings.Builder
	b.WriteString(h.Operation.String())
	if h.Operation == codec.OperationNonReplicated {
		b.WriteString(" " + h.Code.String())
	}
	b.WriteString(" client " + h.Client.String())
	b.WriteString(" request " + uitoa(h.Request) + " session " + uitoa(h.Session))
	return b.String()
}
