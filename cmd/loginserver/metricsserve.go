package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The metrics endpoint's bounds. It shares the process with the login
// port, so what a scraper can take is kept small: few connections (more
// wait in the kernel's listen queue, costing no descriptor), a header of a
// few KiB that must arrive within seconds, idle keep-alive connections
// closed, and scrapes paced server-wide, so that a crowd of scrapers costs
// the login port a few percent of the CPU at most.
const (
	defaultMetricsMaxConns   = 16
	metricsReadHeaderTimeout = 2 * time.Second
	metricsReadTimeout       = 5 * time.Second
	metricsWriteTimeout      = 10 * time.Second
	metricsIdleTimeout       = 10 * time.Second
	metricsMaxHeaderBytes    = 8 << 10 // net/http reads 4 KiB past it before refusing
	scrapeRate               = 10.0    // scrapes per second, server-wide
	scrapeBurst              = 10
	scrapeWait               = 2 * time.Second // longest wait for a turn; then 503
)

// metricsAddr is where -metrics listens: an address without a host
// (":9090") is on loopback, 127.0.0.1; another interface must be named
// ("0.0.0.0:9090", "[::]:9090", "192.0.2.1:9090"), so that metrics are
// never exposed by accident. public says whether it is not loopback.
func metricsAddr(s string) (addr string, public bool, err error) {
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", false, err
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", false, errors.New("want HOST:PORT or :PORT with a numeric port")
	}
	if host == "" {
		host = "127.0.0.1"
	}
	ip := net.ParseIP(host)
	public = host != "localhost" && (ip == nil || !ip.IsLoopback())
	return net.JoinHostPort(host, port), public, nil
}

// serveMetrics serves m at http://addr/metrics, at most maxConns
// connections at once, until ctx is done, and returns the address it
// listens on and a function that waits for it to stop.
func serveMetrics(ctx context.Context, addr string, maxConns int, m *metrics, log *slog.Logger) (net.Addr, func(), error) {
	inner, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	ln := newLimitListener(inner, maxConns)
	pace := newPacer(scrapeRate, scrapeBurst, time.Now)
	scrape := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		if !pace.wait(r.Context(), scrapeWait) {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many scrapes", http.StatusServiceUnavailable)
			return
		}
		scrape.ServeHTTP(w, r)
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: metricsReadHeaderTimeout, ReadTimeout: metricsReadTimeout,
		WriteTimeout: metricsWriteTimeout, IdleTimeout: metricsIdleTimeout, MaxHeaderBytes: metricsMaxHeaderBytes,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err.Error())
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
		defer cancel()
		_ = hs.Shutdown(sctx)
	}()
	return inner.Addr(), func() { <-done }, nil
}

// limitListener accepts at most n connections open at once: Accept waits
// for one to close (as golang.org/x/net/netutil.LimitListener does), so
// the others wait in the kernel's listen queue and hold no descriptor.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, slots: make(chan struct{}, n), done: make(chan struct{})}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.slots }}, nil
}

// Close also ends an Accept waiting for a slot.
func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back when closed, once.
type limitConn struct {
	net.Conn
	release func()
	once    sync.Once
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// pacer is a token bucket whose callers wait their turn: rate a second,
// burst at once.
type pacer struct {
	rate  float64
	burst float64
	now   func() time.Time

	mu     sync.Mutex
	tokens float64
	last   time.Time
}

func newPacer(rate float64, burst int, now func() time.Time) *pacer {
	return &pacer{rate: rate, burst: float64(burst), now: now, tokens: float64(burst), last: now()}
}

// reserve takes a token, now or in the future, and says how long to wait
// for it; it takes none, and says false, when that is longer than most.
func (p *pacer) reserve(most time.Duration) (time.Duration, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.tokens = min(p.burst, p.tokens+now.Sub(p.last).Seconds()*p.rate)
	p.last = now
	wait := time.Duration(max(0, 1-p.tokens) / p.rate * float64(time.Second))
	if wait > most {
		return 0, false
	}
	p.tokens--
	return wait, true
}

// wait waits for a turn, at most most; false if there is none so soon or
// ctx ended first.
func (p *pacer) wait(ctx context.Context, most time.Duration) bool {
	d, ok := p.reserve(most)
	if !ok {
		return false
	}
	if d == 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
