package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// server is one loginserver process under test, always on 127.0.0.1.
type server struct {
	cmd     *exec.Cmd
	stop    func()   // ends it: SIGINT, SIGKILL 5 s later
	addr    string   // the login port
	metrics string   // the metrics port
	startup []string // its log's lines before it listened, for the scenarios to read
	lines   atomic.Int64
}

var addrLine = regexp.MustCompile(`msg=(listening|metrics) addr=(\S+)`)

// startServer runs bin with the soak's fixed accounts on ephemeral loopback
// ports, and waits until it listens. With fdLimit > 0 it runs under that
// descriptor limit, soft and hard.
func startServer(bin string, fdLimit int) (*server, error) {
	args := []string{bin, "-addr", "127.0.0.1:0", "-metrics", "127.0.0.1:0", "-user", "iggy:iggy", "-user", "probe:probe"}
	if fdLimit > 0 {
		args = append([]string{"sh", "-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, fdLimit)}, args...)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd, stderr, err := start(ctx, (*exec.Cmd).StderrPipe, args...)
	if err != nil {
		cancel()
		return nil, err
	}
	exited, ready := make(chan struct{}), make(chan struct{})
	s := &server{cmd: cmd, stop: func() { cancel(); <-exited }}
	go s.readLog(stderr, ready)
	go func() { _ = cmd.Wait(); close(exited) }()
	select {
	case <-ready:
		return s, nil
	case <-exited:
		return nil, fmt.Errorf("%s exited before listening", bin)
	case <-time.After(10 * time.Second):
		s.stop()
		return nil, fmt.Errorf("%s did not listen within 10s", bin)
	}
}

// readLog counts the server's log lines, learns its addresses and keeps
// what it said before it listened.
func (s *server) readLog(r io.Reader, ready chan<- struct{}) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		s.lines.Add(1)
		if ready == nil {
			continue
		}
		switch m := addrLine.FindStringSubmatch(sc.Text()); {
		case m == nil:
			s.startup = append(s.startup, sc.Text())
		case m[1] == "metrics":
			s.metrics = m[2]
		default:
			s.addr = m[2]
			close(ready)
			ready = nil
		}
	}
}

// start runs args until ctx is done, then ends it with SIGINT, and SIGKILL
// 5 s later. pipe gives the reader of its standard output or error; a
// standard error not piped goes to ours.
func start(ctx context.Context, pipe func(*exec.Cmd) (io.ReadCloser, error), args ...string) (*exec.Cmd, io.ReadCloser, error) {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	r, err := pipe(cmd)
	if err != nil {
		return nil, nil, err
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	return cmd, r, cmd.Start()
}

// The probe, the lock-outs' legitimate client and the throughput
// scenario's echo server each run in a process of their own (the soak
// started again), so that their timings do not wait behind the attackers'
// goroutines in the soak's scheduler: the attackers share the machine
// with them, as they would, but not its Go runtime.

// child runs the soak again with args until ctx is done, and returns it
// and its standard output.
func child(ctx context.Context, args ...string) (*exec.Cmd, io.ReadCloser, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	return start(ctx, (*exec.Cmd).StdoutPipe, append([]string{self}, args...)...)
}

// probeProcess runs l, the probe or the lock-outs' legitimate client,
// against addr until ctx is done, in a process of its own. Its password
// is its account's name: passwords stay out of command lines.
func probeProcess(ctx context.Context, addr string, l attack.Legit) (attack.Result, error) {
	var r attack.Result
	l.Password = ""
	arg, _ := json.Marshal(l) // its fields all marshal
	cmd, out, err := child(ctx, "-probe", string(arg), "-probe-addr", addr)
	if err != nil {
		return r, err
	}
	err = json.NewDecoder(out).Decode(&r)
	_ = cmd.Wait() // an error once ctx is done, by design: a crash shows in the decoding
	return r, err
}

// probeMain is the probe process: it runs the Legit given in JSON until
// SIGINT and writes its attack.Result as JSON. The probe dials with the
// system's buffers, the legitimate client with an attacker's.
func probeMain(addr, arg string) {
	var l attack.Legit
	if err := json.Unmarshal([]byte(arg), &l); err != nil {
		fmt.Fprintln(os.Stderr, "soak -probe:", err)
		os.Exit(2)
	}
	l.Password = l.User
	bufs := attackBuffer
	if l.Probe {
		bufs = 0
	}
	stop, _ := signal.NotifyContext(context.Background(), os.Interrupt) // how the soak ends it
	_ = json.NewEncoder(os.Stdout).Encode(l.Run(dialer(addr, bufs, ioTimeout), stop.Done()))
}

// read is the server's /proc/PID/name, empty if it cannot be read.
func (s *server) read(name string) string {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/%s", s.cmd.Process.Pid, name))
	return string(b)
}

// procField is the number after the first key in a /proc text; -1 if
// there is none.
func procField(text, key string) int64 {
	n := int64(-1)
	if _, after, ok := strings.Cut(text, key); ok {
		_, _ = fmt.Sscan(after, &n)
	}
	return n
}

// rss is VmRSS of /proc/PID/status, in bytes.
func (s *server) rss() int64 { return procField(s.read("status"), "VmRSS:") << 10 }

// statCPU is the CPU time, user and system, of a /proc/PID/stat text:
// its utime and stime (fields 14 and 15) in clock ticks of 1/100 s, as on
// every Linux the soak runs on; -1 if unknown. The command name, field 2,
// may hold spaces, so fields are counted after its closing parenthesis.
func statCPU(text string) time.Duration {
	var utime, stime int64
	f := strings.Fields(text[strings.LastIndexByte(text, ')')+1:])
	if len(f) < 13 {
		return -1
	}
	if _, err := fmt.Sscan(f[11]+" "+f[12], &utime, &stime); err != nil {
		return -1
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// scrape reads every sample of the server's metrics, none on failure.
func (s *server) scrape() map[string]float64 {
	out := map[string]float64{}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get("http://" + s.metrics + "/metrics")
	if err != nil {
		return out
	}
	defer resp.Body.Close()
	for sc := bufio.NewScanner(resp.Body); resp.StatusCode == http.StatusOK && sc.Scan(); {
		var name string
		var v float64
		if _, err := fmt.Sscan(sc.Text(), &name, &v); err == nil { // "# HELP ..." is no number
			out[name] = v
		}
	}
	return out
}

// tcpMem is the kernel's TCP memory, machine-wide: the pages of
// /proc/net/sockstat's "TCP: ... mem N", in bytes; -1 if unknown.
func tcpMem() int64 {
	b, _ := os.ReadFile("/proc/net/sockstat")
	_, tcp, _ := strings.Cut(string(b), "TCP:") // its mem comes before the other lines'
	return max(procField(tcp, "mem")*int64(os.Getpagesize()), -1)
}
