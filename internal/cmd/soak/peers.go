package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"net"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
	"github.com/iggywire/iggywire/lifecycle"
)

// ioTimeout bounds every single read or write of a peer or probe.
const ioTimeout = 10 * time.Second

// reconnectPause is about how long a hostile peer the server closed waits
// before it connects again (0.5 to 1.5 times it): persistent, without
// flooding the accept queue.
const reconnectPause = time.Second

// client is one connection with its lifecycle.Client.
type client = attack.Peer

// attackBuffer is the kernel buffer, each way, of an attacker's socket.
// Attacker and server share the machine's kernel here, and the soak
// measures the server's share of it: a remote attacker's own buffers
// would be on its machine, so they are kept small.
const attackBuffer = 16 << 10

// attackDialer dials from the loopback address local (nil: any) with
// small buffers.
func attackDialer(local net.IP, timeout time.Duration) *net.Dialer {
	d := &net.Dialer{Timeout: timeout, Control: func(_, _ string, c syscall.RawConn) error {
		return c.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, attackBuffer)
			_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_SNDBUF, attackBuffer)
		})
	}}
	if local != nil {
		d.LocalAddr = &net.TCPAddr{IP: local}
	}
	return d
}

// dial connects an attacker to addr from local (nil: any).
func dial(addr string, local net.IP) (*client, error) {
	return dialWith(attackDialer(local, ioTimeout), addr)
}

// dialClient connects a legitimate client, with the system's buffers.
func dialClient(addr string, local net.IP) (*client, error) {
	return dialWith(&net.Dialer{Timeout: ioTimeout, LocalAddr: &net.TCPAddr{IP: local}}, addr)
}

func dialWith(d *net.Dialer, addr string) (*client, error) {
	nc, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "soak", SDKVersion: "0.1.0"})
	if err != nil {
		_ = nc.Close()
		return nil, err
	}
	return &client{NC: nc, C: c}, nil
}

// crowd is a set of hostile peers, each running its behaviour in a loop
// (reconnecting after reconnectPause) until stopped.
type crowd struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

// behaviour runs one connection until it fails or stop is closed.
type behaviour func(c *client, stop <-chan struct{})

func startCrowd(addr string, n int, b behaviour) *crowd {
	cr := &crowd{stop: make(chan struct{})}
	for range n {
		cr.wg.Add(1)
		go func() {
			defer cr.wg.Done()
			for {
				if c, err := dial(addr, nil); err == nil {
					closeOnStop(c, cr.stop, func() { b(c, cr.stop) })
				}
				// Jittered, so that the peers do not reconnect in waves.
				if !attack.Pause(reconnectPause/2+rand.N(reconnectPause), cr.stop) {
					return
				}
			}
		}()
	}
	return cr
}

// closeOnStop runs f, closing c when f returns or stop is closed.
func closeOnStop(c *client, stop <-chan struct{}, f func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-stop:
		case <-done:
		}
		_ = c.NC.Close()
	}()
	f()
	close(done)
}

func (cr *crowd) end() {
	close(cr.stop)
	cr.wg.Wait()
}

// idle says nothing and waits for the server to close the connection.
func idle(c *client, _ <-chan struct{}) {
	_ = c.NC.SetReadDeadline(time.Time{})
	_, _ = c.NC.Read(make([]byte, 1))
}

// drip sends a ping frame one byte per second.
func drip(c *client, stop <-chan struct{}) {
	frame, err := c.C.Ping(nil)
	if err != nil {
		return
	}
	for _, b := range frame {
		if _, err := c.NC.Write([]byte{b}); err != nil || !attack.Pause(time.Second, stop) {
			return
		}
	}
}

// pingEvery pings every d, after logging in if login is set.
func pingEvery(d time.Duration, login bool) behaviour {
	return func(c *client, stop <-chan struct{}) {
		if login && c.Login("iggy", "iggy") != nil {
			return
		}
		for c.Do(c.C.Ping(nil)) == nil && attack.Pause(d, stop) {
		}
	}
}

// probeResult is the login and ping latency of a probe client.
type probeResult struct {
	lat      []time.Duration // from dial to the login's reply
	ping     []time.Duration // of the ping after each login
	fails    int
	firstErr string
}

func (p probeResult) pct(q float64) time.Duration { return percentile(p.lat, q) }

func (p probeResult) pingPct(q float64) time.Duration { return percentile(p.ping, q) }

// percentile of durations, nearest rank; 0 for none.
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// probeEach logs in as user (password = name) from a fresh connection
// from local every interval until stop, then pings and logs out, and
// reports each: the login's latency from dial to login reply, the ping's
// from its write to its answer; a failure of any of the three counts.
func probeEach(addr string, local net.IP, user string, interval time.Duration, stop <-chan struct{}, report func(login, ping time.Duration, err error)) {
	for {
		start := time.Now()
		var lat, pingLat time.Duration
		c, err := dialClient(addr, local)
		if err == nil {
			err = c.Login(user, user)
			lat = time.Since(start)
			if err == nil {
				sent := time.Now()
				err = c.Do(c.C.Ping(nil))
				pingLat = time.Since(sent)
			}
			if err == nil {
				err = c.Do(c.C.Logout(nil))
			}
			_ = c.NC.Close()
		}
		report(lat, pingLat, err)
		if !attack.Pause(max(0, interval-time.Since(start)), stop) {
			return
		}
	}
}

// paddedLogin is the body of a valid login whose frame is exactly size
// bytes: a context pads it.
func paddedLogin(size int) ([]byte, error) {
	l := codec.LoginRegister{Info: codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0),
		SDKName: []byte("soak"), SDKVersion: []byte("0.1.0")}, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	pad := size - codec.HeaderSize - l.EncodedLen()
	if pad < 0 {
		return nil, errors.New("frame too small for a login")
	}
	l.Context = bytes.Repeat([]byte("c"), pad)
	return l.AppendBinary(nil)
}

// sendLogin sends the header of the login c would build, with body in
// place of its own, and reads the answer.
func sendLogin(c *client, body []byte) error {
	small, err := c.C.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	if err != nil {
		return err
	}
	h, err := codec.DecodeRequestHeader(small)
	if err != nil {
		return err
	}
	h.Size = uint32(codec.HeaderSize + len(body))
	hdr, err := h.AppendBinary(nil)
	if err != nil {
		return err
	}
	return c.Do(append(hdr, body...), nil)
}

// spawn runs f on a goroutine that wg waits for.
func spawn(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		f()
	}()
}
