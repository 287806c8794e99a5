package main

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
)

// reconnectPause is about how long a hostile peer the server closed waits
// before it connects again (0.5 to 1.5 times it): persistent, without
// flooding the accept queue.
const reconnectPause = time.Second

// scenarios lists every attack: the first round's, which must keep
// holding; the second round's, each row at the size it names; the third
// round's, the lock-outs at each think time of the legitimate client (0,
// and a client 20 ms and 100 ms away) and the two costs. The attacks are
// internal/attack's, which lifecycle/tcp's tests run small.
func scenarios() []scenario {
	all := []scenario{
		{id: "none", name: "none", attack: crowd(0, nil)},
		{id: "idle", name: "1,000 idle peers", attack: crowd(1000, attack.Idle)},
		{id: "drip", name: "1,000 peers sending 1 byte/s", attack: crowd(1000, attack.Drip(time.Second))},
		{id: "pingers", name: "300 peers pinging every 1 s, never logging in", attack: crowd(300, attack.PingEvery(time.Second, "", ""))},
		{id: "loggedin", name: "256 logged-in peers pinging every 25 s", dur: *loggedInDur, attack: crowd(256, attack.PingEvery(25*time.Second, "iggy", "iggy"))},
		{id: "largeframes", name: "256 connections x one 1 MiB frame", attack: largeFrames},
		{id: "guess1", name: "wrong passwords flat out from one address (8 connections)", attack: guess([]net.IP{net.IPv4(127, 0, 0, 10)}, 8)},
		{id: "quietlogs", name: "20 clients pinging flat out (default log)", noProbe: true, attack: quietLogs},
		{id: "account-hold", name: "one account logs in 8,192 connections from 40 addresses and holds them", dur: 15 * time.Second, attack: accountHold},
		{id: "nonreaders", name: "200 logged-in clients ping flat out and never read", attack: nonReaders},
		{id: "pipeline", name: "50 logged-in connections pipeline pings flat out", attack: pipeline},
		{id: "throughput", name: "lockstep pinging clients, login server vs an echo server of the same framing", dur: time.Millisecond, noProbe: true, attack: throughput},
		{id: "churn", name: "connect/reset churn, 32 addresses, flat out", attack: storm(math.MaxInt, among(loopbackIPs(4, 32)))},
		{id: "guess-account", name: "wrong passwords for one account from 200 addresses; probe: that account's right password", probeAs: "iggy", attack: guess(loopbackIPs(5, 200), 1)},
		{id: "prelogin-churn", name: "pre-login connect/reset churn flat out, 64 addresses, with 20 clients logging in", attack: preLoginChurn},
		{id: "stalled-large", name: "8 unauthenticated connections announce 1 MiB frames and stall; a logged-in 200 KiB frame every 0.5 s", attack: stalledLarge},
		{id: "scrapers", name: "metrics port: 500 concurrent scrapers", maxFDs: maxMetricsFDs, attack: scrapers},
		{id: "keepalive", name: "metrics port: 2,000 keep-alive connections after one request each", dur: 15 * time.Second, maxFDs: maxMetricsFDs, attack: keepAlive},
		{id: "big-headers", name: "metrics port: 200 requests with 1 MiB headers, stalled", maxFDs: maxMetricsFDs, attack: bigHeaders},
		{id: "fd-limit", name: "metrics port: 1,013 idle connections, the server's descriptor limit at 1,024", fdLimit: 1024, attack: fdLimit},
	}
	for _, think := range []time.Duration{0, 20 * time.Millisecond, 100 * time.Millisecond} {
		t, n := fmt.Sprintf("%d ms", think.Milliseconds()), think.Milliseconds()
		all = append(all,
			scenario{id: fmt.Sprintf("logout-churn-%d", n), name: "1,000 connections of one account loop LOGIN, LOGOUT from 8 addresses; client thinks " + t,
				attack: lockout(time.Second, think, legitIP, maxP99, logoutChurn)},
			scenario{id: fmt.Sprintf("shared-address-%d", n), name: "a neighbour on the client's address connects and resets at 200/s; client thinks " + t,
				attack: lockout(time.Second, think, sharedIP, maxP99, resetChurn200)},
			scenario{id: fmt.Sprintf("account-address-%d", n), name: "one account logs in 1,024 sessions from the client's address and holds them; client thinks " + t,
				attack: lockout(time.Second, think, sharedIP, maxP99, holdSessions)},
		)
	}
	return append(all,
		scenario{id: "ping-flood", name: "64 connections never logged in send PINGs with 70 KiB bodies flat out", attack: pingFlood},
		// Cost 5, from 127.64.0.0 on: 100,000 addresses past every other
		// attacker's. The RSS after must come back within 2x the baseline.
		scenario{id: "reset-storm", name: "connect-and-reset storm from 100,000 distinct addresses", maxRSSFactor: 2,
			attack: storm(100_000, func(i int) net.IP { return net.IPv4(127, byte(64+i>>16), byte(i>>8), byte(i)) })},
	)
}

// closedBy is the server's connections closed by each of causes, as the
// metrics m say.
func closedBy(m map[string]float64, causes ...string) string {
	var s []string
	for _, c := range causes {
		s = append(s, fmt.Sprintf("%.0f %s", m[`loginserver_connections_closed_total{cause="`+c+`"}`], c))
	}
	return "closed: " + strings.Join(s, ", ")
}

// crowd runs n peers doing b, after a second for them to connect, each
// connecting again about reconnectPause after the server closed it.
func crowd(n int, b attack.Behaviour) func(e *env) outcome {
	return func(e *env) outcome {
		halt := e.background(time.Duration(min(n, 1))*time.Second, func(stop <-chan struct{}) {
			attack.Peers(e.dial, nil, n, reconnectPause, stop, b)
		})
		<-e.stop
		m := e.srv.scrape()
		halt()
		return shows("at the end %.0f open before login, %.0f after; %s", m[`loginserver_connections_open{state="prelogin"}`],
			m[`loginserver_connections_open{state="loggedin"}`], closedBy(m, "prelogin-cap", "login-timeout", "read-timeout"))
	}
}

// largeFrames: 256 connections each send one 1 MiB login frame (the
// default size cap) at once and stay open until the attack's end. They
// come from 8 addresses, 32 each: one address opening 256 connections at
// once is what the accept-rate limit resets (AcceptBurst 64).
func largeFrames(e *env) outcome {
	const conns = 256
	held, answered, took, err := attack.LargeFrames(e.dial, loopbackIPs(10, 8), conns, 1<<20, "iggy", "iggy")
	e.ready()
	<-e.stop
	closeAll(held)
	if err != nil {
		return failed(err)
	}
	return shows("%d/%d answered in %v", answered, conns, took.Round(time.Millisecond)).
		check(answered < conns, "%d large frames not answered", conns-answered)
}

func closeAll(conns []net.Conn) {
	for _, nc := range conns {
		_ = nc.Close()
	}
}

// guess: perAddr connections from each of addrs log in with a wrong
// password for iggy, each on a fresh connection, until the attack ends;
// the credential checks are the failures that were not throttled, which
// may reach the authenticator burst + 5/s per address, and, per account,
// as many (the goal of the per-account limit).
func guess(addrs []net.IP, perAddr int) func(e *env) outcome {
	return func(e *env) outcome {
		e.ready()
		start := time.Now()
		attempts, _ := attack.Guess(e.dial, addrs, perAddr, 0, "iggy", e.stop)
		elapsed := time.Since(start).Seconds()
		m := e.srv.scrape()
		checks := m[`loginserver_logins_total{outcome="InvalidCredentials"}`]
		// The per-account throttle spares an address with no failure, so
		// that an attack cannot lock the account's owner out: each fresh
		// address gets its first check (once per 10 minutes) on top of
		// the account's 20 + 5/s.
		limit := 20 + 5*elapsed
		if len(addrs) > 1 {
			limit += float64(len(addrs))
		}
		return shows("%d attempts from %d addresses in %.1f s (%.0f answers/s); credential checks %.0f (%.1f/s) for one account, limit 20 + 5/s (+ 1 per fresh address) = %.0f; throttled %.0f",
			attempts, len(addrs), elapsed, float64(attempts)/elapsed, checks, checks/elapsed, limit, m["loginserver_logins_throttled_total"]).
			check(checks > limit, "%.0f credential checks for one account > %.0f", checks, limit)
	}
}

// quietLogs: 20 clients log in and ping as fast as they can.
func quietLogs(e *env) outcome {
	var pings atomic.Int64
	e.ready()
	start := time.Now()
	attack.Peers(e.dial, nil, 20, -1, e.stop, func(p attack.Peer, _ <-chan struct{}) bool {
		if p.Login("iggy", "iggy") == nil {
			for p.Do(p.C.Ping(nil)) == nil {
				pings.Add(1)
			}
		}
		return false
	})
	return shows("%d pings (%.0f/s)", pings.Load(), float64(pings.Load())/time.Since(start).Seconds())
}

// accountHold: 8,192 connections from 40 addresses all log in as iggy
// (attack.HoldSessions from each address at once) and hold; then they all
// close.
func accountHold(e *env) outcome {
	const n, addrs = 8192, 40
	var mu sync.Mutex
	var held []net.Conn
	refused, start, ips := 0, time.Now(), loopbackIPs(1, addrs)
	attack.Each(addrs, func(i int) {
		h, r := attack.HoldSessions(e.dial, ips[i], "iggy", "iggy", n/addrs)
		mu.Lock()
		held, refused = append(held, h...), refused+r
		mu.Unlock()
	})
	took := time.Since(start)
	e.ready()
	<-e.stop
	closeAll(held)
	return shows("%d of %d logged in and held (in %v), %d refused", len(held), n, took.Round(100*time.Millisecond), refused)
}

// nonReaders: 200 clients from 20 addresses log in, then write pings as
// fast as the kernel takes them and never read an answer.
func nonReaders(e *env) outcome {
	var written atomic.Int64
	e.background(time.Second, func(<-chan struct{}) {
		attack.Peers(e.dial, loopbackIPs(2, 20), 200, -1, e.stop, attack.Pipeline("iggy", "iggy", &written, nil))
	})()
	return shows("%s of pings written, never read; %s", mib(written.Load()),
		closedBy(e.srv.scrape(), "not-reading", "write-timeout", "read-timeout", "peer-reset"))
}

// pipeline: 50 logged-in connections from 10 addresses each write pings
// 64 at a time and read the answers on another goroutine, flat out.
func pipeline(e *env) outcome {
	var written, answered atomic.Int64
	e.ready()
	start := time.Now()
	attack.Peers(e.dial, loopbackIPs(3, 10), 50, -1, e.stop, attack.Pipeline("iggy", "iggy", &written, &answered))
	return shows("%.0f pings/s answered", float64(answered.Load())/time.Since(start).Seconds())
}

// storm opens connections and resets them at once (attack.ResetStorm),
// flat out, 64 at a time, the i-th from from(i), n in all or until the
// attack's end.
func storm(n int, from func(i int) net.IP) func(e *env) outcome {
	return func(e *env) outcome {
		e.ready()
		start := time.Now()
		k := attack.ResetStorm(e.dial, from, n, 64, 0, e.stop)
		return shows("%d connections opened and reset (%.0f/s)", k, float64(k)/time.Since(start).Seconds())
	}
}

// among is the i-th connection's address of a storm over ips.
func among(ips []net.IP) func(i int) net.IP { return func(i int) net.IP { return ips[i%len(ips)] } }

// preLoginChurn: connections from 64 addresses opened and reset flat out
// fill the pre-login line, while 20 clients from 127.0.0.250 log in and
// ping in a loop. Their logins must all succeed, and logged-in sessions
// closed by the pre-login cap must be none.
func preLoginChurn(e *env) outcome {
	var churned outcome
	halt := e.background(0, func(<-chan struct{}) { churned = storm(math.MaxInt, among(loopbackIPs(4, 64)))(e) })
	results := make([]attack.Result, 20)
	attack.Each(len(results), func(i int) {
		results[i] = attack.Legit{From: net.IPv4(127, 0, 0, 250), User: "iggy", Password: "iggy"}.Run(e.dial, e.stop)
	})
	halt()
	var all attack.Result
	for _, r := range results {
		all.OK, all.Failed, all.FirstErr = all.OK+r.OK, all.Failed+r.Failed, cmp.Or(all.FirstErr, r.FirstErr)
	}
	wrong := e.srv.scrape()[`loginserver_sessions_closed_total{cause="prelogin-cap"}`]
	return shows("%s; legitimate logins %d ok, %d failed; logged-in sessions closed by the pre-login cap: %.0f", churned.result, all.OK, all.Failed, wrong).
		check(all.Failed > 0, "%d legitimate logins failed (the first: %v)", all.Failed, all.FirstErr).
		check(wrong != 0, "%.0f logged-in sessions closed as pre-login", wrong)
}

// stalledLarge: 8 connections send the header of a 1 MiB login frame and
// stall; a logged-in client sends a 200 KiB request every 0.5 s, timed
// from its first byte to its answer.
func stalledLarge(e *env) outcome {
	stalled, refused := attack.Stall(e.dial, net.IPv4(127, 0, 6, 10), 8, 1<<20)
	defer closeAll(stalled)
	if refused > 0 {
		return failed(fmt.Errorf("%d of 8 connections did not stall", refused))
	}
	time.Sleep(200 * time.Millisecond)
	e.ready()
	var lat []time.Duration
	fails := 0
	c, err := attack.DialPeer(dialer(e.srv.addr, 0, ioTimeout), net.IPv4(127, 0, 6, 11))
	if err == nil {
		defer c.NC.Close()
		err = c.Login("iggy", "iggy")
	}
	body := make([]byte, 200<<10)
	for err == nil && attack.Pause(500*time.Millisecond, e.stop) {
		frame, ferr := c.C.Request(nil, codec.CodeGetClusterMetadata, body)
		start := time.Now()
		// A denial (status 3) is an answer; anything else ends the test.
		var denied *codec.IggyError
		if err = c.Do(frame, ferr); err == nil || errors.As(err, &denied) {
			err, lat = nil, append(lat, time.Since(start))
		}
	}
	if err != nil {
		fails++
		<-e.stop
	}
	p99 := percentile(lat, 0.99)
	return shows("logged-in 200 KiB frames: %d answered, p50 %s ms, p99 %s ms, %d failed", len(lat), ms(percentile(lat, 0.5)), ms(p99), fails).
		check(p99 > maxP99 || fails > 0 || len(lat) == 0, "logged-in 200 KiB frame p99 %s ms, %d failed", ms(p99), fails)
}
