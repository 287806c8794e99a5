// Command soak runs the attacks on the login server at full size against a
// cmd/loginserver process with its default flags, on 127.0.0.1 only and
// for a fixed time each, and prints a Markdown table: a probe client's
// login latency (p50, p99) during each attack, the server's peak RSS and
// open descriptors, and what each attack must show. It is run by
// `make soak`, not by CI: it takes about three minutes.
//
// Every connection stays on the loopback interface; the throttle's second
// address is 127.0.0.2, which Linux routes on loopback too.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// row is one line of the table.
type row struct {
	attack  string
	probe   probeResult
	peakRSS int64
	fds     int
	result  string
}

// soak holds the run's settings.
type soak struct {
	bin      string
	dur      time.Duration // each attack
	loggedIn time.Duration // the logged-in pingers' attack, to see their 25 s ping
	interval time.Duration // between probe logins
	only     string        // run only the attacks whose name contains it
	log      io.Writer
}

func main() {
	var s soak
	flag.StringVar(&s.bin, "server", "", "path of a built cmd/loginserver (required)")
	flag.DurationVar(&s.dur, "dur", 15*time.Second, "how long each attack runs")
	flag.DurationVar(&s.loggedIn, "logged-in-dur", 30*time.Second, "how long the logged-in pingers' attack runs")
	flag.DurationVar(&s.interval, "probe-every", 50*time.Millisecond, "time between two probe logins")
	flag.StringVar(&s.only, "only", "", "run only the attacks whose name contains this text")
	flag.Parse()
	if s.bin == "" {
		fmt.Fprintln(os.Stderr, "soak: -server is required")
		os.Exit(2)
	}
	s.log = os.Stderr
	if err := raiseFDLimit(); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	rows, err := s.run()
	printTable(os.Stdout, rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

// raiseFDLimit lifts the soft descriptor limit to the hard one: the soak
// holds a thousand connections and more.
func raiseFDLimit() error {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return err
	}
	if lim.Cur < 4096 {
		return fmt.Errorf("descriptor limit %d is too low for 1,000 peers", lim.Cur)
	}
	return nil
}

// step is one attack of the soak.
type step struct {
	name string
	run  func(name string) (row, error)
}

func (s *soak) run() ([]row, error) {
	var rows []row
	for _, st := range []step{
		{"none", s.attack(s.dur, 0, nil)},
		{"1,000 idle peers", s.attack(s.dur, 1000, idle)},
		{"1,000 peers sending 1 byte/s", s.attack(s.dur, 1000, drip)},
		{"300 peers pinging every 1 s, never logging in", s.attack(s.dur, 300, pingEvery(time.Second, false))},
		{"256 logged-in peers pinging every 25 s", s.attack(s.loggedIn, 256, pingEvery(25*time.Second, true))},
		{"256 connections x one 1 MiB frame", s.largeFrames},
		{"wrong passwords from 127.0.0.1 (8 connections, flat out); probe from 127.0.0.2", s.guessing},
		{"20 clients pinging for 10 s (default log)", s.quietLogs},
	} {
		if s.only != "" && !strings.Contains(st.name, s.only) {
			continue
		}
		r, err := st.run(st.name)
		if err != nil {
			return rows, fmt.Errorf("%s: %w", st.name, err)
		}
		fmt.Fprintf(s.log, "soak: %s: done\n", st.name)
		rows = append(rows, r)
	}
	return rows, nil
}

// attack runs n peers doing b against a fresh server for dur, with a probe
// logging in throughout (after a second for the peers to connect).
func (s *soak) attack(dur time.Duration, n int, b behaviour) func(string) (row, error) {
	return func(name string) (row, error) {
		srv, err := startServer(s.bin)
		if err != nil {
			return row{}, err
		}
		defer srv.stop()
		sm := sample(srv)
		var cr *crowd
		if n > 0 {
			cr = startCrowd(srv.addr, n, b)
			time.Sleep(time.Second)
		}
		r := row{attack: name, probe: probe(srv.addr, nil, s.interval, dur)}
		pre, in := srv.metric(`loginserver_connections_open{state="prelogin"}`), srv.metric(`loginserver_connections_open{state="loggedin"}`)
		closed := func(cause string) float64 {
			return srv.metric(`loginserver_connections_closed_total{cause="` + cause + `"}`)
		}
		r.result = fmt.Sprintf("at the end %.0f open before login, %.0f after; closed: %.0f prelogin-cap, %.0f login-timeout, %.0f read-timeout",
			pre, in, closed("prelogin-cap"), closed("login-timeout"), closed("read-timeout"))
		if cr != nil {
			cr.end()
		}
		r.fds = sm.end()
		r.peakRSS = srv.peakRSS()
		return r, nil
	}
}

// largeFrames: 256 connections each send one 1 MiB login frame (the default
// size cap) at once and stay open; then they close.
func (s *soak) largeFrames(name string) (row, error) {
	const conns, size = 256, 1 << 20
	srv, err := startServer(s.bin)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	sm := sample(srv)
	time.Sleep(time.Second)
	base := srv.rss()
	body, err := paddedLogin(size)
	if err != nil {
		return row{}, err
	}
	clients := make([]*client, 0, conns)
	for range conns {
		c, err := dial(srv.addr, nil)
		if err != nil {
			return row{}, err
		}
		clients = append(clients, c)
	}
	start := time.Now()
	var wg sync.WaitGroup
	var failed atomic.Int64
	var firstErr atomic.Value
	for _, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.sendLogin(body); err != nil {
				failed.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	time.Sleep(time.Second)
	open := srv.rss()
	for _, c := range clients {
		_ = c.nc.Close()
	}
	closedAt := time.Now()
	var back time.Duration = -1
	var after int64
	for time.Since(closedAt) < 10*time.Second {
		time.Sleep(500 * time.Millisecond)
		after = srv.rss()
		if back < 0 && after <= base+10<<20 {
			back = time.Since(closedAt)
		}
	}
	r := row{attack: name, fds: sm.end(), peakRSS: srv.peakRSS()}
	r.result = fmt.Sprintf("%d/%d answered in %v; RSS baseline %s, 1 s after the last answer (all open) %s, 10 s after they closed %s (within 10 MiB of baseline after %s)",
		conns-int(failed.Load()), conns, took.Round(time.Millisecond), mib(base), mib(open), mib(after), seconds(back))
	if e := firstErr.Load(); e != nil {
		r.result += fmt.Sprintf("; first failure: %v", e)
	}
	return r, nil
}

// guessing: 8 connections from 127.0.0.1 send wrong passwords as fast as
// they can for dur, while a probe logs in from 127.0.0.2.
func (s *soak) guessing(name string) (row, error) {
	srv, err := startServer(s.bin)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	sm := sample(srv)
	stop := make(chan struct{})
	start := time.Now()
	var attempts atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pause(0, stop) {
				if c, err := dial(srv.addr, net.IPv4(127, 0, 0, 1)); err == nil {
					_ = c.login("wrong")
					_ = c.nc.Close()
					attempts.Add(1)
				}
			}
		}()
	}
	// The credential checks are the failures that were not throttled.
	checks := func() float64 { return srv.metric(`loginserver_logins_total{outcome="InvalidCredentials"}`) }
	probed := make(chan probeResult, 1)
	go func() { probed <- probe(srv.addr, net.IPv4(127, 0, 0, 2), s.interval, s.dur) }()
	// checks(t) may be at most burst + rate*t, t counted from the start.
	var perSecond []float64
	last, worst := 0.0, 0.0
	for range int(s.dur / time.Second) {
		time.Sleep(time.Second)
		now := checks()
		perSecond = append(perSecond, now-last)
		last = now
		worst = max(worst, now-5*time.Since(start).Seconds())
	}
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	r := row{attack: name, probe: <-probed, fds: sm.end(), peakRSS: srv.peakRSS()}
	r.result = fmt.Sprintf("%d attempts in %v; credential checks %.0f, at most %.1f above 5/s since the start (burst 20 allows 20; limit 20 + 5 x %.1f s = %.0f); per second %v; throttled %.0f",
		attempts.Load(), elapsed.Round(100*time.Millisecond), last, worst, elapsed.Seconds(), 20+5*elapsed.Seconds(), perSecond,
		srv.metric("loginserver_logins_throttled_total"))
	return r, nil
}

// quietLogs: 20 clients log in and ping as fast as they can for dur; the
// server's log lines are counted from the first connection to the last
// close.
func (s *soak) quietLogs(name string) (row, error) {
	const clients, dur = 20, 10 * time.Second
	srv, err := startServer(s.bin)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	sm := sample(srv)
	before := srv.lines.Load()
	var pings atomic.Int64
	var wg sync.WaitGroup
	end := time.Now().Add(dur)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dial(srv.addr, nil)
			if err != nil || c.login("iggy") != nil {
				return
			}
			defer c.nc.Close()
			for time.Now().Before(end) && c.do(c.c.Ping(nil)) == nil {
				pings.Add(1)
			}
		}()
	}
	wg.Wait()
	time.Sleep(500 * time.Millisecond) // the close lines
	lines := srv.lines.Load() - before
	r := row{attack: name, fds: sm.end(), peakRSS: srv.peakRSS()}
	r.result = fmt.Sprintf("%d log lines (must be < 100) for %d pings (%.0f pings/s)", lines, pings.Load(), float64(pings.Load())/dur.Seconds())
	return r, nil
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func seconds(d time.Duration) string {
	if d < 0 {
		return "not within 10 s"
	}
	return d.Round(100 * time.Millisecond).String()
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

// printTable writes the rows as Markdown.
func printTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| attack | probe logins | p50 ms | p99 ms | peak RSS | peak fds | what it shows |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		logins, p50, p99 := "—", "—", "—"
		if n := len(r.probe.lat) + r.probe.fails; n > 0 {
			logins = fmt.Sprintf("%d ok, %d failed", len(r.probe.lat), r.probe.fails)
			p50, p99 = ms(r.probe.pct(0.50)), ms(r.probe.pct(0.99))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %d | %s |\n", r.attack, logins, p50, p99, mib(r.peakRSS), r.fds,
			strings.ReplaceAll(r.result, "|", "/"))
	}
}
