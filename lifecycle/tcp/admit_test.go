package tcp_test

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"

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
