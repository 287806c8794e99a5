package tcp_test

import (
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestHostilePreLoginChurnSparesLoggedIn churns connections that never log
// in against a tiny MaxPreLogin while clients log in, ping and leave over
// and over, on real sockets: the pre-login cap closes many connections,
// and not one of them logged in.
func TestHostilePreLoginChurnSparesLoggedIn(t *testing.T) {
	const loggers, churners, rounds = 4, 2, 100
	var capped, cappedLoggedIn, ok atomic.Int64
	obs := tcp.Observer{
		Closed: func(_ tcp.ConnInfo, how tcp.Closing) {
			if how.Cause == tcp.CausePreLoginCap {
				capped.Add(1)
				if how.LoggedIn || how.Logins > 0 {
					cappedLoggedIn.Add(1)
				}
			}
		},
		Login: func(_ tcp.ConnInfo, l lifecycle.Login) {
			if l.OK {
				ok.Add(1)
			}
		},
	}
	l := startListener(t, tcp.ServeOptions{MaxPreLogin: 4, AcceptBurst: -1, MaxConnsPerAddr: -1, MaxSessionsPerUser: -1, Observer: obs})
	stop := make(chan struct{})
	var churn sync.WaitGroup
	for i := range churners {
		churn.Add(1)
		go func() {
			defer churn.Done()
			d := net.Dialer{Timeout: testTimeout, LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(2+i))}}
			for {
				select {
				case <-stop:
					return
				default:
				}
				if nc, err := d.Dial("tcp", l.Addr().String()); err == nil {
					_ = nc.Close()
				}
			}
		}()
	}
	var logging sync.WaitGroup
	for range loggers {
		logging.Add(1)
		go func() {
			defer logging.Done()
			for range rounds {
				nc, err := net.DialTimeout("tcp", l.Addr().String(), testTimeout)
				if err != nil {
					continue
				}
				c := lifecycletest.NewClient(t)
				frame, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
				if err == nil && exchange(nc, c, frame, nil) == nil {
					_ = ping(nc, c)
				}
				_ = nc.Close()
			}
		}()
	}
	logging.Wait()
	close(stop)
	churn.Wait()
	t.Logf("%d logins, %d connections closed by the pre-login cap", ok.Load(), capped.Load())
	if capped.Load() == 0 || ok.Load() == 0 {
		t.Fatalf("the churn did not reach the cap (%d closed by it) or nobody logged in (%d)", capped.Load(), ok.Load())
	}
	if n := cappedLoggedIn.Load(); n != 0 {
		t.Fatalf("%d logged-in connections closed by the pre-login cap, want 0", n)
	}
}

// TestListenerAcceptRateResets: over its accept budget, a connection is
// served on probation while its address has fewer than TrialSlots on it;
// past that it is reset by the kernel as soon as it is accepted (no
// answer, no TIME_WAIT left on the server), while a connection from
// another address is served.
func TestListenerAcceptRateResets(t *testing.T) {
	var limited atomic.Int64
	obs := tcp.Observer{Limited: func(_ tcp.ConnInfo, l tcp.Limit) {
		if l == tcp.LimitAcceptRate {
			limited.Add(1)
		}
	}}
	l := startListener(t, tcp.ServeOptions{AcceptBurst: 1, AcceptRate: 0.001, Observer: obs})
	from := func(ip net.IP) (*wire, error) {
		d := net.Dialer{Timeout: testTimeout, LocalAddr: &net.TCPAddr{IP: ip}}
		nc, err := d.Dial("tcp", l.Addr().String())
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { _ = nc.Close() })
		if err := nc.SetDeadline(time.Now().Add(testTimeout)); err != nil {
			t.Fatalf("SetDeadline: %v", err)
		}
		return &wire{t: t, nc: nc, c: lifecycletest.NewClient(t)}, nil
	}
	served := func(ip net.IP, what string) {
		t.Helper()
		w, err := from(ip)
		if err == nil {
			err = ping(w.nc, w.c)
		}
		if err != nil {
			t.Fatalf("%s is served: %v", what, err)
		}
	}
	served(net.IPv4(127, 0, 0, 2), "the burst's connection")
	for range tcp.TrialSlots {
		served(net.IPv4(127, 0, 0, 2), "a connection on probation")
	}
	// The reset may come before the connect returns, or on the first read.
	over, err := from(net.IPv4(127, 0, 0, 2))
	if err == nil {
		_, err = over.nc.Read(make([]byte, 1))
	}
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("over the accept budget: %v, want %v", err, syscall.ECONNRESET)
	}
	served(net.IPv4(127, 0, 0, 3), "another address")
	if n := limited.Load(); n != 1 {
		t.Fatalf("Limited(accept-rate) called %d times, want 1", n)
	}
}

// TestListenerRefusedLoginAnswered: over TCP, a login on a connection
// refused at MaxConns reads the transient result 58 (TransientNotAccepted),
// then the end of the connection (not a reset: the login's body was read
// before the answer).
func TestListenerRefusedLoginAnswered(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxConns: 1})
	held := dial(t, l.Addr(), lifecycletest.NewClient(t))
	if _, err := held.login(); err != nil {
		t.Fatalf("login: %v", err)
	}
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	frame, err := w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	if _, err := w.nc.Write(frame); err != nil {
		t.Fatalf("Write: %v", err)
	}
	answer, err := io.ReadAll(w.nc)
	if err != nil {
		t.Fatalf("reading to the end: %v", err)
	}
	if err := wantTransientRefusal(w.c, answer); err != nil {
		t.Fatalf("read to the end: %v", err)
	}
}
