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
	exited  chan struct{}
}

var addrLine = regexp.MustCompile(`msg=(listening|metrics) addr=(\S+)`)

// startServer runs bin with the soak's fixed accounts on ephemeral loopback
// ports and the given extra flags, and waits until it listens.
func startServer(bin string, extra ...string) (*server, error) {
	args := append([]string{"-addr", "127.0.0.1:0", "-metrics", "127.0.0.1:0", "-user", "iggy:iggy"}, extra...)
	s := &server{cmd: exec.Command(bin, args...), exited: make(chan struct{})}
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

func (s *server) rss() int64     { return s.procStatus("VmRSS") }
func (s *server) peakRSS() int64 { return s.procStatus("VmHWM") }

// fds counts the server's open descriptors.
func (s *server) fds() int {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", s.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	return len(ents)
}

// metric scrapes one sample of the server's metrics, 0 if absent.
func (s *server) metric(sample string) float64 {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+s.metrics+"/metrics", nil)
	if err != nil {
		return -1
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), sample+" "); ok {
			v, _ := strconv.ParseFloat(rest, 64)
			return v
		}
	}
	return 0
}

// sampler records the peak of the server's open descriptors while it runs.
type sampler struct {
	stop    chan struct{}
	done    chan struct{}
	peakFDs atomic.Int64
}

func sample(s *server) *sampler {
	sm := &sampler{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(sm.done)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			sm.peakFDs.Store(max(sm.peakFDs.Load(), int64(s.fds())))
			select {
			case <-sm.stop:
				return
			case <-t.C:
			}
		}
	}()
	return sm
}

func (sm *sampler) end() int {
	close(sm.stop)
	<-sm.done
	return int(sm.peakFDs.Load())
}
