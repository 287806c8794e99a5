package main

import (
	"time"

	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// observers hands every event to each Observer in turn (the log, then the
// metrics).
type observers []tcp.Observer

func (o observers) Opened(c tcp.ConnInfo) {
	for _, x := range o {
		x.Opened(c)
	}
}

func (o observers) Refused(c tcp.ConnInfo) {
	for _, x := range o {
		x.Refused(c)
	}
}

func (o observers) Closed(c tcp.ConnInfo, how tcp.Closing) {
	for _, x := range o {
		x.Closed(c, how)
	}
}

func (o observers) Login(c tcp.ConnInfo, r tcp.LoginResult) {
	for _, x := range o {
		x.Login(c, r)
	}
}

func (o observers) Logout(c tcp.ConnInfo) {
	for _, x := range o {
		x.Logout(c)
	}
}

func (o observers) Dropped(c tcp.ConnInfo, err error) {
	for _, x := range o {
		x.Dropped(c, err)
	}
}

func (o observers) AnswerFailed(c tcp.ConnInfo, err error) {
	for _, x := range o {
		x.AnswerFailed(c, err)
	}
}

func (o observers) AcceptFailed(err error, retry time.Duration) {
	for _, x := range o {
		x.AcceptFailed(err, retry)
	}
}
