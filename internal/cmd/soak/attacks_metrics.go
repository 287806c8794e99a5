package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/internal/attack"
)

// metricsIdle is how long after its answer the soak expects a keep-alive
// connection to the metrics port to be closed: the server's idle timeout
// (10 s) and some slack.
const metricsIdle = 12 * time.Second

// maxMetricsFDs bounds the server's descriptors while only the metrics
// port is attacked: its connection cap (16) plus the login server's own.
const maxMetricsFDs = 64

// scrapers: n goroutines scrape /metrics over keep-alive connections of
// their own, flat out.
func scrapers(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		var ok, busy, bad atomic.Int64
		var wg sync.WaitGroup
		start := time.Now()
		for range n {
			spawn(&wg, func() {
				tr := &http.Transport{MaxConnsPerHost: 1, DialContext: attackDialer(nil, ioTimeout).DialContext}
				defer tr.CloseIdleConnections()
				cl := &http.Client{Transport: tr, Timeout: 30 * time.Second}
				for attack.Pause(0, e.stop) {
					resp, err := cl.Get("http://" + e.srv.metrics + "/metrics")
					if err != nil {
						bad.Add(1)
						continue
					}
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					if resp.StatusCode == http.StatusOK {
						ok.Add(1)
					} else {
						busy.Add(1)
					}
				}
			})
		}
		return func() outcome {
			wg.Wait()
			t := time.Since(start).Seconds()
			return outcome{result: fmt.Sprintf("%.1f scrapes/s answered, %.1f/s refused busy, %d failed (closed, timed out)",
				float64(ok.Load())/t, float64(busy.Load())/t, bad.Load())}
		}
	}
}

// keepAlive: n connections to the metrics port send one request each and
// then stay idle; the server must close each of them once idle, and never
// hold more than its cap.
func keepAlive(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		type state struct {
			answeredAt, closedAt atomic.Int64 // unix nanoseconds, 0 if not yet
		}
		conns := make([]net.Conn, 0, n)
		states := make([]*state, n)
		var dialFailed int
		for i := range n {
			d := attackDialer(loopbackIPs(7, 8)[i%8], ioTimeout)
			nc, err := d.Dial("tcp", e.srv.metrics)
			if err != nil {
				dialFailed++
				continue
			}
			conns = append(conns, nc)
			st := &state{}
			states[len(conns)-1] = st
			go func() {
				_, _ = nc.Write([]byte("GET /metrics HTTP/1.1\r\nHost: soak\r\n\r\n"))
				br := bufio.NewReader(nc)
				resp, err := http.ReadResponse(br, nil)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					st.answeredAt.Store(time.Now().UnixNano())
				}
				_, _ = br.ReadByte() // the server's close, or ours
				st.closedAt.Store(time.Now().UnixNano())
			}()
		}
		return func() outcome {
			end := time.Now()
			var answered, closedIdle, openIdle int
			for i := range conns {
				st := states[i]
				a, c := st.answeredAt.Load(), st.closedAt.Load()
				if a == 0 {
					continue
				}
				answered++
				switch {
				case c != 0:
					closedIdle++
				case end.Sub(time.Unix(0, a)) > metricsIdle:
					openIdle++
				}
			}
			for _, nc := range conns {
				_ = nc.Close()
			}
			o := outcome{result: fmt.Sprintf("%d connections (%d failed to connect); %d answered, %d of them closed by the server, %d still open more than %v after their answer",
				len(conns), dialFailed, answered, closedIdle, openIdle, metricsIdle)}
			if openIdle > 0 {
				o.misses = append(o.misses, fmt.Sprintf("%d keep-alive connections still open after %v idle", openIdle, metricsIdle))
			}
			return o
		}
	}
}

// bigHeaders: n connections to the metrics port each send a request whose
// header has a 1 MiB line, and stall before its end.
func bigHeaders(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		var sent, refused, closed atomic.Int64
		var wg sync.WaitGroup
		chunk := []byte(strings.Repeat("a", 64<<10))
		var mu sync.Mutex
		var conns []net.Conn
		for i := range n {
			spawn(&wg, func() {
				d := attackDialer(loopbackIPs(8, 8)[i%8], ioTimeout)
				nc, err := d.Dial("tcp", e.srv.metrics)
				if err != nil {
					return
				}
				mu.Lock()
				conns = append(conns, nc)
				mu.Unlock()
				go func() {
					resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
					if err == nil && resp.StatusCode == http.StatusRequestHeaderFieldsTooLarge {
						refused.Add(1)
					} else {
						closed.Add(1)
					}
				}()
				_ = nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
				if _, err := nc.Write([]byte("GET /metrics HTTP/1.1\r\nHost: soak\r\nX-Pad: ")); err != nil {
					return
				}
				for range 16 {
					if _, err := nc.Write(chunk); err != nil {
						return
					}
				}
				sent.Add(1)
				<-e.stop // stalled: the header never ends
			})
		}
		return func() outcome {
			wg.Wait()
			mu.Lock()
			for _, nc := range conns {
				_ = nc.Close()
			}
			mu.Unlock()
			return outcome{result: fmt.Sprintf("%d of %d sent the whole 1 MiB line; %d answered 431, %d closed or timed out otherwise",
				sent.Load(), n, refused.Load(), closed.Load())}
		}
	}
}

// fdLimit: the server runs with a descriptor limit of 1,024 (the
// scenario's fdLimit), and n connections to the metrics port sit idle. The
// login port must keep accepting, and the start-up must have said what it
// did about the budget.
func fdLimit(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		var conns []net.Conn
		failed := 0
		for i := range n {
			d := attackDialer(loopbackIPs(9, 8)[i%8], 2*time.Second)
			nc, err := d.Dial("tcp", e.srv.metrics)
			if err != nil {
				failed++
				continue
			}
			conns = append(conns, nc)
		}
		return func() outcome {
			for _, nc := range conns {
				_ = nc.Close()
			}
			var said []string
			for _, l := range e.srv.keptLines() {
				if strings.Contains(l, "descriptor limit") {
					said = append(said, l[strings.Index(l, "msg="):])
				}
			}
			o := outcome{result: fmt.Sprintf("%d idle connections held (%d failed to connect); start-up said: %s", len(conns), failed, strings.Join(said, " / "))}
			if len(said) != 1 {
				o.misses = append(o.misses, fmt.Sprintf("%d start-up lines about the descriptor budget, want 1", len(said)))
			}
			return o
		}
	}
}
