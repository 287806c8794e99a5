package main

import (
	"errors"
	"log/slog"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// connLog is the default log, for people: the events of connections
// (opened, refused at the connection cap, closed with the cause, each login
// outcome naming the account, logouts, dropped frames, accept errors,
// Handler answers that could not be sent), each written in full the first
// time it comes from an address and counted after that (aggregate.go), so
// that no peer can flood the log; the exact counts are in the metrics. No
// argument of an Observer holds a secret.
//
// A login names its account only when it bound (lifecycle.Login.Username
// is nil otherwise) and the name is one of the server's accounts; any other
// name is logged as unknown (and counted as such in the summaries), never
// as sent. A failed login names nobody: its name may be a password typed
// into the username field, an SDK's swap of the two, or a token read in the
// password layout.
type connLog struct {
	agg   *aggregator
	known map[string]bool // the accounts' names
}

// newConnLog is the log of a server with users.
func newConnLog(agg *aggregator, users []lifecycle.User) connLog {
	known := make(map[string]bool, len(users))
	for _, u := range users {
		known[u.Name] = true
	}
	return connLog{agg: agg, known: known}
}

// unknownUser is what a name that is no account of the server is logged as.
const unknownUser = "unknown"

// account is what the log says of a login's username.
func (l connLog) account(username []byte) account {
	switch {
	case username == nil:
		return account{}
	case l.known[string(username)]:
		return account{name: string(username)}
	}
	return account{unknown: true}
}

func connAttrs(c tcp.ConnInfo, more ...any) []any {
	return append([]any{"conn", c.ID, "remote", c.RemoteString()}, more...)
}

func (l connLog) Opened(c tcp.ConnInfo) {
	l.agg.note(kindOpen, "", c.Remote, account{}, func() []any { return connAttrs(c) })
}

// Limited: an admission limit (the connection cap, an address's quota or
// accept rate, an account's quota, the reserve) refused a connection or a
// login.
func (l connLog) Limited(c tcp.ConnInfo, lim tcp.Limit) {
	var label string
	if int(lim) < len(limitLabels) {
		label = limitLabels[lim] // no allocation: a reconnect storm is refused thousands of times a second
	} else {
		label = "limit=" + lim.String()
	}
	l.agg.note(kindLimited, label, c.Remote, account{}, func() []any { return connAttrs(c, "limit", lim.String()) })
}

// limitLabels are Limited's labels, made once.
var limitLabels = func() (ls [8]string) {
	for i := range ls {
		ls[i] = "limit=" + tcp.Limit(i).String()
	}
	return ls
}()

func (l connLog) Closed(c tcp.ConnInfo, how tcp.Closing) {
	label := "cause=" + how.Cause.String()
	if how.Cause == tcp.CauseEvicted {
		label += "/" + how.Reason.String()
	}
	l.agg.note(kindClose, label, c.Remote, account{}, func() []any {
		attrs := connAttrs(c, "cause", how.Cause.String())
		if how.Cause == tcp.CauseEvicted {
			attrs = append(attrs, "reason", how.Reason.String())
		}
		return append(attrs, "logged_in", how.LoggedIn, "logins", how.Logins, "frames", how.Frames,
			"duration", how.Duration.Round(time.Millisecond).String())
	})
}

// Login logs what a login came to, naming the account of a password login
// when it is one of the server's (a username is not a secret; the password
// never reaches an Observer). note calls attrs before it returns, while the
// name is valid.
//
// A BIND_SESSION is logged as a login with request=bind_session: what it
// bound (user and session) or the status that refused it; its bind secret
// never reaches an Observer.
func (l connLog) Login(c tcp.ConnInfo, r lifecycle.Login) {
	key := "outcome=" + r.Label()
	if r.Bind {
		key = "request=bind_session " + key
	}
	who := l.account(r.Username)
	l.agg.note(kindLogin, key, c.Remote, who, func() []any {
		attrs := connAttrs(c, "outcome", r.Label())
		if r.Bind {
			attrs = connAttrs(c, "request", "bind_session", "outcome", r.Label())
		}
		switch {
		case who.unknown:
			attrs = append(attrs, "user", unknownUser)
		case who.name != "":
			attrs = append(attrs, "user", who.name)
		}
		if r.OK {
			attrs = append(attrs, "user_id", r.UserID, "session", r.Session)
		}
		return attrs
	})
}

func (l connLog) Logout(c tcp.ConnInfo) {
	l.agg.note(kindLogout, "", c.Remote, account{}, func() []any { return connAttrs(c) })
}

// Dropped: the error names the rule a header broke, never a body's bytes.
func (l connLog) Dropped(c tcp.ConnInfo, err error) {
	l.agg.note(kindDropped, "", c.Remote, account{}, func() []any { return connAttrs(c, "err", err.Error()) })
}

func (l connLog) AnswerFailed(c tcp.ConnInfo, err error) {
	l.agg.note(kindAnswerFailed, "", c.Remote, account{}, func() []any { return connAttrs(c, "err", err.Error()) })
}

// AcceptFailed is not a peer's: it is counted under the listener.
func (l connLog) AcceptFailed(err error, retry time.Duration) {
	l.agg.note(kindAcceptFailed, "", listenerAddr{}, account{}, func() []any {
		return []any{"err", err.Error(), "retry_in", retry.String()}
	})
}

// listenerAddr stands for the listener itself in the aggregated log.
type listenerAddr struct{}

func (listenerAddr) Network() string { return "tcp" }
func (listenerAddr) String() string  { return "listener" }

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
	case errors.Is(e.Err, codec.ErrSize):
		return "closing: " + e.Err.Error()
	}
	return e.Err.Error()
}
