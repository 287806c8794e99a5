package main

import (
	"errors"
	"net"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// driverPassword is the password a driver logs in with; the kit accepts
// any, and hides it in reports like every other.
const driverPassword = "conform"

// maxLoginTries bounds a driver's logins in one case: the first, then a
// retry after each transient result (57 or 58).
const maxLoginTries = 3

// driver runs the per-case script an SDK's driver runs, with this
// project's lifecycle.Client over TCP: connect, log in as the case id
// (again after a transient result), and once logged in ping twice; stop at
// the first error that closes the client.
type driver struct {
	Addr    string
	Timeout time.Duration // bounds every dial and read
	// ignoreRequest plants a bug: every reply is taken as answering the
	// request outstanding, whatever request number it carries.
	ignoreRequest bool
}

// run drives one case.
func (d driver) run(id string) error {
	nc, err := net.DialTimeout("tcp", d.Addr, d.Timeout)
	if err != nil {
		return err
	}
	defer nc.Close()
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "iggywire-go", SDKVersion: "0.1.0"})
	if err != nil {
		return err
	}
	password := codec.NewSecret([]byte(driverPassword))
	for try := 0; ; try++ {
		req, err := cl.Login(nil, []byte(id), password)
		if err != nil {
			return err
		}
		_, err = d.exchange(nc, cl, req)
		var transient *lifecycle.TransientError
		if errors.As(err, &transient) && try+1 < maxLoginTries {
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	for range 2 {
		req, err := cl.Ping(nil)
		if err != nil {
			return err
		}
		if _, err := d.exchange(nc, cl, req); err != nil && cl.Closed() {
			return err
		}
	}
	return nil
}

// exchange writes req and reads the frame that answers it.
func (d driver) exchange(nc net.Conn, cl *lifecycle.Client, req []byte) (lifecycle.Response, error) {
	_ = nc.SetDeadline(time.Now().Add(d.Timeout))
	if _, err := nc.Write(req); err != nil {
		return lifecycle.Response{}, err
	}
	frame, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	if err != nil {
		return lifecycle.Response{}, err
	}
	if d.ignoreRequest && len(frame) >= codec.HeaderSize && frame[60] == byte(codec.CommandReply) {
		copy(frame[200:208], req[168:176])
	}
	return cl.Receive(frame)
}

// finish tells the kit the run is over, for a run of fewer cases than the
// kit serves.
func (d driver) finish() error {
	nc, err := net.DialTimeout("tcp", d.Addr, d.Timeout)
	if err != nil {
		return err
	}
	defer nc.Close()
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "iggywire-go", SDKVersion: "0.1.0"})
	if err != nil {
		return err
	}
	req, err := cl.Login(nil, []byte(finishName), codec.NewSecret([]byte(driverPassword)))
	if err != nil {
		return err
	}
	_, err = nc.Write(req)
	return err
}
