package main

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// metrics counts what the listener does, for Prometheus. It is an Observer;
// the open connections are read from the Listener when scraped. Each
// metrics has its own registry, so tests can make as many as they like.
type metrics struct {
	reg      *prometheus.Registry
	accepted prometheus.Counter
	limited  *prometheus.CounterVec
	closed   *prometheus.CounterVec
	// sessionsClosed counts the closed connections that were logged in:
	// a cause meant for connections not logged in must never show here.
	sessionsClosed *prometheus.CounterVec
	logins         *prometheus.CounterVec
	evictions      *prometheus.CounterVec
	throttled      prometheus.Counter
	dropped        prometheus.Counter
	acceptErrors   prometheus.Counter
	answerErrors   prometheus.Counter
	binds          *prometheus.CounterVec
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
		reg:            prometheus.NewRegistry(),
		accepted:       counter("connections_accepted_total", "Connections accepted and served."),
		limited:        vec("admission_limited_total", "Connections and logins refused by an admission limit (conns, address, accept-rate, account, reserve, user-address).", "limit"),
		closed:         vec("connections_closed_total", "Served connections closed, by cause.", "cause"),
		sessionsClosed: vec("sessions_closed_total", "Served connections closed while logged in, by cause.", "cause"),
		logins:         vec("logins_total", "Login requests answered, by outcome (OK, Throttled, a transient result code, an eviction reason).", "outcome"),
		evictions:      vec("evictions_total", "Evictions sent, by reason.", "reason"),
		throttled:      counter("logins_throttled_total", "Logins refused without a credential check: their address was over its failed-login budget, or their account at a session quota."),
		dropped:        counter("frames_dropped_total", "Frames dropped without an answer (an invalid header, a session ahead)."),
		acceptErrors:   counter("accept_errors_total", "Passing Accept errors (out of descriptors, buffers or memory)."),
		answerErrors:   counter("answer_errors_total", "Handler answers that could not be encoded and were denied with status 1."),
		binds:          vec("binds_total", "BIND_SESSION requests answered (protocol 0.11.1), by outcome (OK, or the status that refused it).", "outcome"),
	}
	m.reg.MustRegister(m.accepted, m.limited, m.closed, m.sessionsClosed, m.logins, m.evictions, m.throttled, m.dropped,
		m.acceptErrors, m.answerErrors, m.binds,
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

func (m *metrics) Opened(tcp.ConnInfo) {
	if m != nil {
		m.accepted.Inc()
	}
}

func (m *metrics) Limited(_ tcp.ConnInfo, lim tcp.Limit) {
	if m != nil {
		m.limited.WithLabelValues(lim.String()).Inc()
	}
}

func (m *metrics) Closed(_ tcp.ConnInfo, how tcp.Closing) {
	if m == nil {
		return
	}
	m.closed.WithLabelValues(how.Cause.String()).Inc()
	if how.LoggedIn {
		m.sessionsClosed.WithLabelValues(how.Cause.String()).Inc()
	}
	if how.Cause == tcp.CauseEvicted {
		m.evictions.WithLabelValues(how.Reason.String()).Inc()
	}
}

func (m *metrics) Login(_ tcp.ConnInfo, r lifecycle.Login) {
	if m == nil {
		return
	}
	if r.Bind {
		m.binds.WithLabelValues(r.Label()).Inc()
		return
	}
	m.logins.WithLabelValues(r.Label()).Inc()
	if r.Throttled {
		m.throttled.Inc()
	}
}

func (m *metrics) Dropped(tcp.ConnInfo, error) {
	if m != nil {
		m.dropped.Inc()
	}
}

func (m *metrics) AnswerFailed(tcp.ConnInfo, error) {
	if m != nil {
		m.answerErrors.Inc()
	}
}

func (m *metrics) AcceptFailed(error, time.Duration) {
	if m != nil {
		m.acceptErrors.Inc()
	}
}
