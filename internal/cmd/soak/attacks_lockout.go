package main

import (
	"fmt"
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
	maxRSSFactor  = 2.0                   // RSS after the reset storm over the baseline
)

// The legitimate client's address when it is alone, and the address it
// shares with a neighbour.
var (
	legitIP  = net.IPv4(127, 0, 30, 1)
	sharedIP = net.IPv4(127, 0, 31, 1)
)

// thirdRound is the third round's table: the lock-outs at each think time
// of the legitimate client (0, and a client 20 ms and 100 ms away), and
// the two costs. The attacks are internal/attack's, which lifecycle/tcp's
// tests run small.
func thirdRound() []scenario {
	var out []scenario
	for _, think := range []time.Duration{0, 20 * time.Millisecond, 100 * time.Millisecond} {
		t, n := fmt.Sprintf("%d ms", think.Milliseconds()), think.Milliseconds()
		out = append(out,
			scenario{id: fmt.Sprintf("logout-churn-%d", n), name: "1,000 connections of one account loop LOGIN, LOGOUT from 8 addresses; client thinks " + t,
				attack: lockout(think, legitIP, logoutChurn)},
			scenario{id: fmt.Sprintf("shared-address-%d", n), name: "a neighbour on the client's address connects and resets at 200/s; client thinks " + t,
				attack: lockout(think, sharedIP, resetChurn200)},
			scenario{id: fmt.Sprintf("account-address-%d", n), name: "one account logs in 1,024 sessions from the client's address and holds them; client thinks " + t,
				attack: lockout(think, sharedIP, holdSessions)},
		)
	}
	return append(out,
		scenario{id: "ping-flood", name: "64 connections never logged in send PINGs with 70 KiB bodies flat out", attack: pingFlood},
		scenario{id: "reset-storm", name: "connect-and-reset storm from 100,000 distinct addresses", maxRSSFactor: maxRSSFactor, attack: resetStorm},
	)
}

// lockout runs the legitimate client (as probe, every 200 ms, thinking
// think, from its address, in a process of its own as the probe is)
// during run's attack, a second after its start, and requires it to log
// in minLegitRate of the time with a p99 under maxP99.
func lockout(think time.Duration, from net.IP, run func(e *env, stop <-chan struct{}) string) func(e *env) outcome {
	return func(e *env) outcome {
		stop := make(chan struct{})
		var shown string
		wait := e.background(time.Second, func() { shown = run(e, stop) })
		r := legit(e, from, think)
		close(stop)
		wait()
		return legitOutcome(shown, r, maxP99)
	}
}

// legit runs the legitimate client until e.stop.
func legit(e *env, from net.IP, think time.Duration) attack.Result {
	r, err := probeProcess(e.ctx, e.srv.addr, attack.Legit{From: from, User: "probe", Think: think, Every: 200 * time.Millisecond})
	if err != nil && r.FirstErr == "" {
		r.Failed, r.FirstErr = r.Failed+1, err.Error()
	}
	return r
}

// legitOutcome reports the attack and the client's logins against the
// must-holds.
func legitOutcome(shown string, r attack.Result, p99 time.Duration) outcome {
	n := r.OK + r.Failed
	got, p := float64(r.OK)/float64(max(n, 1)), percentile(r.Lat, 0.99)
	o := outcome{result: fmt.Sprintf("%s; client logins %d/%d (%.1f%%), p99 %s ms", shown, r.OK, n, 100*got, ms(p))}
	o.misses.check(got < minLegitRate, "client logged in %.1f%% < %.0f%% (first error: %s)", 100*got, 100*minLegitRate, r.FirstErr)
	o.misses.check(p >= p99, "client login p99 %s ms >= %s ms", ms(p), ms(p99))
	return o
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
	n := attack.ResetChurn(e.dial, sharedIP, 200, stop)
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
// under maxFloodP99 and the GC rate within maxGCFactor of idle.
func pingFlood(e *env) outcome {
	gcs := func() float64 { return e.srv.scrape()["go_gc_duration_seconds_count"] }
	g0, t0 := gcs(), time.Now()
	time.Sleep(5 * time.Second)
	g1, t1 := gcs(), time.Now()
	idle := (g1 - g0) / t1.Sub(t0).Seconds()
	stop := make(chan struct{})
	var bytes int64
	wait := e.background(0, func() { bytes = attack.PingFlood(e.dial, loopbackIPs(33, 8), 64, 70<<10, stop) })
	r := legit(e, legitIP, 0)
	close(stop)
	wait()
	g2, t2 := gcs(), time.Now()
	flood := (g2 - g1) / t2.Sub(t1).Seconds()
	o := legitOutcome(fmt.Sprintf("%.1f MB/s of PINGs sent; GC %.2f/s idle, %.2f/s during the flood", float64(bytes)/t2.Sub(t1).Seconds()/1e6, idle, flood),
		r, maxFloodP99)
	o.misses.check(flood > maxGCFactor*max(idle, minIdleGCRate), "GC rate %.2f/s > %.0fx idle (%.2f/s)", flood, maxGCFactor, max(idle, minIdleGCRate))
	return o
}

// resetStorm is cost 5: connections from up to 100,000 distinct addresses,
// each opened and reset at once, 64 at a time, until the attack's time is
// up; the server's RSS after must come back within maxRSSFactor of its
// baseline (the scenario checks it).
func resetStorm(e *env) outcome {
	// 127.64.0.0 on: 100,000 addresses past every other attacker's.
	from := func(i int) net.IP { return net.IPv4(127, byte(64+i>>16), byte(i>>8), byte(i)) }
	e.ready()
	start := time.Now()
	n := attack.ResetStorm(e.dial, from, 100_000, 64, e.stop)
	return outcome{result: fmt.Sprintf("%d connect-and-resets from distinct addresses (%.0f/s)", n, float64(n)/time.Since(start).Seconds())}
}
