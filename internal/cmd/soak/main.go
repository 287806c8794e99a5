// Command soak runs the attacks on the login server at full size against a
// cmd/loginserver process with its default flags, on loopback only and for
// a fixed time each, and prints a Markdown table: a probe client's login
// latency (p50, p99) and failures during each attack, the server's peak
// RSS and its RSS 10 s after the attack, the kernel's TCP memory
// (/proc/net/sockstat), the server's log lines per second, its peak
// descriptors, what each attack shows, and which must-hold it missed. It
// exits non-zero on a miss. It is run by `make soak`, not by CI.
//
// Every connection stays on the loopback interface: attackers bind source
// addresses 127.0.x.y (Linux routes all of 127/8 on loopback), the probe
// logs in from 127.0.0.254.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// The must-holds of every scenario.
const (
	maxP99      = 50 * time.Millisecond
	maxRSS      = 64 << 20
	maxTCPMem   = 64 << 20 // over the machine's baseline
	maxLogRate  = 10.0     // server log lines per second
	rssReturn   = 10 << 20 // RSS 10 s after, over the baseline
	abortTCPMem = 256 << 20
)

// The run's settings.
var (
	serverBin   = flag.String("server", "", "path of a built cmd/loginserver (required)")
	attackDur   = flag.Duration("dur", 10*time.Second, "how long each attack runs")
	loggedInDur = flag.Duration("logged-in-dur", 30*time.Second,
		"how long the logged-in pingers' attack runs (to see their 25 s ping)")
	afterDur = flag.Duration("after", 10*time.Second, "wait after each attack before reading the server's RSS again")
)

func main() {
	run := flag.String("run", "", "run only the scenarios whose short name matches this regular expression (-list shows them)")
	list := flag.Bool("list", false, "list the scenarios' short names and exit")
	probe := flag.String("probe", "", "be the probe process: run this internal/attack.Legit, in JSON, with its account's name as password (the soak runs itself so)")
	probeAddr := flag.String("probe-addr", "", "the probe process's server")
	echo := flag.Bool("echo", false, "be the echo server of the throughput scenario (the soak runs itself so)")
	flag.Parse()
	switch {
	case *echo:
		echoMain()
	case *probe != "":
		probeMain(*probeAddr, *probe)
	case *list:
		for _, sc := range scenarios() {
			fmt.Printf("%-16s %s\n", sc.id, sc.name)
		}
	default:
		os.Exit(soak(*run))
	}
}

// soak runs the scenarios that match run and prints their table; it
// returns the exit status.
func soak(run string) int {
	re, err := regexp.Compile(run)
	if err != nil || *serverBin == "" {
		fmt.Fprintln(os.Stderr, "soak: -server is required, -run a regular expression:", err)
		return 2
	}
	// The soak holds 8,192 connections and more: Go raised the soft
	// descriptor limit to the hard one as it started.
	var lim syscall.Rlimit
	if err = syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err == nil && lim.Cur < 10000 {
		err = fmt.Errorf("descriptor limit %d is too low for 8,192 peers (raise the hard limit: ulimit -Hn)", lim.Cur)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 1
	}
	var rows []row
	missed := 0
	for _, sc := range scenarios() {
		if !re.MatchString(sc.id) {
			continue
		}
		fmt.Fprintf(os.Stderr, "soak: %s: %s\n", sc.id, sc.name)
		r, serr := runScenario(sc)
		if err = serr; err != nil {
			err = fmt.Errorf("%s: %w", sc.id, err)
			break
		}
		fmt.Fprintf(os.Stderr, "soak: %s: done, %s\n", sc.id, verdict(r))
		rows = append(rows, r)
		missed += min(len(r.misses), 1)
	}
	if len(rows) == 0 && err == nil {
		err = errors.New("-run matches no scenario (-list shows them)")
	}
	printTable(os.Stdout, rows)
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "soak:", err)
		return 1
	case missed > 0:
		fmt.Fprintf(os.Stderr, "soak: %d of %d scenarios missed a must-hold\n", missed, len(rows))
		return 1
	}
	return 0
}

func verdict(r row) string {
	if len(r.misses) == 0 {
		return "holds"
	}
	return "MISS: " + strings.Join(r.misses, "; ")
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

func ms(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d)/float64(time.Millisecond)) }

// printTable writes the rows as Markdown.
func printTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| scenario | probe ok/failed | p50 ms | p99 ms | ping p99 ms | peak RSS | RSS 10 s after (baseline) | kernel TCP peak over baseline | log lines/s | server CPU | peak fds | what it shows | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		logins, p50, p99, ping99 := "—", "—", "—", "—"
		if p := r.probe; p.OK+p.Failed > 0 {
			logins = fmt.Sprintf("%d / %d", p.OK, p.Failed)
			if p.OK > 0 {
				p50, p99, ping99 = ms(percentile(p.Lat, 0.50)), ms(percentile(p.Lat, 0.99)), ms(percentile(p.Ping, 0.99))
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s (%s) | %s (%s) | %.1f | %.0f%% | %d | %s | %s |\n", r.name, logins, p50, p99, ping99,
			mib(r.peakRSS), mib(r.rssAfter), mib(r.baseRSS), mib(r.tcpPeak-r.tcpBase), mib(r.tcpBase), r.logRate, r.cpu, r.fds,
			strings.ReplaceAll(r.result, "|", "/"), strings.ReplaceAll(verdict(r), "|", "/"))
	}
}
