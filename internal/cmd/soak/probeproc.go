package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// The probe runs in a process of its own (the soak started again with
// -probe), so that its timings do not wait behind the attackers'
// goroutines in the soak's scheduler: the attackers share the machine with
// it, as they would, but not its Go runtime.

// probeMain is the probe process: it probes until its standard input
// closes, writing "ok LOGIN_NANOSECONDS PING_NANOSECONDS" or "fail ERROR"
// a line per login. With think >= 0 it is the lock-outs' legitimate client
// instead, in a process of its own for the same reason, and writes its
// logins so when it ends.
func probeMain(addr, from, user string, interval, think time.Duration) {
	stop := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	w := bufio.NewWriter(os.Stdout)
	report := func(lat, ping time.Duration, err error) {
		if err != nil {
			fmt.Fprintf(w, "fail %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Fprintf(w, "ok %d %d\n", lat.Nanoseconds(), ping.Nanoseconds())
		}
		_ = w.Flush()
	}
	if think < 0 {
		probeEach(addr, net.ParseIP(from), user, interval, stop, report)
		return
	}
	r := attack.Legit{From: net.ParseIP(from), User: user, Password: user, Think: think, Every: interval}.Run(dialer(addr), stop)
	for _, lat := range r.Lat {
		report(lat, 0, nil)
	}
	for range r.Failed {
		report(0, 0, r.FirstErr)
	}
}

// probeProcess runs the probe in a process of its own until stop; with
// extra "-probe-think", think, the legitimate client.
func probeProcess(addr string, local net.IP, user string, interval time.Duration, stop <-chan struct{}, extra ...string) (probeResult, error) {
	self, err := os.Executable()
	if err != nil {
		return probeResult{}, err
	}
	cmd := exec.Command(self, append([]string{"-probe", addr, "-probe-from", local.String(), "-probe-as", user,
		"-probe-every", interval.String()}, extra...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return probeResult{}, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return probeResult{}, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return probeResult{}, err
	}
	go func() {
		<-stop
		_ = in.Close()
	}()
	r := parseProbe(out)
	return r, cmd.Wait()
}

// parseProbe reads the probe process's lines.
func parseProbe(out io.Reader) probeResult {
	var r probeResult
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		switch kind {
		case "ok":
			login, ping, _ := strings.Cut(rest, " ")
			if ns, err := strconv.ParseInt(login, 10, 64); err == nil {
				r.lat = append(r.lat, time.Duration(ns))
			}
			if ns, err := strconv.ParseInt(ping, 10, 64); err == nil {
				r.ping = append(r.ping, time.Duration(ns))
			}
		case "fail":
			r.fails++
			if r.firstErr == "" {
				r.firstErr = rest
			}
		}
	}
	return r
}
