package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
)

// started is a command running in-process on loopback ports.
type started struct {
	addr    net.Addr
	logs    *syncBuffer
	cancel  context.CancelFunc
	done    chan error
	stopped bool
}

func startRun(t *testing.T, args ...string) *started {
	t.Helper()
	s := &started{logs: &syncBuffer{}, done: make(chan error, 1)}
	var ctx context.Context
	ctx, s.cancel = context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	go func() {
		s.done <- run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), s.logs, func(a net.Addr) { addrs <- a })
	}()
	select {
	case s.addr = <-addrs:
	case err := <-s.done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("not listening")
	}
	t.Cleanup(func() { s.stop(t) })
	return s
}

func (s *started) stop(t *testing.T) {
	if s.stopped {
		return
	}
	s.stopped = true
	s.cancel()
	select {
	case err := <-s.done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return")
	}
}

// TestRunQuietLogs: by default the log has a line for the first of each
// event from an address, not per frame, and sums up the rest: 20 clients
// from one address that log in and ping 50 times each write a line each
// for the first open, login and close, then a summary of the other 19 of
// each at shutdown (over the second it covers), and no secret.
func TestRunQuietLogs(t *testing.T) {
	const password = "s3cret-pw"
	s := startRun(t, "-user", "iggy:"+password)
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for range 20 {
		wg.Go(func() { errs <- pingClient(s.addr, password, 50) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	s.stop(t)
	out := s.logs.String()
	require.Less(t, strings.Count(out, "\n"), 20, "log lines for 20 clients pinging:\n%s", out)
	require.Equal(t, 1, strings.Count(out, "msg=open "))
	require.Equal(t, 1, strings.Count(out, "msg=login "))
	require.Contains(t, out, `msg="19 connections opened from 127.0.0.1 in the last 1s" event=open remote=127.0.0.1 count=19`)
	require.Contains(t, out, `msg="19 logins (outcome=OK) from 127.0.0.1 in the last 1s" event=login outcome=OK remote=127.0.0.1 count=19 users=iggy`)
	require.Equal(t, 20, loggedEvents(out, "open", ""))
	require.Equal(t, 20, loggedEvents(out, "login", "outcome=OK"))
	require.Equal(t, 20, loggedEvents(out, "close", ""))
	require.Regexp(t, `msg=close conn=\d+ remote=127\.0\.0\.1:\d+ cause=(peer-closed|shutdown) logged_in=true logins=1 frames=51`, out)
	require.NotContains(t, out, "dir=in", "no frame lines without -trace")
	require.NotContains(t, out, password)
}

// loggedEvents counts the events of a kind (its message, "login") whose
// line has label ("outcome=OK"; "" for any) in a log: the lines written one
// by one plus the counts of the summaries.
func loggedEvents(log, msg, label string) int {
	n := 0
	count := regexp.MustCompile(` count=(\d+)`)
	for _, line := range strings.Split(log, "\n") {
		if label != "" && !strings.Contains(line, " "+label) {
			continue
		}
		switch {
		case strings.Contains(line, " msg="+msg+" "):
			n++
		case strings.Contains(line, " event="+msg+" "):
			if m := count.FindStringSubmatch(line); m != nil {
				c, _ := strconv.Atoi(m[1])
				n += c
			}
		}
	}
	return n
}

// dialWire dials addr over TCP with a new go-sdk client, the connection
// under a 10s deadline; the caller closes nc.
func dialWire(addr net.Addr) (w lifecycletest.Wire, nc net.Conn, err error) {
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		return lifecycletest.Wire{}, nil, err
	}
	nc, err = net.DialTimeout("tcp", addr.String(), 10*time.Second)
	if err != nil {
		return lifecycletest.Wire{}, nil, err
	}
	if err := nc.SetDeadline(time.Now().Add(10 * time.Second)); err != nil {
		nc.Close()
		return lifecycletest.Wire{}, nil, err
	}
	return lifecycletest.Wire{Conn: nc, Client: c}, nc, nil
}

// pingClient logs in as iggy and pings n times.
func pingClient(addr net.Addr, password string, n int) error {
	w, nc, err := dialWire(addr)
	if err != nil {
		return err
	}
	defer nc.Close()
	if _, err := w.Do(w.Client.Login(nil, []byte("iggy"), codec.NewSecret([]byte(password)))); err != nil {
		return err
	}
	for range n {
		if _, err := w.Do(w.Client.Ping(nil)); err != nil {
			return err
		}
	}
	return nil
}

// TestRunMetrics: -metrics serves the counters in the Prometheus text format.
func TestRunMetrics(t *testing.T) {
	s := startRun(t, "-user", "iggy:iggy", "-metrics", "127.0.0.1:0", "-max-conns", "2")
	m := regexp.MustCompile(`msg=metrics addr=(\S+)`).FindStringSubmatch(s.logs.String())
	require.NotNil(t, m, "the metrics address is logged:\n%s", s.logs.String())
	login(t, s.addr, func(c *lifecycle.Client) ([]byte, error) {
		return c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	}, nil)
	login(t, s.addr, func(c *lifecycle.Client) ([]byte, error) {
		return c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("nope")))
	},
		codec.StatusInvalidCredentials.Err())
	scrape := func() string {
		resp, err := http.Get("http://" + m[1] + "/metrics")
		if err != nil {
			return ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	// The two logins' connections close on the client's side first; wait
	// until the server has seen both go, so that the cap below counts only
	// the connections this test holds.
	require.Eventually(t, func() bool {
		b := scrape()
		return strings.Contains(b, `loginserver_connections_open{state="prelogin"} 0`) &&
			strings.Contains(b, `loginserver_connections_open{state="loggedin"} 0`)
	}, 10*time.Second, 10*time.Millisecond, "the login connections never closed")
	hold := make([]net.Conn, 0, 3)
	for range 3 { // the third is over -max-conns 2
		nc, err := net.DialTimeout("tcp", s.addr.String(), 10*time.Second)
		require.NoError(t, err)
		hold = append(hold, nc)
	}
	want := []string{
		`loginserver_logins_total{outcome="OK"} 1`,
		`loginserver_logins_total{outcome="InvalidCredentials"} 1`,
		`loginserver_evictions_total{reason="InvalidCredentials"} 1`,
		`loginserver_admission_limited_total{limit="conns"} 1`,
		`loginserver_connections_open{state="prelogin"} 2`,
		`loginserver_connections_open{state="loggedin"} 0`,
		`loginserver_connections_accepted_total 4`,
		`loginserver_connections_closed_total{cause="evicted"} 1`,
		`loginserver_sessions_closed_total{cause="peer-closed"} 1`,
		`loginserver_logins_throttled_total 0`,
		`loginserver_frames_dropped_total 0`,
		`loginserver_accept_errors_total 0`,
		"process_resident_memory_bytes",
	}
	var body string
	require.Eventually(t, func() bool {
		body = scrape()
		for _, w := range want {
			if !strings.Contains(body, w) {
				return false
			}
		}
		return true
	}, 10*time.Second, 20*time.Millisecond, "metrics lack one of %q:\n%s", want, body)
	for _, nc := range hold {
		_ = nc.Close()
	}
}

// TestRunLogFlood: 300 wrong passwords from one address, each on a new
// connection, most of them throttled, write a handful of lines, not a
// thousand: the first of each event in full, naming the account, then a
// summary whose counts add up to every login.
func TestRunLogFlood(t *testing.T) {
	const tries = 300
	s := startRun(t, "-user", "iggy:right-pw", "-login-burst", "2", "-accept-burst", "-1") // 300 connections from one address: the accept-rate limit would reset most
	for range tries {
		w, nc, err := dialWire(s.addr)
		require.NoError(t, err)
		_, err = w.Do(w.Client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("wrong-pw"))))
		require.ErrorIs(t, err, codec.StatusInvalidCredentials.Err())
		_ = nc.Close()
	}
	s.stop(t)
	out := s.logs.String()
	require.Less(t, strings.Count(out, "\n"), 20, out)
	require.Equal(t, tries, loggedEvents(out, "login", ""), out)
	require.Equal(t, tries, loggedEvents(out, "open", ""), out)
	// A login that did not bind names nobody (lifecycle.Login.Username).
	require.Regexp(t, `msg=login conn=\d+ remote=127\.0\.0\.1:\d+ outcome=InvalidCredentials\n`, out)
	require.Contains(t, out, `event=login outcome=Throttled remote=127.0.0.1 count=`)
	require.Contains(t, out, "users=iggy")
	require.NotContains(t, out, "wrong-pw")
	require.NotContains(t, out, "right-pw")
}

// TestRunAcceptRateLimited: connections over an address's accept budget
// and its 32 probation slots (held open here) are counted by limit in the
// metrics and logged once, then summed up, not a line each.
func TestRunAcceptRateLimited(t *testing.T) {
	s := startRun(t, "-user", "iggy:iggy", "-metrics", "127.0.0.1:0", "-accept-burst", "2", "-accept-rate", "0.01")
	m := regexp.MustCompile(`msg=metrics addr=(\S+)`).FindStringSubmatch(s.logs.String())
	require.NotNil(t, m, "the metrics address is logged:\n%s", s.logs.String())
	const tries = 64
	for range tries {
		nc, err := net.DialTimeout("tcp", s.addr.String(), 10*time.Second)
		if err == nil {
			defer nc.Close()
		}
	}
	var body string
	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + m[1] + "/metrics")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		return strings.Contains(body, `loginserver_admission_limited_total{limit="accept-rate"} 30`)
	}, 10*time.Second, 20*time.Millisecond, "2 accepted, 32 on probation, 30 limited:\n%s", body)
	s.stop(t)
	out := s.logs.String()
	require.Equal(t, 1, strings.Count(out, "msg=limited "), "the first limited connection in full, once:\n%s", out)
	require.Contains(t, out, "limit=accept-rate")
	require.Less(t, strings.Count(out, "\n"), 15, out)
}

// TestRunQuotaNoOracle: at -max-sessions-per-user 1, with the one session
// held, a login with the right password and one with a wrong password get
// the same answer, write the same log and count the same metrics (each
// probe on a server of its own, the addresses, ports, times and durations
// set aside).
func TestRunQuotaNoOracle(t *testing.T) {
	probe := func(password string) (answer []byte, log, metrics string) {
		s := startRun(t, "-user", "iggy:right-pw", "-max-sessions-per-user", "1", "-metrics", "127.0.0.1:0")
		holder, nc, err := dialWire(s.addr)
		require.NoError(t, err)
		defer nc.Close()
		_, err = holder.Do(holder.Client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("right-pw"))))
		require.NoError(t, err)
		w, pnc, err := dialWire(s.addr)
		require.NoError(t, err)
		defer pnc.Close()
		frame, err := w.Client.Login(nil, []byte("iggy"), codec.NewSecret([]byte(password)))
		require.NoError(t, err)
		_, err = pnc.Write(frame)
		require.NoError(t, err)
		answer, err = codec.ReadFrame(pnc, nil, codec.MaxFrameSize)
		require.NoError(t, err)
		ev, err := codec.DecodeEviction(answer)
		require.NoError(t, err, "the login at the quota is evicted")
		ev.Client = codec.Uint128{Lo: 1} // not the probe's own
		answer, err = ev.AppendBinary(nil)
		require.NoError(t, err)
		_, _ = io.ReadAll(pnc) // the server has closed it
		metrics = scrape(t, s.logs.String(), `loginserver_(logins|admission|evictions|connections_closed|sessions_closed|logins_throttled)`)
		s.stop(t)
		return answer, normalise(s.logs.String()), metrics
	}
	rightAnswer, rightLog, rightMetrics := probe("right-pw")
	wrongAnswer, wrongLog, wrongMetrics := probe("wrong-pw")
	require.Equal(t, wrongAnswer, rightAnswer, "the answer")
	require.Equal(t, wrongLog, rightLog, "the log")
	require.Equal(t, wrongMetrics, rightMetrics, "the metrics")
	require.Contains(t, rightMetrics, `loginserver_admission_limited_total{limit="account"} 1`)
	require.Contains(t, rightLog, "limit=account")
	require.NotContains(t, rightLog, "-pw")
}

// scrape returns the lines of the metrics served at the address the log
// names that match pattern, sorted.
func scrape(t *testing.T, log, pattern string) string {
	t.Helper()
	m := regexp.MustCompile(`msg=metrics addr=(\S+)`).FindStringSubmatch(log)
	require.NotNil(t, m, "the metrics address is logged:\n%s", log)
	resp, err := http.Get("http://" + m[1] + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	keep := regexp.MustCompile(`^` + pattern)
	var lines []string
	for _, line := range strings.Split(string(body), "\n") {
		if keep.MatchString(line) {
			lines = append(lines, line)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// normalise sets aside what differs between two runs of the same events:
// times, ports, connection ids and durations.
func normalise(log string) string {
	for _, r := range []struct{ re, to string }{
		{`time=\S+`, "time=T"}, {`127\.0\.0\.1:\d+`, "127.0.0.1:P"}, {`conn=\d+`, "conn=N"},
		{`duration=\S+`, "duration=D"}, {`in the last \S+"`, `in the last S"`},
	} {
		log = regexp.MustCompile(r.re).ReplaceAllString(log, r.to)
	}
	return log
}

// TestRunUnknownNameNotLogged: a login naming no account (here a password
// typed into the username field) leaves no trace of the name in the log,
// neither in its line nor in the summaries. A failed login names nobody at
// all (lifecycle.Login.Username is set only for a login that bound: the
// "name" of a failed one may be a token read in the password layout); a
// login that bound names its account.
func TestRunUnknownNameNotLogged(t *testing.T) {
	const typo = "Tr0ub4dor-typed-as-name"
	s := startRun(t, "-user", "iggy:right-pw", "-accept-burst", "-1")
	for _, name := range []string{typo, typo, typo, "iggy", "iggy"} {
		w, nc, err := dialWire(s.addr)
		require.NoError(t, err)
		_, err = w.Do(w.Client.Login(nil, []byte(name), codec.NewSecret([]byte("wrong-pw"))))
		require.ErrorIs(t, err, codec.StatusInvalidCredentials.Err())
		_ = nc.Close()
	}
	w, nc, err := dialWire(s.addr)
	require.NoError(t, err)
	_, err = w.Do(w.Client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("right-pw"))))
	require.NoError(t, err)
	_ = nc.Close()
	s.stop(t)
	out := s.logs.String()
	require.NotContains(t, out, "Tr0ub4dor", out)
	require.Regexp(t, `msg=login conn=\d+ remote=127\.0\.0\.1:\d+ outcome=InvalidCredentials\n`, out)
	require.NotRegexp(t, `outcome=InvalidCredentials[^\n]*user`, out)
	require.Regexp(t, `msg=login conn=\d+ remote=127\.0\.0\.1:\d+ outcome=OK user=iggy `, out)
}
