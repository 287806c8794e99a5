package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// metrics counts what the listener does, for Prometheus. It is an Observer;
// the open connections are read from the Listener when scraped. Each
// metrics has its own registry, so tests can make as many as they like.
type metrics struct {
	reg          *prometheus.Registry
	accepted     prometheus.Counter
	refused      *prometheus.CounterVec
	closed       *prometheus.CounterVec
	logins       *prometheus.CounterVec
	evictions    *prometheus.CounterVec
	throttled    prometheus.Counter
	dropped      prometheus.Counter
	acceptErrors prometheus.Counter
	answerErrors prometheus.Counter
}

const metricsNamespace = "loginserver"

func newMetrics() *metrics {
	counter := func(name, help string) prometheus.Counter {
		return prometheus.NewCounter(prometheus.CounterOpts{Namespace: metricsNamespace, Name: name, Help: help})
	}
	vec := func(name, help, label string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: metricsNamespace, Name: name, Help: help}, []string{label})
	}
	m := &metrics{
		reg:          prometheus.NewRegistry(),
		accepted:     counter("connections_accepted_total", "Connections accepted and served."),
		refused:      vec("connections_refused_total", "Connections accepted and closed at once, by cause.", "cause"),
		closed:       vec("connections_closed_total", "Served connections closed, by cause.", "cause"),
		logins:       vec("logins_total", "Login requests answered, by outcome (ok, throttled, a transient result code, an eviction reason).", "outcome"),
		evictions:    vec("evictions_total", "Evictions sent, by reason.", "reason"),
		throttled:    counter("logins_throttled_total", "Logins refused without a credential check because their address was over its failed-login budget."),
		dropped:      counter("frames_dropped_total", "Frames dropped without an answer (an invalid header, a session ahead)."),
		acceptErrors: counter("accept_errors_total", "Passing Accept errors (out of descriptors, buffers or memory)."),
		answerErrors: counter("answer_errors_total", "Handler answers that could not be encoded and were denied with status 1."),
	}
	m.reg.MustRegister(m.accepted, m.refused, m.closed, m.logins, m.evictions, m.throttled, m.dropped,
		m.acceptErrors, m.answerErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watch exposes l's open connections, before and after login.
func (m *metrics) watch(l *tcp.Listener) {
	open := func(state string, pick func(pre, in int) int) prometheus.GaugeFunc {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: metricsNamespace, Name: "connections_open",
			Help: "Connections open, not logged in (prelogin) and logged in.", ConstLabels: prometheus.Labels{"state": state}},
			func() float64 { return float64(pick(l.Conns())) })
	}
	m.reg.MustRegister(open("prelogin", func(pre, _ int) int { return pre }), open("loggedin", func(_, in int) int { return in }))
}

func (m *metrics) Opened(tcp.ConnInfo) { m.accepted.Inc() }

func (m *metrics) Refused(tcp.ConnInfo) {
	m.refused.WithLabelValues(tcp.CauseTotalCap.String()).Inc()
}

func (m *metrics) Closed(_ tcp.ConnInfo, how tcp.Closing) {
	m.closed.WithLabelValues(how.Cause.String()).Inc()
	if how.Cause == tcp.CauseEvicted {
		m.evictions.WithLabelValues(how.Reason.String()).Inc()
	}
}

func (m *metrics) Login(_ tcp.ConnInfo, r lifecycle.Login) {
	m.logins.WithLabelValues(r.Label()).Inc()
	if r.Throttled {
		m.throttled.Inc()
	}
}

func (m *metrics) Dropped(tcp.ConnInfo, error) { m.dropped.Inc() }

func (m *metrics) AnswerFailed(tcp.ConnInfo, error) { m.answerErrors.Inc() }

func (m *metrics) AcceptFailed(error, time.Duration) { m.acceptErrors.Inc() }

// serveMetrics serves m at http://addr/metrics until ctx is done, and
// returns the address it listens on and a function that waits for it to
// stop.
func serveMetrics(ctx context.Context, addr string, m *metrics, log *slog.Logger) (net.Addr, func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 10 * time.Second}
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
	return ln.Addr(), func() { <-done }, nil
}
