package fuzz

import (
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
)

// serverConfig is the server of every FuzzConn execution: user iggy
// (password iggy), an inactive user, and a token for each. It keeps two
// logical sessions, so that an input of a few 0.11.1 logins (which the
// default window reads in their own layout) reaches the forgetting of the
// oldest.
func serverConfig() lifecycle.Config {
	return lifecycle.Config{
		Window:      codec.DefaultWindow(codec.MustPack(0, 11, 0)),
		MaxSessions: 2,
		Auth: lifecycle.StaticAuth{
			Users: []lifecycle.User{
				{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
				{ID: 2, Name: "gone", Password: codec.NewSecret([]byte("gone")), Inactive: true},
			},
			Tokens: []lifecycle.Token{{Value: codec.NewSecret([]byte("tok")), User: "iggy"}, {Value: codec.NewSecret([]byte("old")), User: "gone"}},
		},
	}
}

// FuzzConn feeds a sequence of frames to one server Conn and checks the
// lifecycle rules that hold whatever the frames: nothing but PING and a
// Register is served before login, a closed connection stays closed, a
// dropped frame changes nothing, and every answer decodes with codec.
func FuzzConn(f *testing.F) {
	seed(f)
	cfg := serverConfig()
	fuzzBytes(f, func(t *testing.T, data []byte) {
		// A Server per execution: its session counter is state, and an
		// input must mean the same thing whatever ran before it.
		srv, err := lifecycle.NewServer(cfg)
		if err != nil {
			t.Fatal(err)
		}
		conn := srv.NewConn()
		in := chunks{rest: data}
		var lastSession uint64
		for {
			frame, _, ok := in.next()
			if !ok {
				return
			}
			lastSession = checkHandle(t, conn, frame, lastSession)
		}
	})
}

// checkHandle hands one frame to conn and checks the answer; it returns
// the highest session seen so far.
func checkHandle(t *testing.T, conn *lifecycle.Conn, frame []byte, lastSession uint64) uint64 {
	before := conn.State()
	checkConnState(t, before)
	out, o, err := conn.Handle(frame, append([]byte(nil), prefix...))
	after := conn.State()
	checkConnState(t, after)
	checkOutcome(t, frame, out[len(prefix):], *o, before, after)
	if err != nil {
		checkUnchanged(t, "Handle", out)
		checkHandleErr(t, frame, before, after, err)
		return lastSession
	}
	if before.Closed {
		t.Fatal("a closed connection answered a frame")
	}
	answer := out[len(prefix):]
	if within(frame, answer) {
		t.Fatal("the answer aliases the request frame")
	}
	req, rerr := codec.DecodeRequestHeader(frame)
	if rerr != nil {
		t.Fatalf("answered a frame that is not a valid request: %v", rerr)
	}
	return checkAnswer(t, req, frame[codec.HeaderSize:], answer, before, after, lastSession)
}

// checkOutcome: what Handle says it did is what the bytes show: the
// request it names is the frame's header, the answer it names is the one
// appended, and the phases and the login are the state's before and after.
func checkOutcome(t *testing.T, frame, answer []byte, o lifecycle.Outcome, before, after lifecycle.ConnState) {
	if o.Before != lifecycletest.PhaseOf(before) || o.After != lifecycletest.PhaseOf(after) {
		t.Fatalf("Outcome phases %v -> %v, state %+v -> %+v", o.Before, o.After, before, after)
	}
	if o.LoggedIn() != (after.LoggedIn && after.Session != before.Session) {
		t.Fatalf("Outcome.LoggedIn() = %t, state %+v -> %+v", o.LoggedIn(), before, after)
	}
	if o.LoggedIn() && (o.Login.Session != after.Session || o.Login.UserID != after.UserID) {
		t.Fatalf("Outcome login %+v, state %+v", o.Login, after)
	}
	switch o.Answer {
	case lifecycle.AnswerNone:
		if len(answer) != 0 {
			t.Fatalf("Outcome says no answer, %d bytes appended", len(answer))
		}
		return
	case lifecycle.AnswerReply:
		var h codec.ReplyHeader
		if err := h.Decode(answer); err != nil || h.Status != o.Status || h.Client != o.Client || h.Request != o.Request {
			t.Fatalf("Outcome reply status %v for client %v request %d; answer %+v, %v", o.Status, o.Client, o.Request, h, err)
		}
	case lifecycle.AnswerEviction:
		e, err := codec.DecodeEviction(answer)
		if err != nil || e.Reason != o.Reason || o.After != lifecycle.PhaseClosed {
			t.Fatalf("Outcome eviction %v (after %v); answer %+v, %v", o.Reason, o.After, e, err)
		}
	default:
		t.Fatalf("Outcome answer %v", o.Answer)
	}
	var req codec.RequestHeader
	if err := req.Decode(frame); err != nil || req.Operation != o.Operation || req.Client != o.Client || req.Request != o.Request {
		t.Fatalf("Outcome names %v/%v/%d, the frame is %+v (%v)", o.Operation, o.Client, o.Request, req, err)
	}
	if o.IsLogin() && o.Login.OK != o.LoggedIn() {
		t.Fatalf("Outcome login %+v, LoggedIn %t", o.Login, o.LoggedIn())
	}
}

// checkConnState: the bound fields are set exactly when logged in, and a
// closed connection is never logged in.
func checkConnState(t *testing.T, s lifecycle.ConnState) {
	bound := s.Session != 0 && !s.Client.IsZero()
	unbound := s.Session == 0 && s.Client.IsZero() && s.UserID == 0
	if (s.LoggedIn && !bound) || (!s.LoggedIn && !unbound) || (s.Closed && s.LoggedIn) {
		t.Fatalf("inconsistent connection state %+v", s)
	}
}

// checkHandleErr: every error is one of the documented kinds, with the
// documented effect on state.
func checkHandleErr(t *testing.T, frame []byte, before, after lifecycle.ConnState, err error) {
	var dropped *lifecycle.DroppedError
	switch {
	case before.Closed:
		if !errors.Is(err, lifecycle.ErrClosed) || after != before {
			t.Fatalf("closed connection: %v, state %+v", err, after)
		}
	case errors.Is(err, codec.ErrSize):
		if size, serr := codec.FrameSize(frame); serr == nil && size == len(frame) {
			t.Fatalf("codec.ErrSize for a frame of size %d and length %d", size, len(frame))
		}
		if !after.Closed {
			t.Fatal("codec.ErrSize left the connection open")
		}
	case errors.As(err, &dropped):
		if !errors.Is(err, lifecycle.ErrDropped) || after != before {
			t.Fatalf("dropped frame changed state from %+v to %+v (%v)", before, after, err)
		}
		if dropped.Err == nil {
			t.Fatal("a DroppedError without a cause")
		}
	default:
		t.Fatalf("Handle returned an undocumented error %v (%T)", err, err)
	}
}

// checkAnswer decodes the answer to req and holds it to the lifecycle.
func checkAnswer(t *testing.T, req codec.RequestHeader, body, answer []byte, before, after lifecycle.ConnState, lastSession uint64) uint64 {
	if size, err := codec.FrameSize(answer); err != nil || size != len(answer) {
		t.Fatalf("answer of %d bytes has size %d (%v)", len(answer), size, err)
	}
	if cmd, _ := codec.PeekCommand(answer); cmd == codec.CommandEviction {
		e, err := codec.DecodeEviction(answer)
		if err != nil || e.Client != req.Client || !after.Closed {
			t.Fatalf("eviction %+v (%v) for client %v; closed %v", e, err, req.Client, after.Closed)
		}
		if !before.LoggedIn && req.Operation != codec.OperationRegister && req.Operation != codec.OperationNonReplicated &&
			e.Reason != codec.ReasonNoSession {
			t.Fatalf("replicated request before login evicted with %v, want NoSession", e.Reason)
		}
		return lastSession
	}
	h, err := codec.DecodeReplyHeader(answer)
	if err != nil || h.Client != req.Client || h.Request != req.Request {
		t.Fatalf("reply %+v (%v) does not echo request %+v", h, err, req)
	}
	if h.Status != codec.StatusOK {
		return lastSession
	}
	if h.Operation == codec.OperationRegister {
		return checkLogin(t, req, answer, after, lastSession)
	}
	if !before.LoggedIn && !(req.Operation == codec.OperationNonReplicated && req.Code == codec.CodePing) {
		t.Fatalf("served %v/%v before login", req.Operation, req.Code)
	}
	return lastSession
}

// checkLogin: a successful login reply carries a session above every
// earlier one, and the connection is bound to it.
func checkLogin(t *testing.T, req codec.RequestHeader, answer []byte, after lifecycle.ConnState, lastSession uint64) uint64 {
	if req.Operation != codec.OperationRegister {
		t.Fatalf("a Register reply answers operation %v", req.Operation)
	}
	payload, code, err := codec.SplitResult(answer[codec.HeaderSize:])
	if err != nil || code != 0 {
		t.Fatalf("login reply result section: code %d, %v", code, err)
	}
	lr, err := codec.ParseLoginReply(payload)
	if err != nil || lr.Session <= lastSession {
		t.Fatalf("login reply %+v (%v); last session %d", lr, err, lastSession)
	}
	if !after.LoggedIn || after.Session != lr.Session || after.Client != req.Client || after.UserID != lr.UserID {
		t.Fatalf("state %+v after login reply %+v", after, lr)
	}
	return lr.Session
}
