//go:build go1.25

package tcp_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// The admission tests about time or ordering (quotas, the reserve, the
// answer at a cap, the accept rate, the pre-login cap's race) run in a
// synctest bubble over net.Pipe, as synctest_test.go's do.

// quotaAuth has the test server's iggy and more active accounts, so that
// one account can fill its quota while others log in.
var quotaAuth = lifecycle.StaticAuth{Users: []lifecycle.User{
	{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
	{ID: 7, Name: "mallory", Password: codec.NewSecret([]byte("mallory"))},
	{ID: 8, Name: "alice", Password: codec.NewSecret([]byte("alice"))},
}}

func quotaServer(t *testing.T) *lifecycle.Server {
	t.Helper()
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: quotaAuth})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	return srv
}

// startQuotaArena is startPipeArena over quotaServer; call it in a
// bubble.
func startQuotaArena(t *testing.T, opts tcp.ServeOptions) *arena {
	t.Helper()
	return startPipeArena(t, quotaServer(t), opts)
}

// loginAs logs w in as name (whose password is its name) and returns the
// answer frame and what the client made of it.
func (w *wire) loginAs(name string) ([]byte, error) {
	w.t.Helper()
	frame, err := w.c.Login(nil, []byte(name), codec.NewSecret([]byte(name)))
	if err != nil {
		w.t.Fatalf("Login: %v", err)
	}
	return w.exchange(frame)
}

// wantTransientRefusal checks that answer, read to the end of a refused
// connection, is a single login reply with the transient result 58,
// which c reads as such.
func wantTransientRefusal(c *lifecycle.Client, answer []byte) error {
	size, err := codec.FrameSize(answer)
	if err != nil {
		return err
	}
	if size != len(answer) {
		return fmt.Errorf("%d bytes, want one frame of %d", len(answer), size)
	}
	var te *lifecycle.TransientError
	if _, err := c.Receive(answer); !errors.As(err, &te) || te.Status != codec.StatusTransientNotAccepted {
		return fmt.Errorf("the client reads %v, want the transient result 58 (TransientNotAccepted)", err)
	}
	return nil
}

// wantRefusedAsWrong requires answer to be the Eviction 9 a wrong password
// gets, to w's client, and the connection to be closed after it: what a
// login refused at a quota gets, so that the refusal says nothing of the
// password.
func (w *wire) wantRefusedAsWrong(answer []byte, err error, what string) {
	w.t.Helper()
	if want := lifecycletest.EvictionFrame(w.t, w.c.ID(), codec.ReasonInvalidCredentials); !bytes.Equal(answer, want) {
		w.t.Fatalf("%s: answer =\n%x (%v)\nwant Eviction 9 (InvalidCredentials)\n%x", what, answer, err, want)
	}
	if !w.closedByServer() {
		w.t.Fatalf("%s: the connection stays open after the eviction", what)
	}
}

// TestListenerAccountQuota: an account logs in at most MaxSessionsPerUser
// times at once; the next login is refused as a wrong password is, and
// counted; a
// logout gives its place back; a new login of the same account on a
// connection already logged in as it is not counted twice; another
// account is not affected.
func TestListenerAccountQuota(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const quota = 3
		a := startQuotaArena(t, tcp.ServeOptions{MaxSessionsPerUser: quota})
		var held []*wire
		for i := range quota {
			w := a.wire(nil)
			if _, err := w.loginAs("mallory"); err != nil {
				t.Fatalf("login %d of %d: %v", i+1, quota, err)
			}
			held = append(held, w)
		}
		over := a.wire(nil)
		answer, err := over.loginAs("mallory")
		over.wantRefusedAsWrong(answer, err, "a login over the account's quota")
		if n := a.rec.limitedBy(tcp.LimitAccount); n != 1 {
			t.Fatalf("Limited(account) called %d times, want 1", n)
		}
		if _, err := held[0].loginAs("mallory"); err != nil {
			t.Fatalf("a new login of the same account on a logged-in connection: %v", err)
		}
		if _, err := a.wire(nil).loginAs("alice"); err != nil {
			t.Fatalf("another account logs in beside the full one: %v", err)
		}
		if _, err := held[1].do(held[1].c.Logout(nil)); err != nil {
			t.Fatalf("Logout: %v", err)
		}
		if _, err := a.wire(nil).loginAs("mallory"); err != nil {
			t.Fatalf("a logout gives its place back: login: %v", err)
		}
		over = a.wire(nil)
		answer, err = over.loginAs("mallory")
		over.wantRefusedAsWrong(answer, err, "full again")
		if _, loggedIn := a.l.Conns(); loggedIn != quota+1 {
			t.Fatalf("Conns() logged in = %d, want %d", loggedIn, quota+1)
		}
		a.checkBaseline()
	})
}

// TestListenerReserve: once MaxConns-ReservedConns connections are logged
// in, only an account without a session may log in, one session each.
func TestListenerReserve(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const conns, reserved = 8, 3
		a := startQuotaArena(t, tcp.ServeOptions{MaxConns: conns, ReservedConns: reserved, MaxSessionsPerUser: -1, MaxConnsPerAddr: -1})
		for i := range conns - reserved {
			if _, err := a.wire(nil).loginAs("mallory"); err != nil {
				t.Fatalf("login %d: %v", i+1, err)
			}
		}
		w := a.wire(nil)
		answer, err := w.loginAs("mallory")
		w.wantRefusedAsWrong(answer, err, "an account with sessions, into the reserve")
		if n := a.rec.limitedBy(tcp.LimitReserve); n != 1 {
			t.Fatalf("Limited(reserve) called %d times, want 1", n)
		}
		if _, err := a.wire(nil).loginAs("alice"); err != nil {
			t.Fatalf("an account without a session logs in into the reserve: %v", err)
		}
		w = a.wire(nil)
		answer, err = w.loginAs("alice")
		w.wantRefusedAsWrong(answer, err, "its second session")
		a.probe(nil) // iggy, the third account
		a.checkBaseline()
	})
}

// TestQuotaNoOracle: at an account's session quota the right password and
// a wrong one get the same answer, the same Observer calls and the same
// charge on the throttle, whether the quota is known before the check (a
// name seen log in) or only after it (sessions held through tokens), and
// so do the right token and a wrong one.
func TestQuotaNoOracle(t *testing.T) {
	auth := lifecycle.StaticAuth{Users: quotaAuth.Users, Tokens: []lifecycle.Token{{Value: codec.NewSecret([]byte("mallory-token")), User: "mallory"}}}
	type seen struct {
		reason  codec.EvictionReason
		logins  map[string]int
		limited map[tcp.Limit]int
		checks  int // credential checks the throttle let run after it
	}
	try := func(t *testing.T, learned bool, login func(w *wire) ([]byte, error)) seen {
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: lifecycletest.Window, Version: lifecycletest.ServerVersion, Auth: auth})
		if err != nil {
			t.Fatalf("NewServer: %v", err)
		}
		a := startPipeArena(t, srv, tcp.ServeOptions{MaxSessionsPerUser: 1, LoginBurst: 4, LoginRate: 0.001, AccountLoginBurst: -1})
		holder := a.wire(nil)
		if learned {
			if _, err := holder.loginAs("mallory"); err != nil {
				t.Fatalf("the session that fills the quota: %v", err)
			}
		} else if _, err := holder.loginToken("mallory-token"); err != nil {
			t.Fatalf("the session that fills the quota, by token: %v", err)
		}
		logins, limited := a.rec.snapshot()
		w := a.wire(nil)
		answer, _ := login(w)
		ev, err := codec.DecodeEviction(answer)
		if err != nil {
			t.Fatalf("the login at the quota is answered %x, want an eviction: %v", answer, err)
		}
		synctest.Wait()
		loginsAfter, limitedAfter := a.rec.snapshot()
		checks := 0
		for ; checks < 10; checks++ {
			throttled := a.rec.loginsBy("Throttled")
			_, _ = a.wire(nil).loginWith("alice", "wrong")
			synctest.Wait()
			if a.rec.loginsBy("Throttled") > throttled {
				break
			}
		}
		return seen{ev.Reason, since(logins, loginsAfter), since(limited, limitedAfter), checks}
	}
	same := func(t *testing.T, what string, right, wrong seen) {
		t.Helper()
		if right.reason != wrong.reason || !maps.Equal(right.logins, wrong.logins) || !maps.Equal(right.limited, wrong.limited) || right.checks != wrong.checks {
			t.Fatalf("%s: the right credential gets %+v, a wrong one %+v", what, right, wrong)
		}
	}
	for _, learned := range []bool{true, false} {
		synctest.Test(t, func(t *testing.T) {
			right := try(t, learned, func(w *wire) ([]byte, error) { return w.loginAs("mallory") })
			wrong := try(t, learned, func(w *wire) ([]byte, error) { return w.loginWith("mallory", "mallorx") })
			same(t, fmt.Sprintf("password, quota known before the check %t", learned), right, wrong)
			if right.reason != codec.ReasonInvalidCredentials {
				t.Fatalf("refused with %v, want InvalidCredentials", right.reason)
			}
			if learned && right.limited[tcp.LimitAccount] != 1 {
				t.Fatalf("a refusal decided before the check is reported as Limited: %v", right.limited)
			}
			if !learned && len(right.limited) != 0 {
				t.Fatalf("a refusal after a passed check is not told apart as Limited: %v", right.limited)
			}
		})
	}
	synctest.Test(t, func(t *testing.T) {
		right := try(t, true, func(w *wire) ([]byte, error) { return w.loginToken("mallory-token") })
		wrong := try(t, true, func(w *wire) ([]byte, error) { return w.loginToken("mallory-tokem") })
		same(t, "token", right, wrong)
	})
}

// loginWith logs w in as name with password.
func (w *wire) loginWith(name, password string) ([]byte, error) {
	w.t.Helper()
	frame, err := w.c.Login(nil, []byte(name), codec.NewSecret([]byte(password)))
	if err != nil {
		w.t.Fatalf("Login: %v", err)
	}
	return w.exchange(frame)
}

// loginToken logs w in with a personal access token.
func (w *wire) loginToken(token string) ([]byte, error) {
	w.t.Helper()
	frame, err := w.c.LoginPAT(nil, codec.NewSecret([]byte(token)))
	if err != nil {
		w.t.Fatalf("LoginPAT: %v", err)
	}
	return w.exchange(frame)
}

// exchange writes frame and reads the answer.
func (w *wire) exchange(frame []byte) ([]byte, error) {
	if _, err := w.nc.Write(frame); err != nil {
		return nil, err
	}
	answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	if err != nil {
		return nil, err
	}
	_, err = w.c.Receive(answer)
	return answer, err
}

// snapshot copies the logins and limits r has seen.
func (r *recorder) snapshot() (map[string]int, map[tcp.Limit]int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.logins), maps.Clone(r.limited)
}

// since is what after counts beyond before.
func since[K comparable](before, after map[K]int) map[K]int {
	d := map[K]int{}
	for k, n := range after {
		if n != before[k] {
			d[k] = n - before[k]
		}
	}
	return d
}

// TestHostileOneAccountHoldsAll is the short form of one account logging
// in the whole budget from many addresses and holding it: it gets its
// quota, every other login of it is evicted with 12, and another
// account's newcomer still logs in.
func TestHostileOneAccountHoldsAll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const maxConns, addrs = 64, 8
		quota := maxConns / 8 // the default share
		a := startQuotaArena(t, tcp.ServeOptions{MaxConns: maxConns})
		held := 0
		for i := range maxConns {
			w := a.wire(net.IPv4(127, 0, 1, byte(1+i%addrs)))
			if _, err := w.loginAs("mallory"); err == nil {
				held++
				continue
			}
			_ = w.nc.Close()
		}
		if held != quota {
			t.Fatalf("one account holds %d sessions, want its quota %d", held, quota)
		}
		if n := a.rec.limitedBy(tcp.LimitAccount); n != maxConns-quota {
			t.Fatalf("logins over the quota counted %d, want %d", n, maxConns-quota)
		}
		synctest.Wait() // the evicted connections' ends are seen
		for i := range 4 {
			a.probe(net.IPv4(127, 0, 2, byte(1+i)))
		}
		a.checkBaseline()
	})
}

// TestListenerRefusedAnswered: a connection refused at MaxConns or at
// MaxConnsPerAddr gets the transient result 58 to a login (try again, here
// later or elsewhere: not a failed login) and Eviction 12 to any other
// first request; one that sends nothing is closed after a second.
func TestListenerRefusedAnswered(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startQuotaArena(t, tcp.ServeOptions{MaxConns: 3, MaxConnsPerAddr: 1, MaxSessionsPerUser: -1, ReservedConns: -1})
		first := net.IPv4(127, 0, 0, 2)
		if _, err := a.wire(first).loginAs("iggy"); err != nil {
			t.Fatalf("login: %v", err)
		}
		w := a.wire(first)
		frame, err := w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		if err != nil {
			t.Fatalf("Login: %v", err)
		}
		if _, err := w.nc.Write(frame); err != nil {
			t.Fatalf("Write: %v", err)
		}
		answer, _ := io.ReadAll(w.nc)
		if err := wantTransientRefusal(w.c, answer); err != nil {
			t.Fatalf("a login over the address's quota: %v", err)
		}
		if n := a.rec.limitedBy(tcp.LimitAddress); n != 1 {
			t.Fatalf("Limited(address) called %d times, want 1", n)
		}
		for i := range 2 {
			if _, err := a.wire(net.IPv4(127, 0, 0, byte(3+i))).loginAs("alice"); err != nil {
				t.Fatalf("another address: login: %v", err)
			}
		}
		w = a.wire(net.IPv4(127, 0, 0, 9))
		if err := ping(w.nc, w.c); !errors.Is(err, codec.StatusUnauthenticated.Err()) {
			t.Fatalf("a ping at MaxConns: %v, want eviction 12 (%v)", err, codec.StatusUnauthenticated.Err())
		}
		silent := a.wire(net.IPv4(127, 0, 0, 10))
		start := time.Now()
		if _, err := silent.nc.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
			t.Fatalf("a silent refused connection reads %v, want EOF", err)
		}
		if d := time.Since(start); d != time.Second {
			t.Fatalf("a silent refused connection closed after %v, want 1s", d)
		}
		if n := a.rec.limitedBy(tcp.LimitConns); n != 2 {
			t.Fatalf("Limited(conns) called %d times, want 2", n)
		}
		a.checkBaseline()
	})
}

// TestHostileAcceptChurn is the short form of connect/reset churn from
// an address a legitimate client shares (issue 36, lock-out 2; the soak's
// "shared-address"): the churn spends the address's AcceptBurst, then
// every connection over it is served on probation, and as each is reset
// at once none keeps a slot, so the client there logs in every time. An address
// that holds TrialSlots connections open on probation gets the next one
// reset at accept (no Opened), and the held ones are closed TrialTimeout
// after their accept. Connections that log in give their accept back.
func TestHostileAcceptChurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const burst, rate = 8, 4.0
		a := startQuotaArena(t, tcp.ServeOptions{AcceptBurst: burst, AcceptRate: rate, MaxPreLogin: 1000})
		shared := net.IPv4(127, 0, 3, 1)
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			// 200 a second, one after the other.
			attack.ResetStorm(a.dial, func(int) net.IP { return shared }, math.MaxInt, 1, 5*time.Millisecond, stop)
		}()
		legit := attack.Legit{From: shared, User: "alice", Password: "alice", Think: 100 * time.Millisecond, Every: 200 * time.Millisecond, Tries: 10}
		r := legit.Run(a.dial, nil)
		close(stop)
		<-done
		if r.Failed != 0 {
			t.Fatalf("a client on an address reset at 200/s: %d logins of %d failed (first: %v)", r.Failed, r.OK+r.Failed, r.FirstErr)
		}
		synctest.Wait()
		if n := a.rec.limitedBy(tcp.LimitAcceptRate); n != 0 {
			t.Fatalf("connections reset at once took the probation's slots: %d reset at accept", n)
		}
		held := make([]*wire, 0, tcp.TrialSlots)
		for range burst + tcp.TrialSlots {
			held = append(held, a.wire(net.IPv4(127, 0, 4, 1)))
		}
		start := time.Now()
		over, err := a.dial(net.IPv4(127, 0, 4, 1))
		if err != nil {
			t.Fatalf("Dial: %v", err)
		}
		if _, err := over.Read(make([]byte, 1)); err == nil {
			t.Fatalf("past the probation's slots a connection is served")
		}
		if n := a.rec.limitedBy(tcp.LimitAcceptRate); n != 1 {
			t.Fatalf("Limited(accept-rate) called %d times, want 1", n)
		}
		for _, w := range held[burst:] {
			if !w.closedByServer() {
				t.Fatalf("a held connection on probation was not closed")
			}
		}
		if d := time.Since(start); d != tcp.TrialTimeout {
			t.Fatalf("the connections on probation were closed after %v, want %v", d, tcp.TrialTimeout)
		}
		a.probe(net.IPv4(127, 0, 4, 9))
		// Logins give their accept back: many more than the burst get in.
		for i := range 3 * burst {
			w := a.wire(net.IPv4(127, 0, 4, 2))
			if _, err := w.loginAs("alice"); err != nil {
				t.Fatalf("login %d from an address that logs in: %v", i, err)
			}
			_ = w.nc.Close()
		}
		for _, w := range held[:burst] {
			_ = w.nc.Close()
		}
		a.checkBaseline()
	})
}

// TestListenerLoginLeavesPreLoginFirst: a connection whose login reply is
// still being written has left the pre-login line, so a newcomer at
// MaxPreLogin cannot close it as pre-login (it used to: the state changed
// only after the write).
func TestListenerLoginLeavesPreLoginFirst(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		closed := make(closings, 4)
		opts := tcp.ServeOptions{MaxPreLogin: 1, Observer: closed.observer()}
		_, a := startPipeListener(t, opts)
		w := a.wire(nil)
		frame, err := w.c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		if err != nil {
			t.Fatalf("Login: %v", err)
		}
		if _, err := w.nc.Write(frame); err != nil {
			t.Fatalf("Write: %v", err)
		}
		synctest.Wait() // the server is writing the reply, which nobody reads yet
		newcomer := a.wire(nil)
		synctest.Wait()
		answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
		if err != nil {
			t.Fatalf("the login reply: %v (closed: %+v)", err, drain(closed))
		}
		if _, err := w.c.Receive(answer); err != nil {
			t.Fatalf("Receive: %v", err)
		}
		if _, err := w.do(w.c.Ping(nil)); err != nil {
			t.Fatalf("the logged-in connection is served: %v", err)
		}
		if err := ping(newcomer.nc, newcomer.c); err != nil {
			t.Fatalf("the newcomer is served: %v", err)
		}
		if got := drain(closed); len(got) != 0 {
			t.Fatalf("closed meanwhile: %+v, want none", got)
		}
	})
}

// drain returns the closings told so far.
func drain(c closings) []tcp.Closing {
	var got []tcp.Closing
	for {
		select {
		case how := <-c:
			got = append(got, how)
		default:
			return got
		}
	}
}

// TestListenerFreesAfterDrop: once a crowd of connections has left, the
// Listener calls ReleaseMemory once, a second after the last of them
// left; a small crowd costs no call.
func TestListenerFreesAfterDrop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pl := newPipeListener()
		var frees atomic.Int64
		l := tcp.NewListener(pl, lifecycletest.NewServer(t), tcp.ServeOptions{MaxPreLogin: 4096, MaxConnsPerAddr: -1, AcceptBurst: -1,
			ReleaseMemory: func() { frees.Add(1) }})
		served := make(chan error, 1)
		go func() { served <- l.Serve(t.Context()) }()
		crowd := func(n int) (last time.Time) {
			ncs := make([]net.Conn, n)
			for i := range ncs {
				nc, err := pl.dial(nil)
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				ncs[i] = nc
			}
			synctest.Wait()
			if pre, _ := l.Conns(); pre != n {
				t.Fatalf("%d connections open, want %d", pre, n)
			}
			for _, nc := range ncs {
				time.Sleep(time.Millisecond) // they leave over a second or so
				_ = nc.Close()
			}
			synctest.Wait()
			return time.Now()
		}
		crowd(100)
		time.Sleep(2 * time.Second)
		if n := frees.Load(); n != 0 {
			t.Fatalf("after 100 connections left: %d hand-backs, want 0", n)
		}
		left := crowd(1500)
		time.Sleep(time.Until(left.Add(time.Second - time.Millisecond)))
		synctest.Wait()
		if n := frees.Load(); n != 0 {
			t.Fatalf("under a second after the last left: %d hand-backs, want 0", n)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if n := frees.Load(); n != 1 {
			t.Fatalf("a second after 1500 connections left: %d hand-backs, want 1", n)
		}
		if err := l.Shutdown(t.Context()); err != nil {
			t.Fatalf("Shutdown: %v", err)
		}
		if err := <-served; err != nil {
			t.Fatalf("Serve: %v", err)
		}
	})
}

// TestListenerAddrQuotaIPv6: MaxConnsPerAddr counts an IPv6 peer by its
// /64, as the login throttle does.
func TestListenerAddrQuotaIPv6(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startQuotaArena(t, tcp.ServeOptions{MaxConnsPerAddr: 1})
		if err := ping(a.wire(net.ParseIP("2001:db8::1")).nc, lifecycletest.NewClient(t)); err != nil {
			t.Fatalf("the first of its /64: %v", err)
		}
		w := a.wire(net.ParseIP("2001:db8::ffff:2"))
		if err := ping(w.nc, w.c); !errors.Is(err, codec.StatusUnauthenticated.Err()) {
			t.Fatalf("another address of the same /64: %v, want eviction 12 (%v)", err, codec.StatusUnauthenticated.Err())
		}
		w = a.wire(net.ParseIP("2001:db8:0:1::1"))
		if err := ping(w.nc, w.c); err != nil {
			t.Fatalf("another /64: %v", err)
		}
		if n := a.rec.limitedBy(tcp.LimitAddress); n != 1 {
			t.Fatalf("Limited(address) called %d times, want 1", n)
		}
		a.checkBaseline()
	})
}

// TestHostileLogoutChurn is the short form of one account's login/logout
// churn (issue 36, lock-out 1; the soak's "logout-churn"): 16 connections
// from 2 addresses log in as mallory, log out, stay logged out 5 ms, and
// again, dialling anew when the server closes them, against a pre-login
// line of 8 and an accept budget of 2 and 2/s per address. A connection
// that logs out goes to the front of the line, or is closed when the line
// is full or its address has no token left; dialling anew costs a token.
// So once the churn has spent its burst, a client that connects, thinks
// 100 ms and logs in gets in every one of 10 times.
func TestHostileLogoutChurn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startQuotaArena(t, tcp.ServeOptions{MaxPreLogin: 8, MaxSessionsPerUser: -1, MaxSessionsPerUserAddr: -1,
			AcceptBurst: 2, AcceptRate: 2})
		stop, done := make(chan struct{}), make(chan struct{})
		defer func() { close(stop); <-done }()
		go func() {
			defer close(done)
			attack.LogoutChurn(a.dial, []net.IP{net.IPv4(127, 0, 5, 1), net.IPv4(127, 0, 5, 2)}, 16, "mallory", "mallory", 5*time.Millisecond, stop)
		}()
		time.Sleep(time.Second)
		legit := attack.Legit{From: net.IPv4(127, 0, 6, 1), User: "alice", Password: "alice", Think: 100 * time.Millisecond, Every: 200 * time.Millisecond, Tries: 10}
		if r := legit.Run(a.dial, nil); r.Failed != 0 {
			t.Fatalf("a client thinking 100 ms during the churn: %d logins of %d failed (first: %v)", r.Failed, r.OK+r.Failed, r.FirstErr)
		}
	})
}

// TestHostileOneAccountFillsAddress is the short form of one account
// filling an address others share (issue 36, lock-out 3; the soak's
// "account-address"): mallory logs in all it can from one address and
// holds MaxSessionsPerUserAddr, each further login refused
// (LimitUserAddress) as a wrong password is; alice, on the same address,
// logs in every time.
func TestHostileOneAccountFillsAddress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const perAddr, perUser = 32, 8
		a := startQuotaArena(t, tcp.ServeOptions{MaxConnsPerAddr: perAddr, MaxSessionsPerUserAddr: perUser, MaxSessionsPerUser: -1})
		shared := net.IPv4(127, 0, 7, 1)
		held, refused := attack.HoldSessions(a.dial, shared, "mallory", "mallory", perAddr)
		if len(held) != perUser || refused != perAddr-perUser {
			t.Fatalf("one account holds %d sessions from the address (%d refused), want %d", len(held), refused, perUser)
		}
		if n := a.rec.limitedBy(tcp.LimitUserAddress); n != perAddr-perUser {
			t.Fatalf("Limited(user-address) called %d times, want %d", n, perAddr-perUser)
		}
		synctest.Wait() // the refused connections' ends are seen
		legit := attack.Legit{From: shared, User: "alice", Password: "alice", Think: 100 * time.Millisecond, Every: 200 * time.Millisecond, Tries: 10}
		if r := legit.Run(a.dial, nil); r.Failed != 0 {
			t.Fatalf("another account on the shared address: %d logins of %d failed (first: %v)", r.Failed, r.OK+r.Failed, r.FirstErr)
		}
		for _, nc := range held {
			_ = nc.Close()
		}
		a.checkBaseline()
	})
}

// TestKnownAddressOutlastsStorm: at MaxPreLogin, the connections trimmed
// are those from addresses where no login succeeded lately, while there
// are any and the known hold at most half the line: a client whose address
// logged in before keeps its place while 20 connections from fresh
// addresses arrive after it (the soak's "reset-storm", whose connections
// outrun their goroutines), and a line full of known connections still
// lets a newcomer in.
func TestKnownAddressOutlastsStorm(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := startQuotaArena(t, tcp.ServeOptions{MaxPreLogin: 4})
		client := net.IPv4(127, 0, 9, 1)
		w := a.wire(client)
		if _, err := w.loginAs("alice"); err != nil {
			t.Fatalf("the first login: %v", err)
		}
		_ = w.nc.Close()
		waiting := a.wire(client)
		for i := range 20 {
			a.wire(net.IPv4(127, 0, 10, byte(1+i)))
		}
		synctest.Wait()
		if _, err := waiting.loginAs("alice"); err != nil {
			t.Fatalf("the known address's connection, after 20 newer from fresh addresses: %v", err)
		}
		if n := a.rec.closedBy(tcp.CausePreLoginCap); n != 17 {
			t.Fatalf("%d closed by the pre-login cap, want 17 (20 + 1 - 4)", n)
		}
		// Known connections are passed over only while they hold at most
		// half the line: filling it with them locks no newcomer out.
		for range 8 {
			a.wire(client)
		}
		synctest.Wait()
		if _, err := a.wire(net.IPv4(127, 0, 11, 1)).loginAs("iggy"); err != nil {
			t.Fatalf("a newcomer from a fresh address, the line full of known connections: %v", err)
		}
	})
}
