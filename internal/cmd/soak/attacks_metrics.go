package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
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

// metricsConns dials n connections to the metrics port from 8 addresses
// 127.0.b.x, each dial given timeout, and starts each (if start is set)
// as soon as it is up; then it marks the attack ready and waits for its
// end. It returns the connections, for the caller to close, and says how
// many failed.
func metricsConns(e *env, b byte, n int, timeout time.Duration, start func(nc net.Conn)) (conns []net.Conn, failed int) {
	ips, dial := loopbackIPs(b, 8), dialer(e.srv.metrics, attackBuffer, timeout)
	for i := range n {
		nc, err := dial(ips[i%len(ips)])
		if err != nil {
			failed++
			continue
		}
		conns = append(conns, nc)
		if start != nil {
			start(nc)
		}
	}
	e.ready()
	<-e.stop
	return conns, failed
}

// scrapers: 500 goroutines scrape /metrics over keep-alive connections of
// their own, flat out.
func scrapers(e *env) outcome {
	var ok, busy, bad atomic.Int64
	e.ready()
	start, dial := time.Now(), dialer(e.srv.metrics, attackBuffer, ioTimeout)
	attack.Each(500, func(int) {
		tr := &http.Transport{MaxConnsPerHost: 1, DialContext: func(context.Context, string, string) (net.Conn, error) { return dial(nil) }}
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
	t := time.Since(start).Seconds()
	return shows("%.1f scrapes/s answered, %.1f/s refused busy, %d failed (closed, timed out)", float64(ok.Load())/t, float64(busy.Load())/t, bad.Load())
}

// keepAlive: 2,000 connections to the metrics port send one request each
// and then stay idle; the server must close each of them once idle, and
// never hold more than its cap.
func keepAlive(e *env) outcome {
	var answered, closedIdle, openIdle atomic.Int64
	conns, dialFailed := metricsConns(e, 7, 2000, ioTimeout, func(nc net.Conn) {
		go func() {
			_, _ = nc.Write([]byte("GET /metrics HTTP/1.1\r\nHost: soak\r\n\r\n"))
			br := bufio.NewReader(nc)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			answered.Add(1)
			_ = nc.SetReadDeadline(time.Now().Add(metricsIdle))
			if _, err := br.ReadByte(); errors.Is(err, os.ErrDeadlineExceeded) {
				openIdle.Add(1)
			} else {
				closedIdle.Add(1) // the server's close (ours comes after the count)
			}
		}()
	})
	defer closeAll(conns)
	return shows("%d connections (%d failed to connect); %d answered, %d of them closed by the server, %d still open more than %v after their answer",
		len(conns), dialFailed, answered.Load(), closedIdle.Load(), openIdle.Load(), metricsIdle).
		check(openIdle.Load() > 0, "%d keep-alive connections still open after %v idle", openIdle.Load(), metricsIdle)
}

// bigHeaders: 200 connections to the metrics port each send a request
// whose header has a 1 MiB line, and stall before its end.
func bigHeaders(e *env) outcome {
	const n = 200
	var sent, refused, closed atomic.Int64
	var wg sync.WaitGroup
	req := []byte("GET /metrics HTTP/1.1\r\nHost: soak\r\nX-Pad: " + strings.Repeat("a", 1<<20))
	conns, _ := metricsConns(e, 8, n, ioTimeout, func(nc net.Conn) {
		go func() {
			resp, err := http.ReadResponse(bufio.NewReader(nc), nil)
			if err == nil && resp.StatusCode == http.StatusRequestHeaderFieldsTooLarge {
				refused.Add(1)
			} else {
				closed.Add(1)
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = nc.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := nc.Write(req); err == nil {
				sent.Add(1)
			}
		}()
	})
	wg.Wait() // stalled: the header never ends
	closeAll(conns)
	return shows("%d of %d sent the whole 1 MiB line; %d answered 431, %d closed or timed out otherwise", sent.Load(), n, refused.Load(), closed.Load())
}

// fdLimit: the server runs with a descriptor limit of 1,024 (the
// scenario's fdLimit), and 1,013 connections to the metrics port sit
// idle. The login port must keep accepting, and the start-up must have
// said what it did about the budget.
func fdLimit(e *env) outcome {
	conns, failed := metricsConns(e, 9, 1013, 2*time.Second, nil)
	closeAll(conns)
	var said []string
	for _, l := range e.srv.startup {
		if strings.Contains(l, "descriptor limit") {
			said = append(said, l[strings.Index(l, "msg="):])
		}
	}
	return shows("%d idle connections held (%d failed to connect); start-up said: %s", len(conns), failed, strings.Join(said, " / ")).
		check(len(said) != 1, "%d start-up lines about the descriptor budget, want 1", len(said))
}
