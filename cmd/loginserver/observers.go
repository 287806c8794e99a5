package main

import (
	"time"

	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// observer is the Listener's Observer: each event goes to the log, then
// to the metrics when they are on, and every frame to the frame log when
// -trace is on.
func observer(log connLog, m *metrics, frames *frameLogger) tcp.Observer {
	o := tcp.Observer{
		Opened:       log.Opened,
		Refused:      log.Refused,
		Closed:       log.Closed,
		Login:        log.Login,
		Logout:       log.Logout,
		AnswerFailed: log.AnswerFailed,
		AcceptFailed: log.AcceptFailed,
	}
	if frames != nil {
		o.Frame = frames.trace
	}
	if m == nil {
		return o
	}
	o.Opened = func(c tcp.ConnInfo) { log.Opened(c); m.Opened(c) }
	o.Refused = func(c tcp.ConnInfo) { log.Refused(c); m.Refused(c) }
	o.Closed = func(c tcp.ConnInfo, how tcp.Closing) { log.Closed(c, how); m.Closed(c, how) }
	o.Login = func(c tcp.ConnInfo, l lifecycle.Login) { log.Login(c, l); m.Login(c, l) }
	o.Dropped = m.Dropped
	o.AnswerFailed = func(c tcp.ConnInfo, err error) { log.AnswerFailed(c, err); m.AnswerFailed(c, err) }
	o.AcceptFailed = func(err error, retry time.Duration) { log.AcceptFailed(err, retry); m.AcceptFailed(err, retry) }
	return o
}
