package main

import (
	"fmt"
	"net"
	"sync"
	"time"
)

// scenario is one attack of the soak and how the server runs for it.
type scenario struct {
	id      string // short name, for -run
	name    string // what the table says
	flags   []string
	fdLimit int           // run the server with this descriptor limit (0: the soak's)
	dur     time.Duration // 0: -dur
	probeAs string        // the probe's account ("probe" unless set)
	noProbe bool
	maxFDs  int // the server's descriptors must stay at most this (0: not checked)
	// maxRSSFactor, when set, bounds the RSS after the attack to this
	// many times the baseline.
	maxRSSFactor float64
	// attack sets the attack up against e.srv (it may take a while: it
	// returns once the attack is in place) and returns what ends it. The
	// attack must end by itself once e.stop is closed too.
	attack func(e *env) (end func() outcome)
}

// env is what an attack works with.
type env struct {
	srv  *server
	stop <-chan struct{} // closed when the attack's time is up, or the kernel's TCP memory passed abortTCPMem
}

// outcome is what an attack shows and which of its own must-holds it missed.
type outcome struct {
	result string
	misses []string
}

// row is one line of the table.
type row struct {
	name             string
	probe            probeResult
	peakRSS          int64
	baseRSS          int64
	rssAfter         int64
	tcpBase, tcpPeak int64
	logRate          float64
	cpu              float64 // the server's CPU during the attack, in percent of one core
	fds              int
	result           string
	misses           []string
}

// probeIP is where the probe logs in from: no attacker uses it.
var probeIP = net.IPv4(127, 0, 0, 254)

// scenario runs sc against a fresh server: baseline, attack with the probe
// logging in throughout, the attack's end, then the RSS after s.after.
func (s *soak) scenario(sc scenario) (row, error) {
	flags := append(append([]string{"-user", "probe:probe"}, sc.flags...), s.extra...)
	srv, err := startServer(s.bin, sc.fdLimit, flags...)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	time.Sleep(300 * time.Millisecond)
	r := row{name: sc.name, baseRSS: srv.rss(), tcpBase: tcpMem()}
	stop := make(chan struct{})
	var once sync.Once
	end := func() { once.Do(func() { close(stop) }) }
	w := watch(srv, r.tcpBase, end)
	lines0, start, cpu0 := srv.lines.Load(), time.Now(), srv.cpuTime()
	finish := sc.attack(&env{srv: srv, stop: stop})
	dur := sc.dur
	if dur == 0 {
		dur = s.dur
	}
	timer := time.AfterFunc(dur, end)
	defer timer.Stop()
	account := sc.probeAs
	if account == "" {
		account = "probe"
	}
	if !sc.noProbe {
		if r.probe, err = probeProcess(srv.addr, probeIP, account, s.interval, stop); err != nil {
			end()
			_ = finish()
			return row{}, fmt.Errorf("probe: %w", err)
		}
	}
	<-stop
	aborted := w.aborted()
	o := finish()
	window := time.Since(start)
	r.logRate = float64(srv.lines.Load()-lines0) / window.Seconds()
	r.cpu = 100 * (srv.cpuTime() - cpu0).Seconds() / window.Seconds()
	r.fds, r.peakRSS, r.tcpPeak = w.end()
	time.Sleep(s.after)
	r.rssAfter = srv.rss()
	r.result, r.misses = o.result, o.misses
	if aborted {
		r.misses = append(r.misses, fmt.Sprintf("stopped early: kernel TCP memory passed %s over the baseline", mib(abortTCPMem)))
	}
	r.misses = append(r.misses, r.commonMisses(!sc.noProbe)...)
	if sc.maxRSSFactor > 0 && float64(r.rssAfter) > sc.maxRSSFactor*float64(r.baseRSS) {
		r.misses = append(r.misses, fmt.Sprintf("RSS %s after, baseline %s: over %.0fx", mib(r.rssAfter), mib(r.baseRSS), sc.maxRSSFactor))
	}
	if sc.maxFDs > 0 && r.fds > sc.maxFDs {
		r.misses = append(r.misses, fmt.Sprintf("%d server descriptors > %d", r.fds, sc.maxFDs))
	}
	return r, nil
}

// commonMisses checks what every scenario must hold.
func (r row) commonMisses(probed bool) []string {
	var m []string
	if probed {
		if p99 := r.probe.pct(0.99); p99 > maxP99 {
			m = append(m, fmt.Sprintf("probe p99 %s ms > %s ms", ms(p99), ms(maxP99)))
		}
		if p99 := r.probe.pingPct(0.99); p99 > maxP99 {
			m = append(m, fmt.Sprintf("probe ping p99 %s ms > %s ms", ms(p99), ms(maxP99)))
		}
		if r.probe.fails > 0 {
			m = append(m, fmt.Sprintf("%d probe failures (first: %s)", r.probe.fails, r.probe.firstErr))
		}
		if len(r.probe.lat) == 0 && r.probe.fails == 0 {
			m = append(m, "no probe login ran")
		}
	}
	if r.peakRSS > maxRSS {
		m = append(m, fmt.Sprintf("peak RSS %s > %s", mib(r.peakRSS), mib(maxRSS)))
	}
	if r.rssAfter > r.baseRSS+rssReturn {
		m = append(m, fmt.Sprintf("RSS %s after, baseline %s: not within %s", mib(r.rssAfter), mib(r.baseRSS), mib(rssReturn)))
	}
	if d := r.tcpPeak - r.tcpBase; d > maxTCPMem {
		m = append(m, fmt.Sprintf("kernel TCP memory +%s > %s", mib(d), mib(maxTCPMem)))
	}
	if r.logRate > maxLogRate {
		m = append(m, fmt.Sprintf("%.0f log lines/s > %.0f", r.logRate, maxLogRate))
	}
	return m
}

// scenarios lists every attack: the last round's, then this round's table.
func (s *soak) scenarios() []scenario {
	return append(append(s.lastRound(), s.connAttacks()...), s.lockoutAttacks()...)
}
