package main

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// scenario is one attack of the soak and how the server runs for it.
type scenario struct {
	id      string        // short name, for -run
	name    string        // what the table says
	fdLimit int           // run the server with this descriptor limit (0: the soak's)
	dur     time.Duration // 0: -dur
	probeAs string        // the probe's account ("probe" unless set)
	noProbe bool
	maxFDs  int // the server's descriptors must stay at most this (0: not checked)
	// maxRSSFactor, when set, bounds the RSS after the attack to this
	// many times the baseline.
	maxRSSFactor float64
	// attack runs the attack against e.srv until e.stop is closed, calling
	// e.ready once it is in place (which may take a while: the attack's
	// time starts then), and says what it showed.
	attack func(e *env) outcome
}

// env is what an attack works with.
type env struct {
	srv   *server
	dial  attack.Dial // an attacker's connection to the login port
	ctx   context.Context
	stop  <-chan struct{} // ctx.Done(): the attack's time is up, or the kernel's TCP memory passed abortTCPMem
	ready func()
}

// background runs f on a goroutine, lets it settle in place, and marks
// the attack ready; the halt it returns closes f's stop and waits for f.
func (e *env) background(settle time.Duration, f func(stop <-chan struct{})) (halt func()) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		f(stop)
	}()
	time.Sleep(settle)
	e.ready()
	return func() { close(stop); <-done }
}

// outcome is what an attack shows and which must-holds it missed.
type outcome struct {
	result string
	misses []string
}

// shows is the outcome that format and args say, with no miss yet.
func shows(format string, args ...any) outcome { return outcome{result: fmt.Sprintf(format, args...)} }

// check is o with the miss that format and args say if broken.
func (o outcome) check(broken bool, format string, args ...any) outcome {
	if broken {
		o.misses = append(o.misses, fmt.Sprintf(format, args...))
	}
	return o
}

// failed is an attack that could not be set up.
func failed(err error) outcome { return outcome{}.check(true, "could not set up: %v", err) }

// row is one line of the table.
type row struct {
	name                       string
	probe                      attack.Result
	peakRSS, baseRSS, rssAfter int64
	tcpBase, tcpPeak           int64
	logRate                    float64
	cpu                        float64 // the server's CPU during the attack, in percent of one core
	fds                        int
	outcome
}

// probeIP is where the probe logs in from: no attacker uses it.
var probeIP = net.IPv4(127, 0, 0, 254)

// runScenario runs sc against a fresh server: baseline, attack with the probe
// logging in throughout, the attack's end, then the RSS after -after.
func runScenario(sc scenario) (row, error) {
	srv, err := startServer(*serverBin, sc.fdLimit)
	if err != nil {
		return row{}, err
	}
	defer srv.stop()
	time.Sleep(300 * time.Millisecond)
	r := row{name: sc.name, baseRSS: srv.rss(), tcpBase: tcpMem()}
	ctx, end := context.WithCancel(context.Background())
	defer end()
	inPlace, ready := context.WithCancel(context.Background())
	defer ready()
	e := &env{srv: srv, dial: dialer(srv.addr, attackBuffer, ioTimeout), ctx: ctx, stop: ctx.Done(), ready: ready}
	// Every 100 ms until the attack's time is up: the peaks of the
	// server's descriptors and of the kernel's TCP memory; past
	// abortTCPMem over the baseline the attack ends, for the machine is
	// shared, and an attack that pins that much has missed already.
	r.tcpPeak = r.tcpBase
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for ; ctx.Err() == nil; <-t.C {
			ents, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", srv.cmd.Process.Pid))
			r.fds, r.tcpPeak = max(r.fds, len(ents)), max(r.tcpPeak, tcpMem())
			if r.tcpPeak > r.tcpBase+abortTCPMem {
				end()
			}
		}
	}()
	lines0, start, cpu0 := srv.lines.Load(), time.Now(), statCPU(srv.read("stat"))
	done := make(chan outcome, 1)
	go func() {
		o := sc.attack(e)
		e.ready()
		done <- o
	}()
	<-inPlace.Done()
	timer := time.AfterFunc(cmp.Or(sc.dur, *attackDur), end)
	defer timer.Stop()
	if !sc.noProbe {
		if r.probe, err = probeProcess(ctx, srv.addr, attack.Legit{From: probeIP, User: cmp.Or(sc.probeAs, "probe"), Every: 500 * time.Millisecond, Probe: true}); err != nil {
			end()
			<-done
			return row{}, fmt.Errorf("probe: %w", err)
		}
	}
	<-e.stop
	o := <-done
	window := time.Since(start)
	r.logRate = float64(srv.lines.Load()-lines0) / window.Seconds()
	r.cpu = 100 * (statCPU(srv.read("stat")) - cpu0).Seconds() / window.Seconds()
	<-sampled
	r.peakRSS = procField(srv.read("status"), "VmHWM:") << 10
	time.Sleep(*afterDur)
	r.rssAfter = srv.rss()
	r.outcome = o.check(r.tcpPeak > r.tcpBase+abortTCPMem, "stopped early: kernel TCP memory passed %s over the baseline", mib(abortTCPMem))
	r.misses = append(r.misses, r.commonMisses(!sc.noProbe)...)
	r.outcome = r.check(sc.maxRSSFactor > 0 && float64(r.rssAfter) > sc.maxRSSFactor*float64(r.baseRSS), "RSS %s after, baseline %s: over %.0fx", mib(r.rssAfter), mib(r.baseRSS), sc.maxRSSFactor).
		check(sc.maxFDs > 0 && r.fds > sc.maxFDs, "%d server descriptors > %d", r.fds, sc.maxFDs)
	return r, nil
}

// commonMisses checks what every scenario must hold.
func (r row) commonMisses(probed bool) []string {
	p := r.probe
	p99, ping99 := percentile(p.Lat, 0.99), percentile(p.Ping, 0.99)
	return outcome{}.check(probed && p99 > maxP99, "probe p99 %s ms > %s ms", ms(p99), ms(maxP99)).
		check(probed && ping99 > maxP99, "probe ping p99 %s ms > %s ms", ms(ping99), ms(maxP99)).
		check(probed && p.Failed > 0, "%d probe failures (first: %s)", p.Failed, p.FirstErr).
		check(probed && p.OK+p.Failed == 0, "no probe login ran").
		check(r.peakRSS > maxRSS, "peak RSS %s > %s", mib(r.peakRSS), mib(maxRSS)).
		check(r.rssAfter > r.baseRSS+rssReturn, "RSS %s after, baseline %s: not within %s", mib(r.rssAfter), mib(r.baseRSS), mib(rssReturn)).
		check(r.tcpPeak-r.tcpBase > maxTCPMem, "kernel TCP memory +%s > %s", mib(r.tcpPeak-r.tcpBase), mib(maxTCPMem)).
		check(r.logRate > maxLogRate, "%.0f log lines/s > %.0f", r.logRate, maxLogRate).misses
}
