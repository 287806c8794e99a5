package main

import (
	"fmt"
	"net"
	"strings"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// reconnectPause is about how long a hostile peer the server closed waits
// before it connects again (0.5 to 1.5 times it): persistent, without
// flooding the accept queue.
const reconnectPause = time.Second

// firstRound is the first round's attacks, which must keep holding.
func (s *soak) firstRound() []scenario {
	return []scenario{
		{id: "none", name: "none", attack: crowd(0, nil)},
		{id: "idle", name: "1,000 idle peers", attack: crowd(1000, attack.Idle)},
		{id: "drip", name: "1,000 peers sending 1 byte/s", attack: crowd(1000, attack.Drip(time.Second))},
		{id: "pingers", name: "300 peers pinging every 1 s, never logging in", attack: crowd(300, attack.PingEvery(time.Second, "", ""))},
		{id: "loggedin", name: "256 logged-in peers pinging every 25 s", dur: s.loggedIn, attack: crowd(256, attack.PingEvery(25*time.Second, "iggy", "iggy"))},
		{id: "largeframes", name: "256 connections x one 1 MiB frame", attack: largeFrames},
		{id: "guess1", name: "wrong passwords flat out from one address (8 connections)", attack: guess([]net.IP{net.IPv4(127, 0, 0, 10)}, 8)},
		{id: "quietlogs", name: "20 clients pinging flat out (default log)", noProbe: true, attack: quietLogs},
	}
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
		stop := make(chan struct{})
		wait := e.background(time.Duration(min(n, 1))*time.Second, func() { attack.Peers(e.dial, nil, n, reconnectPause, stop, b) })
		<-e.stop
		m := e.srv.scrape()
		close(stop)
		wait()
		return outcome{result: fmt.Sprintf("at the end %.0f open before login, %.0f after; %s", m[`loginserver_connections_open{state="prelogin"}`],
			m[`loginserver_connections_open{state="loggedin"}`], closedBy(m, "prelogin-cap", "login-timeout", "read-timeout"))}
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
	o := outcome{result: fmt.Sprintf("%d/%d answered in %v", answered, conns, took.Round(time.Millisecond))}
	if answered < conns {
		o.misses = append(o.misses, fmt.Sprintf("%d large frames not answered", conns-answered))
	}
	return o
}

// closeAll closes the connections.
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
		o := outcome{result: fmt.Sprintf("%d attempts from %d addresses in %.1f s (%.0f answers/s); credential checks %.0f (%.1f/s) for one account, limit 20 + 5/s (+ 1 per fresh address) = %.0f; throttled %.0f",
			attempts, len(addrs), elapsed, float64(attempts)/elapsed, checks, checks/elapsed, limit, m["loginserver_logins_throttled_total"])}
		if checks > limit {
			o.misses = append(o.misses, fmt.Sprintf("%.0f credential checks for one account > %.0f", checks, limit))
		}
		return o
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
	return outcome{result: fmt.Sprintf("%d pings (%.0f/s)", pings.Load(), float64(pings.Load())/time.Since(start).Seconds())}
}
