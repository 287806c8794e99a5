package main

import (
	"errors"
	"log/slog"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// connLog is the default log, for people: a line per connection opened and
// closed (with the cause), per login outcome and logout, per refusal at the
// connection cap, per accept error and per Handler answer that could not
// be sent. Dropped frames are counted in the metrics and shown by -trace.
// No argument of an Observer holds a secret.
type connLog struct {
	log *slog.Logger
}

func connAttrs(c tcp.ConnInfo, more ...any) []any {
	return append([]any{"conn", c.ID, "remote", c.RemoteString()}, more...)
}

func (l connLog) Opened(c tcp.ConnInfo) { l.log.Info("open", connAttrs(c)...) }

func (l connLog) Refused(c tcp.ConnInfo) {
	l.log.Warn("refused", connAttrs(c, "cause", tcp.CauseTotalCap.String())...)
}

func (l connLog) Closed(c tcp.ConnInfo, how tcp.Closing) {
	attrs := connAttrs(c, "cause", how.Cause.String())
	if how.Cause == tcp.CauseEvicted {
		attrs = append(attrs, "reason", how.Reason.String())
	}
	attrs = append(attrs, "logged_in", how.LoggedIn, "logins", how.Logins, "frames", how.Frames,
		"duration", how.Duration.Round(time.Millisecond).String())
	l.log.Info("close", attrs...)
}

// Login logs what a login came to, naming the account of a password login
// (a username is not a secret; the password never reaches an Observer).
func (l connLog) Login(c tcp.ConnInfo, r lifecycle.Login) {
	attrs := connAttrs(c, "outcome", r.Label())
	if r.Username != nil {
		attrs = append(attrs, "user", string(r.Username))
	}
	if r.OK {
		attrs = append(attrs, "user_id", r.UserID, "session", r.Session)
	}
	l.log.Info("login", attrs...)
}

func (l connLog) Logout(c tcp.ConnInfo) { l.log.Info("logout", connAttrs(c)...) }

func (l connLog) AnswerFailed(c tcp.ConnInfo, err error) {
	l.log.Error("answer not encodable, denied with status 1", connAttrs(c, "err", err.Error())...)
}

func (l connLog) AcceptFailed(err error, retry time.Duration) {
	l.log.Warn("accept failed", "err", err.Error(), "retry_in", retry.String())
}

// frameLogger logs one line per frame, in and out (-trace). Only header fields are
// logged, never a body, so no password or token can reach the log.
type frameLogger struct{ log *slog.Logger }

func (f frameLogger) trace(e tcp.Exchange) {
	f.in(e)
	if len(e.Out) > 0 {
		f.out(e)
	}
}

func (f frameLogger) in(e tcp.Exchange) {
	attrs := []any{"dir", "in", "remote", e.Remote.String()}
	if h, err := codec.DecodeRequestHeader(e.In.Bytes()); err == nil {
		attrs = append(attrs, "command", codec.CommandRequest.String(), "operation", h.Operation.String())
		if h.Operation == codec.OperationNonReplicated {
			attrs = append(attrs, "code", h.Code.String())
		}
		attrs = append(attrs, "client", h.Client.String(), "request", h.Request, "session", h.Session)
	} else if cmd, err := codec.PeekCommand(e.In.Bytes()); err == nil {
		attrs = append(attrs, "command", cmd.String())
	}
	f.log.Info("frame", append(attrs, "result", result(e))...)
}

func (f frameLogger) out(e tcp.Exchange) {
	attrs := []any{"dir", "out", "remote", e.Remote.String()}
	if ev, err := codec.DecodeEviction(e.Out); err == nil {
		attrs = append(attrs, "command", codec.CommandEviction.String(), "client", ev.Client.String(),
			"result", "evicted: "+ev.Reason.String())
		if ev.Reason == codec.ReasonIncompatibleProtocol {
			attrs = append(attrs, "window", ev.Window.String())
		}
	} else if h, err := codec.DecodeReplyHeader(e.Out); err == nil {
		attrs = append(attrs, "command", codec.CommandReply.String(), "operation", h.Operation.String(),
			"client", h.Client.String(), "request", h.Request, "result", "status "+h.Status.String())
	}
	if e.Closed {
		attrs = append(attrs, "closing", true)
	}
	f.log.Info("frame", attrs...)
}

// result says what became of an incoming frame. Errors of codec and
// lifecycle never contain a secret.
func result(e tcp.Exchange) string {
	switch {
	case e.Err == nil:
		return "answered"
	case errors.Is(e.Err, lifecycle.ErrFrameSize):
		return "closing: " + e.Err.Error()
	}
	return e.Err.Error()
}
