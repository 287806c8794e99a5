package main

import (
	"errors"
	"log/slog"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// frameLogger logs one line per frame, in and out. Only header fields are
// logged, never a body, so no password or token can reach the log.
type frameLogger struct{ log *slog.Logger }

func (f frameLogger) trace(e lifecycle.Exchange) {
	f.in(e)
	if len(e.Out) > 0 {
		f.out(e)
	}
}

func (f frameLogger) in(e lifecycle.Exchange) {
	attrs := []any{"dir", "in", "remote", e.Remote.String()}
	if h, err := codec.DecodeRequestHeader(e.In); err == nil {
		attrs = append(attrs, "command", codec.CommandRequest.String(), "operation", h.Operation.String())
		if h.Operation == codec.OperationNonReplicated {
			attrs = append(attrs, "code", h.Code.String())
		}
		attrs = append(attrs, "client", h.Client.String(), "request", h.Request, "session", h.Session)
	} else if cmd, err := codec.PeekCommand(e.In); err == nil {
		attrs = append(attrs, "command", cmd.String())
	}
	f.log.Info("frame", append(attrs, "result", result(e))...)
}

func (f frameLogger) out(e lifecycle.Exchange) {
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
func result(e lifecycle.Exchange) string {
	switch {
	case e.Err == nil:
		return "answered"
	case errors.Is(e.Err, lifecycle.ErrFrameSize):
		return "closing: " + e.Err.Error()
	}
	return e.Err.Error()
}
