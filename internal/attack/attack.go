// Package attack defines the lock-out and cost attacks on the login server
// once, for lifecycle/tcp's tests (small, on a synctest bubble's pipes)
// and for the soak (full size, over loopback against cmd/loginserver):
// each takes the way to dial, its size and a stop channel, and reports
// what it did.
package attack

import (
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Dial opens a connection to the server from the address local.
type Dial func(local net.IP) (net.Conn, error)

// Result is what a legitimate client's logins came to.
type Result struct {
	OK, Failed int
	Lat        []time.Duration // of each login that succeeded, request to reply
	FirstErr   error
}

// Legit is the legitimate client of the lock-outs: it connects from From,
// waits Think (a client that far away), logs in as User, pings and
// closes, every Every, Tries times or until stop is closed.
type Legit struct {
	From           net.IP
	User, Password string
	Think, Every   time.Duration
	Tries          int // 0: until stop
}

// Run runs l and says how its logins went.
func (l Legit) Run(dial Dial, stop <-chan struct{}) Result {
	var r Result
	for i := 0; l.Tries == 0 || i < l.Tries; i++ {
		next := time.Now().Add(l.Every)
		lat, err := l.once(dial)
		if err == nil {
			r.OK++
			r.Lat = append(r.Lat, lat)
		} else {
			r.Failed++
			if r.FirstErr == nil {
				r.FirstErr = err
			}
		}
		if !Pause(time.Until(next), stop) {
			break
		}
	}
	return r
}

func (l Legit) once(dial Dial) (time.Duration, error) {
	nc, err := dial(l.From)
	if err != nil {
		return 0, err
	}
	defer nc.Close()
	time.Sleep(l.Think)
	p, err := NewPeer(nc)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := p.Login(l.User, l.Password); err != nil {
		return 0, err
	}
	lat := time.Since(start)
	return lat, p.Do(p.C.Ping(nil))
}

// NewClient is a client of an SDK the server accepts.
func NewClient() (*lifecycle.Client, error) {
	return lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
}

// ioTimeout bounds each exchange.
const ioTimeout = 10 * time.Second

// Peer is a connection and the client speaking on it.
type Peer struct {
	NC net.Conn
	C  *lifecycle.Client
}

// NewPeer is a peer with a new client on nc.
func NewPeer(nc net.Conn) (Peer, error) {
	c, err := NewClient()
	return Peer{nc, c}, err
}

// Do sends the frame the client built and hands the answer to it.
func (p Peer) Do(frame []byte, err error) error {
	if err != nil {
		return err
	}
	_ = p.NC.SetDeadline(time.Now().Add(ioTimeout))
	if _, err := p.NC.Write(frame); err != nil {
		return err
	}
	answer, err := codec.ReadFrame(p.NC, nil, codec.MaxFrameSize)
	if err != nil {
		return err
	}
	_, err = p.C.Receive(answer)
	return err
}

// Login logs the peer in as user.
func (p Peer) Login(user, password string) error {
	return p.Do(p.C.Login(nil, []byte(user), codec.NewSecret([]byte(password))))
}

// Pause waits d, and reports false if stop was closed first (or is).
func Pause(d time.Duration, stop <-chan struct{}) bool {
	if d <= 0 {
		select {
		case <-stop:
			return false
		default:
			return true
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-stop:
		return false
	case <-t.C:
		return true
	}
}

// Reset closes nc with a reset, as a peer that aborts does (on TCP).
func Reset(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = nc.Close()
}

// LogoutChurn is lock-out 1: conns connections from the addresses from
// log in as user, log out, stay logged out loggedOut (in the pre-login
// line), and again, dialling anew when the server closes them, until stop.
// It returns the login/logout cycles and the dials.
func LogoutChurn(dial Dial, from []net.IP, conns int, user, password string, loggedOut time.Duration, stop <-chan struct{}) (cycles, dials int64) {
	var c, d atomic.Int64
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var nc net.Conn
			defer func() {
				if nc != nil {
					_ = nc.Close()
				}
			}()
			for Pause(0, stop) {
				if nc == nil {
					var err error
					if nc, err = dial(from[i%len(from)]); err != nil {
						Pause(10*time.Millisecond, stop)
						continue
					}
					d.Add(1)
				}
				if cycle(nc, user, password) != nil {
					_ = nc.Close()
					nc = nil
					Pause(time.Millisecond, stop)
					continue
				}
				c.Add(1)
				Pause(loggedOut, stop)
			}
		}()
	}
	wg.Wait()
	return c.Load(), d.Load()
}

// cycle logs in on nc, with a client of its own, and logs out.
func cycle(nc net.Conn, user, password string) error {
	p, err := NewPeer(nc)
	if err != nil {
		return err
	}
	if err := p.Login(user, password); err != nil {
		return err
	}
	return p.Do(p.C.Logout(nil))
}

// ResetChurn is lock-out 2: from one address, perSecond connections
// opened and reset at once, until stop (the first ones spend the
// address's accept burst). It returns how many it opened.
func ResetChurn(dial Dial, from net.IP, perSecond float64, stop <-chan struct{}) int64 {
	start := time.Now()
	var n int64
	for {
		due := start.Add(time.Duration(float64(n) / perSecond * float64(time.Second)))
		if !Pause(time.Until(due), stop) {
			return n
		}
		if nc, err := dial(from); err == nil {
			Reset(nc)
		}
		n++
	}
}

// HoldSessions is lock-out 3: n connections from one address log in as
// user, those let in holding their session until the caller closes them.
// It returns the connections held and how many logins were refused.
func HoldSessions(dial Dial, from net.IP, user, password string, n int) (held []net.Conn, refused int) {
	for range n {
		nc, err := dial(from)
		if err != nil {
			refused++
			continue
		}
		p, err := NewPeer(nc)
		if err == nil {
			err = p.Login(user, password)
		}
		if err != nil {
			_ = nc.Close()
			refused++
			continue
		}
		held = append(held, nc)
	}
	return held, refused
}

// PingFlood is cost 4: conns connections from the addresses, never logged
// in, send pings with body-byte bodies flat out, reading the answers,
// dialling anew when closed, until stop. It returns the bytes sent.
func PingFlood(dial Dial, from []net.IP, conns, body int, stop <-chan struct{}) int64 {
	var sent atomic.Int64
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for Pause(0, stop) {
				nc, err := dial(from[i%len(from)])
				if err != nil {
					Pause(10*time.Millisecond, stop)
					continue
				}
				sent.Add(pingUntilClosed(nc, body, stop))
				_ = nc.Close()
			}
		}()
	}
	wg.Wait()
	return sent.Load()
}

// pingUntilClosed pings on nc until it fails or stop, and returns the
// bytes it wrote.
func pingUntilClosed(nc net.Conn, body int, stop <-chan struct{}) int64 {
	c, err := NewClient()
	if err != nil {
		return 0
	}
	frame, err := c.Ping(nil)
	if err != nil {
		return 0
	}
	frame = padded(frame, body)
	var sent int64
	for Pause(0, stop) {
		_ = nc.SetDeadline(time.Now().Add(ioTimeout))
		if _, err := nc.Write(frame); err != nil {
			return sent
		}
		sent += int64(len(frame))
		if _, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize); err != nil {
			return sent
		}
	}
	return sent
}

// padded is a request frame with body zero bytes of body, its size and
// checksums set anew.
func padded(frame []byte, body int) []byte {
	h, err := codec.DecodeRequestHeader(frame)
	if err != nil {
		return frame
	}
	out, err := codec.AppendRequestFrame(nil, h, make([]byte, body))
	if err != nil {
		return frame
	}
	return out
}

// ResetStorm is cost 5: n connections, the i-th from from(i), opened and
// reset at once, workers at a time. It returns how many were opened.
func ResetStorm(dial Dial, from func(i int) net.IP, n, workers int, stop <-chan struct{}) int64 {
	var next, opened atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for Pause(0, stop) {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				if nc, err := dial(from(int(i))); err == nil {
					Reset(nc)
					opened.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return opened.Load()
}
