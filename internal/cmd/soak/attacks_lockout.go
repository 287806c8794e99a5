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

// thinks are the legitimate client's think times: 0, and a client 20 ms
// and 100 ms away.
var thinks = []time.Duration{0, 20 * time.Millisecond, 100 * time.Millisecond}

// lockoutAttacks is the third round's table: the lock-outs at each think
// time, and the two costs. The attacks are internal/attack's, which
// lifecycle/tcp's tests run small.
func (s *soak) lockoutAttacks() []scenario {
	var out []scenario
	for _, think := range thinks {
		t := fmt.Sprintf("%d ms", think.Milliseconds())
		out = append(out,
			scenario{id: fmt.Sprintf("logout-churn-%d", think.Milliseconds()), name: "1,000 connections of one account loop LOGIN, LOGOUT from 8 addresses; client thinks " + t,
				attack: lockout(think, legitIP, logoutChurn)},
			scenario{id: fmt.Sprintf("shared-address-%d", think.Milliseconds()), name: "a neighbour on the client's address connects and resets at 200/s; client thinks " + t,
				attack: lockout(think, sharedIP, resetChurn)},
			scenario{id: fmt.Sprintf("account-address-%d", think.Milliseconds()), name: "one account logs in 1,024 sessions from the client's address and holds them; client thinks " + t,
				attack: lockout(think, sharedIP, holdSessions)},
		)
	}
	return append(out,
		scenario{id: "ping-flood", name: "64 connections never logged in send PINGs with 70 KiB bodies flat out", attack: pingFlood},
		scenario{id: "reset-storm", name: "connect-and-reset storm from 100,000 distinct addresses", maxRSSFactor: maxRSSFactor, attack: resetStorm},
	)
}

// The legitimate client's address when it is alone, and the address it
// shares with a neighbour.
var (
	legitIP  = net.IPv4(127, 0, 30, 1)
	sharedIP = net.IPv4(127, 0, 31, 1)
)

// dialer is how an attack of internal/attack dials the server.
func dialer(addr string) attack.Dial {
	return func(local net.IP) (net.Conn, error) { return attackDialer(local, ioTimeout).Dial("tcp", addr) }
}

// lockout runs the legitimate client (legitProcess) during run's attack,
// and requires it to log in minLegitRate of the time with a p99 under
// maxP99.
func lockout(think time.Duration, from net.IP, run func(e *env, stop <-chan struct{}) string) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		stop, shown := make(chan struct{}), make(chan string, 1)
		go func() { shown <- run(e, stop) }()
		time.Sleep(time.Second) // the attack in place
		legit := legitProcess(e, from, think)
		return func() outcome {
			r := <-legit
			close(stop)
			return legitOutcome(<-shown, r, minLegitRate, maxP99)
		}
	}
}

// legitProcess runs the legitimate client (as probe, every 200 ms,
// thinking think, from its address) until e.stop in a process of its own,
// as the probe: in the soak's, it waited behind the attackers' goroutines.
func legitProcess(e *env, from net.IP, think time.Duration) <-chan probeResult {
	legit := make(chan probeResult, 1)
	go func() {
		r, err := probeProcess(e.srv.addr, from, "probe", 200*time.Millisecond, e.stop, "-probe-think", think.String())
		if err != nil && r.firstErr == "" {
			r.fails, r.firstErr = r.fails+1, err.Error()
		}
		legit <- r
	}()
	return legit
}

// legitOutcome reports the attack and the client's logins against the
// must-holds.
func legitOutcome(shown string, r probeResult, rate float64, p99 time.Duration) outcome {
	n := len(r.lat) + r.fails
	got, p := float64(len(r.lat))/float64(max(n, 1)), r.pct(0.99)
	o := outcome{result: fmt.Sprintf("%s; client logins %d/%d (%.1f%%), p99 %s ms", shown, len(r.lat), n, 100*got, ms(p))}
	if got < rate {
		o.misses = append(o.misses, fmt.Sprintf("client logged in %.1f%% < %.0f%% (first error: %s)", 100*got, 100*rate, r.firstErr))
	}
	if p >= p99 {
		o.misses = append(o.misses, fmt.Sprintf("client login p99 %s ms >= %s ms", ms(p), ms(p99)))
	}
	return o
}

// logoutChurn is lock-out 1 at full size: 1,000 connections as iggy.
func logoutChurn(e *env, stop <-chan struct{}) string {
	start := time.Now()
	cycles, dials := attack.LogoutChurn(dialer(e.srv.addr), loopbackIPs(32, 8), 1000, "iggy", "iggy", 0, stop)
	m := e.srv.scrape()
	return fmt.Sprintf("%.0f login/logout cycles/s, %d dials; closed by the pre-login cap %.0f (of them logged out: see logouts)",
		float64(cycles)/time.Since(start).Seconds(), dials, m[`loginserver_connections_closed_total{cause="prelogin-cap"}`])
}

// resetChurn is lock-out 2 at full size: 200 connect-and-resets a second
// from the client's own address.
func resetChurn(e *env, stop <-chan struct{}) string {
	n := attack.ResetChurn(dialer(e.srv.addr), sharedIP, 200, stop)
	m := e.srv.scrape()
	return fmt.Sprintf("%d connections reset from the shared address; reset at accept %.0f", n, m[`loginserver_admission_limited_total{limit="accept-rate"}`])
}

// holdSessions is lock-out 3 at full size: iggy logs in 1,024 times from
// the client's address and holds what it gets.
func holdSessions(e *env, stop <-chan struct{}) string {
	held, refused := attack.HoldSessions(dialer(e.srv.addr), sharedIP, "iggy", "iggy", 1024)
	<-stop
	for _, nc := range held {
		_ = nc.Close()
	}
	return fmt.Sprintf("one account holds %d sessions from the address, %d refused", len(held), refused)
}

// pingFlood is cost 4: 64 connections from 8 addresses, never logged in,
// send PINGs with 70 KiB bodies flat out, after 5 s of idle to count the
// idle GC rate. A client logs in every 200 ms meanwhile: its p99 must stay
// under maxFloodP99 and the GC rate within maxGCFactor of idle.
func pingFlood(e *env) func() outcome {
	gcs := func() float64 { return e.srv.scrape()["go_gc_duration_seconds_count"] }
	g0, t0 := gcs(), time.Now()
	time.Sleep(5 * time.Second)
	g1, t1 := gcs(), time.Now()
	idle := (g1 - g0) / t1.Sub(t0).Seconds()
	stop, sent := make(chan struct{}), make(chan int64, 1)
	go func() { sent <- attack.PingFlood(dialer(e.srv.addr), loopbackIPs(33, 8), 64, 70<<10, stop) }()
	legit := legitProcess(e, legitIP, 0)
	return func() outcome {
		r := <-legit
		close(stop)
		bytes := <-sent
		g2, t2 := gcs(), time.Now()
		flood := (g2 - g1) / t2.Sub(t1).Seconds()
		o := legitOutcome(fmt.Sprintf("%.1f MB/s of PINGs sent; GC %.2f/s idle, %.2f/s during the flood", float64(bytes)/t2.Sub(t1).Seconds()/1e6, idle, flood),
			r, minLegitRate, maxFloodP99)
		if flood > maxGCFactor*max(idle, minIdleGCRate) {
			o.misses = append(o.misses, fmt.Sprintf("GC rate %.2f/s > %.0fx idle (%.2f/s)", flood, maxGCFactor, max(idle, minIdleGCRate)))
		}
		return o
	}
}

// resetStorm is cost 5: connections from up to 100,000 distinct addresses,
// each opened and reset at once, 64 at a time, until the attack's time is
// up; the server's RSS after must come back within maxRSSFactor of its
// baseline (the scenario checks it).
func resetStorm(e *env) func() outcome {
	// 127.64.0.0 on: 100,000 addresses past every other attacker's.
	from := func(i int) net.IP { return net.IPv4(127, byte(64+i>>16), byte(i>>8), byte(i)) }
	done := make(chan int64, 1)
	start := time.Now()
	go func() { done <- attack.ResetStorm(dialer(e.srv.addr), from, 100_000, 64, e.stop) }()
	return func() outcome {
		n := <-done
		return outcome{result: fmt.Sprintf("%d connect-and-resets from distinct addresses (%.0f/s)", n, float64(n)/time.Since(start).Seconds())}
	}
}
