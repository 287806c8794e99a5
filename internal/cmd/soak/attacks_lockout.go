package main

import (
	"fmt"
	"math"
	"net"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// The must-holds of issue 36's scenarios.
const (
	minLegitRate  = 0.95                  // of a legitimate client's logins during a lock-out
	maxFloodP99   = 10 * time.Millisecond // a login's p99 during the pre-login PING flood
	maxGCFactor   = 5.0                   // the GC rate during the flood over the idle one
	minIdleGCRate = 0.2                   // GCs/s counted as idle when fewer are seen
)

// The legitimate client's address when it is alone, and the address it
// shares with a neighbour.
var (
	legitIP  = net.IPv4(127, 0, 30, 1)
	sharedIP = net.IPv4(127, 0, 31, 1)
)

// lockout runs the legitimate client (as probe, every 200 ms, thinking
// think, from its address, in a process of its own as the probe is)
// during run's attack, settle after its start, and requires it to log in
// minLegitRate of the time with a p99 under p99.
func lockout(settle, think time.Duration, from net.IP, p99 time.Duration, run func(e *env, stop <-chan struct{}) string) func(e *env) outcome {
	return func(e *env) outcome {
		var shown string
		halt := e.background(settle, func(stop <-chan struct{}) { shown = run(e, stop) })
		r, err := probeProcess(e.ctx, e.srv.addr, attack.Legit{From: from, User: "probe", Think: think, Every: 200 * time.Millisecond})
		if err != nil && r.FirstErr == "" {
			r.Failed, r.FirstErr = r.Failed+1, err.Error()
		}
		halt()
		n := r.OK + r.Failed
		got, p := float64(r.OK)/float64(max(n, 1)), percentile(r.Lat, 0.99)
		return shows("%s; client logins %d/%d (%.1f%%), p99 %s ms", shown, r.OK, n, 100*got, ms(p)).
			check(got < minLegitRate, "client logged in %.1f%% < %.0f%% (first error: %s)", 100*got, 100*minLegitRate, r.FirstErr).
			check(p >= p99, "client login p99 %s ms >= %s ms", ms(p), ms(p99))
	}
}

// logoutChurn is lock-out 1 at full size: 1,000 connections as iggy.
func logoutChurn(e *env, stop <-chan struct{}) string {
	start := time.Now()
	cycles, dials := attack.LogoutChurn(e.dial, loopbackIPs(32, 8), 1000, "iggy", "iggy", 0, stop)
	return fmt.Sprintf("%.0f login/logout cycles/s, %d dials; closed by the pre-login cap %.0f (of them logged out: see logouts)",
		float64(cycles)/time.Since(start).Seconds(), dials, e.srv.scrape()[`loginserver_connections_closed_total{cause="prelogin-cap"}`])
}

// resetChurn200 is lock-out 2 at full size: 200 connect-and-resets a
// second from the client's own address.
func resetChurn200(e *env, stop <-chan struct{}) string {
	n := attack.ResetStorm(e.dial, among([]net.IP{sharedIP}), math.MaxInt, 1, 5*time.Millisecond, stop)
	return fmt.Sprintf("%d connections reset from the shared address; reset at accept %.0f", n,
		e.srv.scrape()[`loginserver_admission_limited_total{limit="accept-rate"}`])
}

// holdSessions is lock-out 3 at full size: iggy logs in 1,024 times from
// the client's address and holds what it gets.
func holdSessions(e *env, stop <-chan struct{}) string {
	held, refused := attack.HoldSessions(e.dial, sharedIP, "iggy", "iggy", 1024)
	<-stop
	closeAll(held)
	return fmt.Sprintf("one account holds %d sessions from the address, %d refused", len(held), refused)
}

// pingFlood is cost 4: 64 connections from 8 addresses, never logged in,
// send PINGs with 70 KiB bodies flat out, after 5 s of idle to count the
// idle GC rate. A client logs in every 200 ms meanwhile: its p99 must stay
// under maxFloodP99 and the GC rate within maxGCFactor of idle. (flood is
// read after lockout returns: Go does not order it against the call.)
func pingFlood(e *env) outcome {
	gcs := func() float64 { return e.srv.scrape()["go_gc_duration_seconds_count"] }
	g0, t0 := gcs(), time.Now()
	time.Sleep(5 * time.Second)
	g1, t1 := gcs(), time.Now()
	idle, flood := (g1-g0)/t1.Sub(t0).Seconds(), 0.0
	o := lockout(0, 0, legitIP, maxFloodP99, func(e *env, stop <-chan struct{}) string {
		bytes := attack.PingFlood(e.dial, loopbackIPs(33, 8), 64, 70<<10, stop)
		t2 := time.Now()
		flood = (gcs() - g1) / t2.Sub(t1).Seconds()
		return fmt.Sprintf("%.1f MB/s of PINGs sent; GC %.2f/s idle, %.2f/s during the flood", float64(bytes)/t2.Sub(t1).Seconds()/1e6, idle, flood)
	})(e)
	return o.check(flood > maxGCFactor*max(idle, minIdleGCRate), "GC rate %.2f/s > %.0fx idle (%.2f/s)", flood, maxGCFactor, max(idle, minIdleGCRate))
}
