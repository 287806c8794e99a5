package main

import (
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// lastRound is the first round's attacks, which must keep holding.
func (s *soak) lastRound() []scenario {
	return []scenario{
		{id: "none", name: "none", attack: crowdAttack(0, nil)},
		{id: "idle", name: "1,000 idle peers", attack: crowdAttack(1000, idle)},
		{id: "drip", name: "1,000 peers sending 1 byte/s", attack: crowdAttack(1000, drip)},
		{id: "pingers", name: "300 peers pinging every 1 s, never logging in", attack: crowdAttack(300, pingEvery(time.Second, false))},
		{id: "loggedin", name: "256 logged-in peers pinging every 25 s", dur: s.loggedIn, attack: crowdAttack(256, pingEvery(25*time.Second, true))},
		{id: "largeframes", name: "256 connections x one 1 MiB frame", attack: largeFrames},
		{id: "guess1", name: "wrong passwords flat out from one address (8 connections)", attack: guessOne},
		{id: "quietlogs", name: "20 clients pinging flat out (default log)", noProbe: true, attack: quietLogs},
	}
}

// crowdAttack runs n peers doing b, after a second for them to connect.
func crowdAttack(n int, b behaviour) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		var cr *crowd
		if n > 0 {
			cr = startCrowd(e.srv.addr, n, b)
			time.Sleep(time.Second)
		}
		return func() outcome {
			m := e.srv.scrape()
			if cr != nil {
				cr.end()
			}
			return outcome{result: fmt.Sprintf("at the end %.0f open before login, %.0f after; closed: %.0f prelogin-cap, %.0f login-timeout, %.0f read-timeout",
				m[`loginserver_connections_open{state="prelogin"}`], m[`loginserver_connections_open{state="loggedin"}`],
				m[`loginserver_connections_closed_total{cause="prelogin-cap"}`], m[`loginserver_connections_closed_total{cause="login-timeout"}`],
				m[`loginserver_connections_closed_total{cause="read-timeout"}`])}
		}
	}
}

// largeFrames: 256 connections each send one 1 MiB login frame (the
// default size cap) at once and stay open until the attack's end.
func largeFrames(e *env) func() outcome {
	const conns, size = 256, 1 << 20
	body, err := paddedLogin(size)
	if err != nil {
		return failed(err)
	}
	// From 8 addresses, 32 each: one address opening 256 connections at
	// once is what the accept-rate limit resets (AcceptBurst 64).
	ips := loopbackIPs(10, 8)
	clients := make([]*client, 0, conns)
	for i := range conns {
		c, err := dial(e.srv.addr, ips[i%len(ips)])
		if err != nil {
			return failed(err)
		}
		clients = append(clients, c)
	}
	start := time.Now()
	var wg sync.WaitGroup
	var bad atomic.Int64
	for _, c := range clients {
		spawn(&wg, func() {
			if sendLogin(c, body) != nil {
				bad.Add(1)
			}
		})
	}
	wg.Wait()
	took := time.Since(start)
	return func() outcome {
		for _, c := range clients {
			_ = c.NC.Close()
		}
		o := outcome{result: fmt.Sprintf("%d/%d answered in %v", conns-int(bad.Load()), conns, took.Round(time.Millisecond))}
		if bad.Load() > 0 {
			o.misses = append(o.misses, fmt.Sprintf("%d large frames not answered", bad.Load()))
		}
		return o
	}
}

// failed is an attack that could not be set up.
func failed(err error) func() outcome {
	return func() outcome { return outcome{misses: []string{"could not set up: " + err.Error()}} }
}

// guessOne: 8 connections from one address send wrong passwords for iggy
// as fast as they can.
func guessOne(e *env) func() outcome {
	return guessFrom(e, []net.IP{net.IPv4(127, 0, 0, 10)}, 8)
}

// guessFrom: perAddr goroutines per address log in with a wrong password
// for iggy, each on a fresh connection, until the attack ends; the
// credential checks are the failures that were not throttled, which may
// reach the authenticator burst + 5/s per address, and, per account, as
// many (the goal of the per-account limit).
func guessFrom(e *env, addrs []net.IP, perAddr int) func() outcome {
	start := time.Now()
	var attempts atomic.Int64
	var wg sync.WaitGroup
	for _, ip := range addrs {
		for range perAddr {
			spawn(&wg, func() {
				for attack.Pause(0, e.stop) {
					if c, err := dial(e.srv.addr, ip); err == nil {
						_ = c.Login("iggy", "wrong")
						_ = c.NC.Close()
						attempts.Add(1)
					}
				}
			})
		}
	}
	return func() outcome {
		wg.Wait()
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
			attempts.Load(), len(addrs), elapsed, float64(attempts.Load())/elapsed, checks, checks/elapsed, limit,
			m["loginserver_logins_throttled_total"])}
		if checks > limit {
			o.misses = append(o.misses, fmt.Sprintf("%.0f credential checks for one account > %.0f", checks, limit))
		}
		return o
	}
}

// quietLogs: 20 clients log in and ping as fast as they can.
func quietLogs(e *env) func() outcome {
	const clients = 20
	var pings atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		spawn(&wg, func() {
			c, err := dial(e.srv.addr, nil)
			if err != nil || c.Login("iggy", "iggy") != nil {
				return
			}
			closeOnStop(c, e.stop, func() {
				for c.Do(c.C.Ping(nil)) == nil {
					pings.Add(1)
				}
			})
		})
	}
	return func() outcome {
		wg.Wait()
		return outcome{result: fmt.Sprintf("%d pings (%.0f/s)", pings.Load(), float64(pings.Load())/time.Since(start).Seconds())}
	}
}
