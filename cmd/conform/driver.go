package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
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
	// Protocol is the version the client speaks (0: lifecycle.Client's
	// default, 0.11.0).
	Protocol codec.Version
	// Control is the kit's control endpoint, to which the driver reports
	// what its first login surfaced; "" reports nothing.
	Control string
	// reconnect is how many times the driver logs in again, on a new
	// connection, after a login that failed, as an SDK that reconnects on
	// its own does.
	reconnect int
	// metadata makes the driver behave as real SDKs do: a
	// GetClusterMetadata request (code 12) before the login and after it,
	// each denied and carried on from (WIRE.md section 7, points 4 and 7).
	metadata bool
	// ignoreRequest plants a bug: every reply is taken as answering the
	// request outstanding, whatever request number it carries.
	ignoreRequest bool
	// mismatchOK plants another: a login whose reply the client dropped as
	// a mismatch is reported as successful.
	mismatchOK bool
	// laxEvictions plants another: any frame with command 13 is taken as
	// an eviction, unvalidated, its reason byte mapped to a code (an
	// unknown one to 40).
	laxEvictions bool
}

// run drives one case and reports what its first login surfaced.
func (d driver) run(id string) error {
	var err error
	// A reconnecting SDK tries again on a new connection after a failed
	// login, and its caller sees the last try's outcome.
	for try := 0; try <= d.reconnect; try++ {
		last := try == d.reconnect
		var surfaced string
		surfaced, err = d.script(id, func(surfaced string, err error) {
			if last || err == nil || surfaced == "0" {
				d.result(id, surfaced)
			}
		})
		if err == nil || surfaced == "0" {
			break
		}
	}
	return err
}

// result tells the control endpoint what a case's login surfaced. It is
// sent before the case's last connection closes: the kit ends a full run
// soon after the last case's connections have closed, and a result sent
// after that would be lost.
func (d driver) result(id, surfaced string) {
	if d.Control == "" {
		return
	}
	resp, err := http.Post("http://"+d.Control+"/result?case="+url.QueryEscape(id)+"&surfaced="+url.QueryEscape(surfaced), "text/plain", nil)
	if err == nil {
		resp.Body.Close()
	}
}

// script is the per-case script; it returns what the first login
// surfaced, and tells done so before it closes the connection.
func (d driver) script(id string, done func(surfaced string, err error)) (surfaced string, err error) {
	nc, err := net.DialTimeout("tcp", d.Addr, d.Timeout)
	if err != nil {
		done("closed", err)
		return "closed", err
	}
	conns := []net.Conn{nc}
	defer func() {
		for _, c := range conns {
			_ = c.Close()
		}
	}()
	defer func() { done(surfaced, err) }() // runs before the close
	cl, err := d.client()
	if err != nil {
		return "error", err
	}
	password := codec.NewSecret([]byte(driverPassword))
	if err := d.askMetadata(nc, cl); err != nil {
		return "closed", err
	}
	for try := 0; ; try++ {
		req, err := cl.Login(nil, []byte(id), password)
		if err != nil {
			return surfaced, err
		}
		_, err = d.exchange(nc, cl, req)
		if try == 0 {
			surfaced = surface(err)
			if d.mismatchOK && errors.Is(err, lifecycle.ErrMismatch) {
				surfaced = "0"
			}
		}
		var transient *lifecycle.TransientError
		if errors.As(err, &transient) && try+1 < maxLoginTries {
			continue
		}
		if err != nil {
			return surfaced, err
		}
		break
	}
	if err := d.askMetadata(nc, cl); err != nil {
		return surfaced, err
	}
	resumed := false
	for range 2 {
		req, err := cl.Ping(nil)
		if err != nil {
			return surfaced, err
		}
		_, err = d.exchange(nc, cl, req)
		if err != nil && connLost(err) && !resumed && cl.State().Resumable {
			// The connection broke under a logged-in 0.11.1 client: resume
			// the session on a new one, as an SDK that reconnects does.
			resumed = true
			if nc, err = d.resume(cl, id, password); err != nil {
				return surfaced, err
			}
			conns = append(conns, nc)
			continue
		}
		if err != nil && cl.Closed() {
			return surfaced, err
		}
	}
	return surfaced, nil
}

// resume dials a new connection and binds the client's logical session on
// it with BIND_SESSION (WIRE.md section 10.4); refused, it logs in again
// there, as section 10.4 says a client does (lifecycle.Client draws a new
// client id and secret for it). It returns the new connection.
func (d driver) resume(cl *lifecycle.Client, id string, password codec.Secret) (net.Conn, error) {
	req, err := cl.BindSession(nil)
	if err != nil {
		return nil, err
	}
	nc, err := net.DialTimeout("tcp", d.Addr, d.Timeout)
	if err != nil {
		return nil, err
	}
	_, err = d.exchange(nc, cl, req)
	if errors.Is(err, lifecycle.ErrLoginAgain) {
		var login []byte
		if login, err = cl.Login(nil, []byte(id), password); err == nil {
			_, err = d.exchange(nc, cl, login)
		}
	}
	if err != nil {
		_ = nc.Close()
		return nil, err
	}
	return nc, nil
}

// connLost reports whether err is the connection's end (the peer closed
// it, or it broke) rather than an answer the client read.
func connLost(err error) bool {
	var op *net.OpError
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &op)
}

// askMetadata sends GetClusterMetadata when the driver does, and carries
// on from a denial; only a failure that closes the client ends the case.
func (d driver) askMetadata(nc net.Conn, cl *lifecycle.Client) error {
	if !d.metadata {
		return nil
	}
	req, err := cl.Request(nil, codec.CodeGetClusterMetadata, nil)
	if err != nil {
		return err
	}
	if _, err := d.exchange(nc, cl, req); err != nil && cl.Closed() {
		return err
	}
	return nil
}

// surface names what a login's error surfaces, as WIRE.md section 8 names
// it: "0" for success, a status code, IncompatibleProtocolVersion, or what
// went wrong underneath.
func surface(err error) string {
	var transient *lifecycle.TransientError
	var incompatible *codec.IncompatibleProtocolError
	var iggy *codec.IggyError
	switch {
	case err == nil:
		return "0"
	case errors.As(err, &transient):
		return strconv.Itoa(int(transient.Status))
	case errors.As(err, &incompatible):
		return "IncompatibleProtocolVersion"
	case errors.As(err, &iggy):
		return strconv.Itoa(int(iggy.Status))
	case errors.Is(err, lifecycle.ErrMalformed), errors.Is(err, codec.ErrSize):
		return strconv.Itoa(int(codec.StatusInvalidCommand))
	case errors.Is(err, lifecycle.ErrMismatch):
		return "mismatch"
	}
	var lax *laxError
	if errors.As(err, &lax) {
		return lax.code
	}
	return "closed"
}

// laxReason is the planted bug's mapping of a reason byte.
func laxReason(reason byte) string {
	switch reason {
	case 2, 3, 4, 5, 6:
		return "3"
	case 9:
		return "42"
	case 10:
		return "53"
	case 13:
		return "30"
	case 14:
		return "IncompatibleProtocolVersion"
	case 15:
		return "4"
	}
	return "40"
}

// laxError is what the lax client returns for an eviction.
type laxError struct{ code string }

func (e *laxError) Error() string { return "evicted: " + e.code }

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
	if d.laxEvictions && len(frame) >= codec.HeaderSize && frame[60] == byte(codec.CommandEviction) {
		return lifecycle.Response{}, &laxError{laxReason(frame[255])}
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
	cl, err := d.client()
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

// client is the lifecycle.Client of one case, speaking d.Protocol.
func (d driver) client() (*lifecycle.Client, error) {
	return lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "iggywire-go", SDKVersion: "0.1.0", Protocol: d.Protocol})
}

// speaks checks that lifecycle.Client builds the logins of protocol v in
// v's own layout (WIRE.md section 10.1): a client configured for 0.11.1
// that still wrote 0.11.0's body, with no bind secret, would be read by
// the kit as a malformed login and fail every case, which would say
// nothing about the lifecycle.
func speaks(v codec.Version) error {
	cl, err := driver{Protocol: v}.client()
	if err != nil {
		return fmt.Errorf("-protocol %s: lifecycle.Client: %w", v, err)
	}
	login, err := cl.Login(nil, []byte("conform"), codec.NewSecret([]byte(driverPassword)))
	if err != nil {
		return fmt.Errorf("-protocol %s: lifecycle.Client: %w", v, err)
	}
	if len(login) <= codec.HeaderSize {
		return fmt.Errorf("-protocol %s: lifecycle.Client built a login of %d bytes", v, len(login))
	}
	rev := codec.RevisionOf(v)
	if _, err := codec.ParseLoginRegisterRev(login[codec.HeaderSize:], rev); err != nil {
		return fmt.Errorf("-protocol %s: lifecycle.Client does not build this protocol's login (the %s layout): %v", v, rev, err)
	}
	return nil
}
