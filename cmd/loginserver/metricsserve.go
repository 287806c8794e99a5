package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"syscall"
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
	// The kernel's buffers of each metrics connection, also of those
	// waiting in the listen queue: a request fits in the receive buffer,
	// and what a scraper does not read waits in its few KiB.
	metricsRecvBuffer = 16 << 10
	metricsSendBuffer = 64 << 10
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
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		return setSockBuffers(c, metricsRecvBuffer, metricsSendBuffer)
	}}
	inner, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	ln := newLimitListener(inner, maxConns)
	pace := newPacer(scrapeRate, scrapeBurst, time.Now)
	scrape := promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
	mux := http.NewServeMux()
	mux.HandleFunc("/metrics", func(w http.ResponseWriter, r *http.Request) {
		if !pace.wait(r.Context(), scrapeWait) {
			// Refused slowly, holding its connection, so that refusals
			// cannot be had faster than scrapes.
			sleep(r.Context(), scrapeWait)
			w.Header().Set("Retry-After", "1")
			http.Error(w, "too many scrapes", http.StatusServiceUnavailable)
			return
		}
		scrape.ServeHTTP(w, r)
	})
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: metricsReadHeaderTimeout, ReadTimeout: metricsReadTimeout,
		WriteTimeout: metricsWriteTimeout, IdleTimeout: metricsIdleTimeout, MaxHeaderBytes: metricsMaxHeaderBytes,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug), ConnState: ln.connState}
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
// When all are taken and a newcomer is there, it closes the keep-alive
// connection idle longest to make room (as nginx reuses idle keep-alive
// connections), so idle connections cannot keep a scraper out.
type limitListener struct {
	net.Listener
	slots     chan struct{}
	done      chan struct{}
	closeOnce sync.Once

	mu    sync.Mutex
	idle  map[net.Conn]time.Time // http.Server's idle keep-alive connections, since when
	idled chan struct{}          // a connection went idle
}

func newLimitListener(l net.Listener, n int) *limitListener {
	return &limitListener{Listener: l, slots: make(chan struct{}, n), done: make(chan struct{}),
		idle: make(map[net.Conn]time.Time), idled: make(chan struct{}, 1)}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.slots
			return nil, err
		}
		return l.wrap(c), nil
	case <-l.done:
		return nil, net.ErrClosed
	default:
	}
	// All slots are taken. Only a newcomer that is there, accepted (one
	// descriptor past the cap: http.Server accepts one at a time), makes
	// an idle connection close; it waits for a slot as long as none is.
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	for {
		l.closeIdlest()
		select {
		case l.slots <- struct{}{}:
			return l.wrap(c), nil
		case <-l.idled:
		case <-l.done:
			_ = c.Close()
			return nil, net.ErrClosed
		}
	}
}

func (l *limitListener) wrap(c net.Conn) net.Conn {
	return &limitConn{Conn: c, release: func() { <-l.slots }}
}

// connState is the http.Server's ConnState hook: it tracks which
// connections are idle.
func (l *limitListener) connState(c net.Conn, s http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if s == http.StateIdle {
		l.idle[c] = time.Now()
		select {
		case l.idled <- struct{}{}:
		default:
		}
	} else {
		delete(l.idle, c)
	}
}

// closeIdlest closes the connection idle longest, if one is.
func (l *limitListener) closeIdlest() {
	l.mu.Lock()
	var oldest net.Conn
	var since time.Time
	for c, t := range l.idle {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	delete(l.idle, oldest)
	l.mu.Unlock()
	if oldest != nil {
		_ = oldest.Close()
	}
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
	return sleep(ctx, d)
}

// sleep waits d, false if ctx ended first.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
