package main

import (
	"time"

	"github.com/iggywire/iggywire/lifecycle"
)

// observers hands every event to each Observer in turn (the log, then the
// metrics).
type observers []lifecycle.Observer

func (o observers) Opened(c lifecycle.ConnInfo) {
	for _, x := range o {
		x.Opened(c)
	}
}

func (o observers) Refused(c lifecycle.ConnInfo) {
	for _, x := range o {
		x.Refused(c)
	}
}

func (o observers) Closed(c lifecycle.ConnInfo, how lifecycle.Closing) {
	for _, x := range o {
		x.Closed(c, how)
	}
}

func (o observers) Login(c lifecycle.ConnInfo, r lifecycle.LoginResult) {
	for _, x := range o {
		x.Login(c, r)
	}
}

func (o observers) Logout(c lifecycle.ConnInfo) {
	for _, x := range o {
		x.Logout(c)
	}
}

func (o observers) Dropped(c lifecycle.ConnInfo, err error) {
	for _, x := range o {
		x.Dropped(c, err)
	}
}

func (o observers) AnswerFailed(c lifecycle.ConnInfo, err error) {
	for _, x := range o {
		x.AnswerFailed(c, err)
	}
}

func (o observers) AcceptFailed(err error, retry time.Duration) {
	for _, x := range o {
		x.AcceptFailed(err, retry)
	}
}
