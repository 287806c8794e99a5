// Package attack defines each attack on the login server once, for
// lifecycle/tcp's tests (small, on a synctest bubble's pipes or on
// loopback) and for the soak (full size, over loopback against
// cmd/loginserver): each takes the way to dial, its size and a stop
// channel, and reports what it did.
package attack

import (
	"bytes"
	"cmp"
	"errors"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// Dial opens a connection to the server from the address local (any if
// nil).
type Dial func(local net.IP) (net.Conn, error)

// ioTimeout bounds each exchange.
const ioTimeout = 10 * time.Second

// Peer is a connection and the client speaking on it.
type Peer struct {
	NC net.Conn
	C  *lifecycle.Client
}

// DialPeer dials from local and puts a new client of an SDK the server
// accepts on the connection.
func DialPeer(dial Dial, local net.IP) (Peer, error) {
	nc, err := dial(local)
	if err != nil {
		return Peer{}, err
	}
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		_ = nc.Close()
	}
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
	select {
	case <-stop:
		return false
	default:
	}
	if d <= 0 {
		return true
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

// Each runs f(0) to f(n-1) on goroutines of their own and waits for them.
func Each(n int, f func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(i)
		}()
	}
	wg.Wait()
}

// Behaviour is what a peer does on its connection. It returns once the
// connection failed or stop was closed, and reports whether the peer goes
// on.
type Behaviour func(p Peer, stop <-chan struct{}) bool

// Peers runs n peers until stop, the i-th dialling from at(from, i) and
// doing b on its connection, which is closed when b returns or stop is
// closed. A peer whose connection ended dials anew after again, jittered
// by half of it so that the peers do not come back in waves (0: at once);
// with again negative it ends.
func Peers(dial Dial, from []net.IP, n int, again time.Duration, stop <-chan struct{}, b Behaviour) {
	Each(n, func(i int) {
		for Pause(0, stop) {
			p, err := DialPeer(dial, at(from, i))
			if err != nil {
				Pause(10*time.Millisecond, stop)
				continue
			}
			// The connection closes when b returns or once stop is closed.
			done := make(chan struct{})
			go func() {
				select {
				case <-stop:
				case <-done:
				}
				_ = p.NC.Close()
			}()
			goOn := b(p, stop)
			close(done)
			if !goOn || again < 0 {
				return
			}
			if again > 0 && !Pause(again/2+rand.N(again), stop) {
				return
			}
		}
	})
}

// at is the i-th peer's address of from: from[i%len(from)], any (nil) if
// from is empty.
func at(from []net.IP, i int) net.IP {
	if len(from) == 0 {
		return nil
	}
	return from[i%len(from)]
}

// Idle says nothing and waits for the server to close the connection.
func Idle(p Peer, _ <-chan struct{}) bool {
	_, _ = p.NC.Read(make([]byte, 1))
	return true
}

// Drip sends a ping frame a byte every d.
func Drip(d time.Duration) Behaviour {
	return func(p Peer, stop <-chan struct{}) bool {
		frame, _ := p.C.Ping(nil)
		for _, b := range frame {
			if _, err := p.NC.Write([]byte{b}); err != nil || !Pause(d, stop) {
				break
			}
		}
		return true
	}
}

// PingEvery logs in as user, unless user is empty, then pings every d.
func PingEvery(d time.Duration, user, password string) Behaviour {
	return func(p Peer, stop <-chan struct{}) bool {
		if user == "" || p.Login(user, password) == nil {
			for p.Do(p.C.Ping(nil)) == nil && Pause(d, stop) {
			}
		}
		return true
	}
}

// Pipeline logs in as user and writes pings flat out, 64 a write, never
// waiting for their answers, and adds the bytes it wrote to written. It
// reads the answers on a goroutine of its own, counting them in answered,
// unless answered is nil: then it is a peer that never reads.
func Pipeline(user, password string, written, answered *atomic.Int64) Behaviour {
	return func(p Peer, _ <-chan struct{}) bool {
		if p.Login(user, password) != nil {
			return false
		}
		ping, err := p.C.Ping(nil) // after the login: it carries the session
		if err != nil {
			return false
		}
		_ = p.NC.SetDeadline(time.Time{})
		if answered != nil {
			go func() {
				var err error
				for buf := make([]byte, 0, 4096); err == nil; {
					if buf, err = codec.ReadFrame(p.NC, buf[:0], codec.MaxFrameSize); err == nil {
						answered.Add(1)
					}
				}
			}()
		}
		batch := bytes.Repeat(ping, 64)
		for {
			n, err := p.NC.Write(batch)
			written.Add(int64(n))
			if err != nil {
				return false
			}
		}
	}
}

// Legit is the legitimate client of the lock-outs: it connects from From,
// waits Think (a client that far away), logs in as User, pings and
// closes, every Every, Tries times or until stop is closed. As the soak's
// probe (Probe) it logs out before it closes, and its login is timed from
// the dial.
type Legit struct {
	From           net.IP
	User, Password string
	Think, Every   time.Duration
	Tries          int // 0: until stop
	Probe          bool
}

// Result is what a legitimate client's logins came to.
type Result struct {
	OK, Failed int
	Lat        []time.Duration // of each login that succeeded, request (Probe: dial) to reply
	Ping       []time.Duration // of the ping after each of them, request to answer
	FirstErr   string
}

// Run runs l and says how its logins went.
func (l Legit) Run(dial Dial, stop <-chan struct{}) Result {
	var r Result
	for i := 0; l.Tries == 0 || i < l.Tries; i++ {
		next := time.Now().Add(l.Every)
		if err := l.once(dial, &r); err != nil {
			r.Failed++
			r.FirstErr = cmp.Or(r.FirstErr, err.Error())
		} else {
			r.OK++
		}
		if !Pause(time.Until(next), stop) {
			break
		}
	}
	return r
}

// once is one login of l, its latencies added to r if it succeeded.
func (l Legit) once(dial Dial, r *Result) error {
	start := time.Now()
	p, err := DialPeer(dial, l.From)
	if err != nil {
		return err
	}
	defer p.NC.Close()
	time.Sleep(l.Think)
	if !l.Probe {
		start = time.Now()
	}
	if err := p.Login(l.User, l.Password); err != nil {
		return err
	}
	lat, sent := time.Since(start), time.Now()
	if err := p.Do(p.C.Ping(nil)); err != nil {
		return err
	}
	ping := time.Since(sent)
	if l.Probe {
		if err := p.Do(p.C.Logout(nil)); err != nil {
			return err
		}
	}
	r.Lat, r.Ping = append(r.Lat, lat), append(r.Ping, ping)
	return nil
}

// LogoutChurn is lock-out 1: conns connections from the addresses from
// log in as user, log out, stay logged out loggedOut (in the pre-login
// line), and again, dialling anew when the server closes them, until stop.
func LogoutChurn(dial Dial, from []net.IP, conns int, user, password string, loggedOut time.Duration, stop <-chan struct{}) (cycles, dials int64) {
	var c, d atomic.Int64
	Peers(dial, from, conns, time.Millisecond, stop, func(p Peer, stop <-chan struct{}) bool {
		d.Add(1)
		// Each login with a client of its own, on the same connection.
		for Pause(0, stop) {
			q, err := DialPeer(func(net.IP) (net.Conn, error) { return p.NC, nil }, nil)
			if err != nil || q.Login(user, password) != nil || q.Do(q.C.Logout(nil)) != nil {
				break
			}
			c.Add(1)
			Pause(loggedOut, stop)
		}
		return true
	})
	return c.Load(), d.Load()
}

// Hold is n connections from one address, one after the other, each
// doing f on its peer: those f lets through are held open for the caller
// to close, the others closed and counted as refused.
func Hold(dial Dial, from net.IP, n int, f func(p Peer) error) (held []net.Conn, refused int) {
	for range n {
		p, err := DialPeer(dial, from)
		switch {
		case err != nil:
			refused++
		case f(p) != nil:
			_ = p.NC.Close()
			refused++
		default:
			held = append(held, p.NC)
		}
	}
	return held, refused
}

// HoldSessions is lock-out 3: n connections from one address log in as
// user, those let in holding their session until the caller closes them.
func HoldSessions(dial Dial, from net.IP, user, password string, n int) (held []net.Conn, refused int) {
	return Hold(dial, from, n, func(p Peer) error { return p.Login(user, password) })
}

// PingFlood is cost 4: conns connections from the addresses, never logged
// in, send pings with body-byte bodies flat out, reading the answers,
// dialling anew when closed, until stop. It returns the bytes sent.
func PingFlood(dial Dial, from []net.IP, conns, body int, stop <-chan struct{}) int64 {
	var sent atomic.Int64
	Peers(dial, from, conns, 0, stop, func(p Peer, stop <-chan struct{}) bool {
		frame, err := p.C.Ping(nil)
		if err == nil {
			frame, err = padded(frame, make([]byte, body))
		}
		for err == nil && Pause(0, stop) {
			_ = p.NC.SetDeadline(time.Now().Add(ioTimeout))
			if _, err = p.NC.Write(frame); err == nil {
				sent.Add(int64(len(frame)))
				_, err = codec.ReadFrame(p.NC, nil, codec.MaxFrameSize)
			}
		}
		return true
	})
	return sent.Load()
}

// padded is a request frame with body in place of its own, its size and
// checksums set anew.
func padded(frame, body []byte) ([]byte, error) {
	h, err := codec.DecodeRequestHeader(frame)
	if err != nil {
		return nil, err
	}
	return codec.AppendRequestFrame(nil, h, body)
}

// ResetStorm is cost 5, and lock-out 2 with one worker and every > 0: n
// connections, the i-th from from(i), opened and reset at once, workers at
// a time, the i-th no sooner than i times every after the start (the first
// ones spend an address's accept burst), until stop. It returns how many
// were opened.
func ResetStorm(dial Dial, from func(i int) net.IP, n, workers int, every time.Duration, stop <-chan struct{}) int64 {
	var next, opened atomic.Int64
	start := time.Now()
	Each(workers, func(int) {
		for i := next.Add(1) - 1; i < int64(n); i = next.Add(1) - 1 {
			if !Pause(time.Until(start.Add(time.Duration(i)*every)), stop) {
				return
			}
			if nc, err := dial(from(int(i))); err == nil {
				if tc, ok := nc.(*net.TCPConn); ok {
					_ = tc.SetLinger(0) // closes with a reset, as a peer that aborts does
				}
				_ = nc.Close()
				opened.Add(1)
			}
		}
	})
	return opened.Load()
}

// Guess is the guessing attack: perAddr peers from each address of from
// log in as user with a wrong password, each guess on a connection of its
// own, until stop, or until tries guesses in all if tries > 0. It returns
// the guesses made and how many were refused as a wrong password.
func Guess(dial Dial, from []net.IP, perAddr, tries int, user string, stop <-chan struct{}) (guesses, refused int64) {
	var left, g, r atomic.Int64
	left.Store(int64(tries))
	Peers(dial, from, perAddr*len(from), 0, stop, func(p Peer, _ <-chan struct{}) bool {
		if tries > 0 && left.Add(-1) < 0 {
			return false
		}
		if errors.Is(p.Login(user, "wrong"), codec.StatusInvalidCredentials.Err()) {
			r.Add(1)
		}
		g.Add(1)
		return true
	})
	return g.Load(), r.Load()
}

// LoginFrame is c's login as user, its frame exactly size bytes: a context
// pads it.
func LoginFrame(c *lifecycle.Client, user, password string, size int) ([]byte, error) {
	small, err := c.Login(nil, []byte(user), codec.NewSecret([]byte(password)))
	if err != nil {
		return nil, err
	}
	l, err := codec.ParseLoginRegister(small[codec.HeaderSize:])
	if err != nil {
		return nil, err
	}
	l.Context = bytes.Repeat([]byte("c"), size-len(small))
	body, err := l.AppendBinary(nil)
	if err != nil {
		return nil, err
	}
	return padded(small, body)
}

// LargeFrames is n connections from the addresses of from (any if none),
// dialled first, that then each send a login as user whose frame is size
// bytes, all at once, and read its answer. It returns the connections, left open for
// the caller to close, how many frames were answered and the time from
// the first frame sent to the last answer.
func LargeFrames(dial Dial, from []net.IP, n, size int, user, password string) ([]net.Conn, int, time.Duration, error) {
	peers, conns := make([]Peer, n), make([]net.Conn, 0, n)
	for i := range peers {
		p, err := DialPeer(dial, at(from, i))
		if err != nil {
			return conns, 0, 0, err
		}
		peers[i], conns = p, append(conns, p.NC)
	}
	var answered atomic.Int64
	start := time.Now()
	Each(n, func(i int) {
		if peers[i].Do(LoginFrame(peers[i].C, user, password, size)) == nil {
			answered.Add(1)
		}
	})
	return conns, int(answered.Load()), time.Since(start), nil
}

// Stall is n connections from one address that each send the header of
// a login frame of size bytes and stall: its body never comes. It returns
// the connections, for the caller to close, and how many failed.
func Stall(dial Dial, from net.IP, n, size int) ([]net.Conn, int) {
	return Hold(dial, from, n, func(p Peer) error {
		frame, err := LoginFrame(p.C, "iggy", "iggy", size)
		if err == nil {
			_, err = p.NC.Write(frame[:codec.HeaderSize])
		}
		return err
	})
}
