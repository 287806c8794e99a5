package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// server is one loginserver process under test, always on 127.0.0.1.
type server struct {
	cmd     *exec.Cmd
	addr    string // the login port
	metrics string // the metrics port
	lines   atomic.Int64
	mu      sync.Mutex
	text    []string // the log lines that match keep
	keep    *regexp.Regexp
	exited  chan struct{}
}

var addrLine = regexp.MustCompile(`msg=(listening|metrics) addr=(\S+)`)

// startServer runs bin with the soak's fixed accounts on ephemeral loopback
// ports and the given extra flags, and waits until it listens. With
// fdLimit > 0 it runs under that descriptor limit, soft and hard.
func startServer(bin string, fdLimit int, extra ...string) (*server, error) {
	args := append([]string{"-addr", "127.0.0.1:0", "-metrics", "127.0.0.1:0", "-user", "iggy:iggy"}, extra...)
	s := &server{cmd: exec.Command(bin, args...), exited: make(chan struct{}), keep: keepLog}
	if fdLimit > 0 {
		s.cmd = exec.Command("sh", append([]string{"-c", fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, fdLimit), bin}, args...)...)
	}
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := s.cmd.Start(); err != nil {
		return nil, err
	}
	ready := make(chan struct{})
	go s.readLog(stderr, ready)
	go func() { _ = s.cmd.Wait(); close(s.exited) }()
	select {
	case <-ready:
		return s, nil
	case <-s.exited:
		return nil, fmt.Errorf("%s exited before listening", bin)
	case <-time.After(10 * time.Second):
		s.stop()
		return nil, fmt.Errorf("%s did not listen within 10s", bin)
	}
}

// readLog counts the server's log lines and learns its addresses.
func (s *server) readLog(r io.Reader, ready chan<- struct{}) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var once sync.Once
	for sc.Scan() {
		s.lines.Add(1)
		if s.keep != nil && s.keep.MatchString(sc.Text()) {
			s.mu.Lock()
			s.text = append(s.text, sc.Text())
			s.mu.Unlock()
		}
		if m := addrLine.FindStringSubmatch(sc.Text()); m != nil {
			if m[1] == "metrics" {
				s.metrics = m[2]
			} else {
				s.addr = m[2]
				once.Do(func() { close(ready) })
			}
		}
	}
}

// stop ends the server with SIGTERM (SIGKILL after 5 s).
func (s *server) stop() {
	_ = s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.exited:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
	}
}

// procStatus reads a field of /proc/PID/status in kB, as bytes.
func (s *server) procStatus(field string) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	return statusField(string(b), field)
}

// statusField finds "Field:   123 kB" in a /proc status text.
func statusField(text, field string) int64 {
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return -1
		}
		return kb << 10
	}
	return -1
}

func (s *server) rss() int64 { return s.procStatus("VmRSS") }

// cpuTime is the CPU time the server has used, user and system, from
// /proc/PID/stat (in clock ticks of 1/100 s, as on every Linux the soak
// runs on); -1 if unknown.
func (s *server) cpuTime() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	return statCPU(string(b))
}

// statCPU reads utime and stime (fields 14 and 15) of a /proc/PID/stat
// text; the command name, field 2, may hold spaces, so fields are counted
// after its closing parenthesis.
func statCPU(text string) time.Duration {
	i := strings.LastIndexByte(text, ')')
	if i < 0 {
		return -1
	}
	f := strings.Fields(text[i+1:])
	if len(f) < 13 {
		return -1
	}
	var ticks int64
	for _, field := range f[11:13] {
		n, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return -1
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
func (s *server) peakRSS() int64 { return s.procStatus("VmHWM") }

// fds counts the server's open descriptors.
func (s *server) fds() int {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	return len(ents)
}

// scrape reads every sample of the server's metrics, nil on failure.
func (s *server) scrape() map[string]float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.metrics+"/metrics", nil)
	if err != nil {
		return nil
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok || strings.HasPrefix(name, "#") {
			continue
		}
		if v, err := strconv.ParseFloat(value, 64); err == nil {
			out[name] = v
		}
	}
	return out
}

// keptLines are the log lines that matched keepLines, so far.
func (s *server) keptLines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.text...)
}

// keepLog is the server's log lines kept for the scenarios to read: the
// start-up warnings.
var keepLog = regexp.MustCompile(`level=(WARN|ERROR)`)

// tcpMem is the kernel's TCP memory, machine-wide: the pages of
// /proc/net/sockstat's "TCP: ... mem N", in bytes; -1 if unknown.
func tcpMem() int64 {
	b, err := os.ReadFile("/proc/net/sockstat")
	if err != nil {
		return -1
	}
	return sockstatTCPMem(string(b), int64(os.Getpagesize()))
}

// sockstatTCPMem reads the mem field of the TCP line, in pages, as bytes.
func sockstatTCPMem(text string, page int64) int64 {
	for _, line := range strings.Split(text, "\n") {
		rest, ok := strings.CutPrefix(line, "TCP:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		for i := 0; i+1 < len(f); i++ {
			if f[i] == "mem" {
				n, err := strconv.ParseInt(f[i+1], 10, 64)
				if err != nil {
					return -1
				}
				return n * page
			}
		}
	}
	return -1
}

// watcher records the peaks of the server's descriptors and RSS and of the
// kernel's TCP memory while an attack runs, and calls abort once the TCP
// memory passes abortTCPMem over base: the machine is shared, and an
// attack that pins that much has missed already.
type watcher struct {
	stop    chan struct{}
	done    chan struct{}
	peakFDs atomic.Int64
	peakTCP atomic.Int64
	abort   atomic.Bool
	srv     *server
}

func watch(s *server, base int64, abort func()) *watcher {
	w := &watcher{stop: make(chan struct{}), done: make(chan struct{}), srv: s}
	w.peakTCP.Store(base)
	go func() {
		defer close(w.done)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			w.peakFDs.Store(max(w.peakFDs.Load(), int64(s.fds())))
			m := tcpMem()
			w.peakTCP.Store(max(w.peakTCP.Load(), m))
			if m > base+abortTCPMem && !w.abort.Swap(true) {
				abort()
			}
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

func (w *watcher) aborted() bool { return w.abort.Load() }

// end stops the watcher: peak descriptors, peak RSS, peak TCP memory.
func (w *watcher) end() (int, int64, int64) {
	close(w.stop)
	<-w.done
	return int(w.peakFDs.Load()), w.srv.peakRSS(), w.peakTCP.Load()
}
