package main

import (
	"time"

	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// observer is the Listener's Observer: each event goes to the log, then
// to the metrics when they are on, and every frame to the frame log when
// -trace is on; every connection accepted is also counted for quiet (the
// hand-back after a burst). A nil *metrics counts nothing. A new hook is a line here: its log kind (aggregate.go) and
// its counter.
func observer(log connLog, m *metrics, frames *frameLogger, quiet *quietRelease) tcp.Observer {
	o := tcp.Observer{
		Opened:       func(c tcp.ConnInfo) { quiet.seen(); log.Opened(c); m.Opened(c) },
		Limited:      func(c tcp.ConnInfo, l tcp.Limit) { quiet.seen(); log.Limited(c, l); m.Limited(c, l) },
		Closed:       func(c tcp.ConnInfo, how tcp.Closing) { log.Closed(c, how); m.Closed(c, how) },
		Login:        func(c tcp.ConnInfo, l lifecycle.Login) { log.Login(c, l); m.Login(c, l) },
		Logout:       func(c tcp.ConnInfo) { log.Logout(c) },
		Dropped:      func(c tcp.ConnInfo, err error) { log.Dropped(c, err); m.Dropped(c, err) },
		AnswerFailed: func(c tcp.ConnInfo, err error) { log.AnswerFailed(c, err); m.AnswerFailed(c, err) },
		AcceptFailed: func(err error, retry time.Duration) { log.AcceptFailed(err, retry); m.AcceptFailed(err, retry) },
	}
	if frames != nil {
		o.Frame = frames.trace
	}
	return o
}
