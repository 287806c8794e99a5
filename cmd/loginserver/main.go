// Command loginserver is a loopback Iggy login server: it speaks the
// connection lifecycle of the wire reference (login, ping, logout, session
// fencing, evictions) to real SDK clients and denies every other command
// with status 3. It bounds what hostile peers can take (connections, time,
// memory, password guesses), logs the first of each connection event per
// address and sums up the rest every -log-every (per frame with -trace),
// never a secret, and can serve Prometheus metrics, on loopback unless
// told otherwise. At start-up it fits -max-conns to the descriptor limit.
//
// Usage:
//
//	IGGY_ROOT_USERNAME=iggy IGGY_ROOT_PASSWORD=... loginserver
//	            [-users-file PATH] [-user NAME:PASSWORD ...] [-token TOKEN=NAME ...]
//	            [-inactive NAME ...] [-addr 127.0.0.1:8090] [-protocol 0.11.0] [-version]
//	            [-max-conns 8192] [-max-prelogin 256] [-login-timeout 10s]
//	            [-idle-timeout 0] [-read-timeout 30s] [-write-timeout 10s]
//	            [-max-frame 1048576] [-large-frame-memory 8388608]
//	            [-login-burst 20] [-login-rate 5] [-trace] [-metrics ADDR]
//	            [-metrics-max-conns 16] [-log-every 10s]
//
// Accounts come from IGGY_ROOT_USERNAME and IGGY_ROOT_PASSWORD (one user,
// as the Iggy server takes its root user), from -users-file (a user
// NAME:PASSWORD or a token TOKEN=NAME a line, blank lines and # comments
// allowed; refused unless only its owner may read and write it), and from
// -user and -token, which any local user can read in the process list and
// are meant for tests. User ids are 1, 2, ... in that order; -inactive and
// tokens may name a user from any of them. No error message shows a
// password, a token, a user name or a line of the file: it names the
// variable, the flag and its position, or the file and line. The accepted
// window is the default one of -protocol. -version prints the release and
// build, -h every flag with its default. SIGINT or SIGTERM stops it
// cleanly.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stderr, nil)
	switch {
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.Is(err, errPrintVersion):
		printVersion(os.Stdout)
	case err != nil:
		fmt.Fprintln(os.Stderr, "loginserver:", err)
		os.Exit(2)
	}
}

// fitBudget makes opts' connections, with the metrics endpoint's, fit the
// process's descriptor limit (descriptors.go), and logs in one line what
// it changed.
func fitBudget(opts *tcp.ServeOptions, cfg config, logger *slog.Logger) error {
	lim, ok := processFDLimit()
	if !ok {
		return nil
	}
	metricsConns := 0
	if cfg.Metrics != "" {
		metricsConns = cfg.MetricsMaxConns
	}
	fit, err := fitDescriptors(opts.MaxConns, opts.MaxPreLogin, metricsConns, lim)
	if err != nil {
		return err
	}
	opts.MaxConns, opts.MaxPreLogin = fit.maxConns, fit.maxPreLogin
	switch {
	case fit.lowered:
		logger.Warn(fit.note)
	case fit.note != "":
		logger.Info(fit.note)
	}
	return nil
}

// shutdownGrace bounds the wait for connections to end after a signal.
const shutdownGrace = 5 * time.Second

// run serves until ctx is done. ready, if set, learns the listening address.
func run(ctx context.Context, args []string, stderr io.Writer, ready func(net.Addr)) error {
	cfg, err := parseConfig(args, stderr)
	if err != nil {
		return err
	}
	srv, err := lifecycle.NewServer(lifecycle.Config{
		Window: cfg.Window, Version: cfg.Version.String(), Auth: cfg.Auth,
		ConnIDEvictions: cfg.ConnIDEvictions, Transient: cfg.Transient,
	})
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	opts := cfg.Serve
	if err := fitBudget(&opts, cfg, logger); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	var m *metrics
	if cfg.Metrics != "" {
		m = newMetrics()
	}
	var frames *frameLogger
	if cfg.Trace {
		frames = &frameLogger{logger}
	}
	agg := newAggregator(logger, cfg.LogEvery, time.Now)
	actx, stopAgg := context.WithCancel(context.Background())
	defer agg.flush() // the counts since the last summary, once the listener is done
	defer stopAgg()
	go agg.run(actx)
	// This process does nothing but serve: handing memory back to the
	// system after a burst of large frames, a crowd that left or a flood
	// of short connections (quietRelease) is worth a forced collection
	// here.
	quiet := &quietRelease{free: debug.FreeOSMemory}
	go quiet.run(actx)
	opts.Observer = observer(newConnLog(agg, cfg.Auth.Users), m, frames, quiet)
	opts.ReleaseMemory = debug.FreeOSMemory
	if cfg.GCPercent > 0 {
		debug.SetGCPercent(cfg.GCPercent)
	}
	l := tcp.NewListener(ln, srv, opts)
	if m != nil {
		m.watch(l)
		mctx, stopMetrics := context.WithCancel(context.Background())
		maddr, waitMetrics, err := serveMetrics(mctx, cfg.Metrics, cfg.MetricsMaxConns, m, logger)
		if err != nil {
			stopMetrics()
			_ = ln.Close()
			return fmt.Errorf("-metrics: %w", err)
		}
		defer waitMetrics()
		defer stopMetrics()
		if _, public, _ := metricsAddr(maddr.String()); public {
			logger.Warn("metrics listen beyond loopback: anyone who can reach the address reads them", "addr", maddr.String())
		}
		logger.Info("metrics", "addr", maddr.String(), "path", "/metrics", "max_conns", cfg.MetricsMaxConns)
	}
	used := opts.Resolved()
	// The window's text is its two ends, as an Eviction 14 carries them;
	// whether the patch counts between them changes which clients get in
	// (0.11.0 alone lets 0.11.7 in, the list 0.11.0,0.11.0 does not).
	logger.Info("listening", "addr", ln.Addr().String(), "window", srv.Window().String(), "window_counts_patch", srv.Window().CountPatch,
		"users", userNames(cfg.Auth.Users), "tokens", len(cfg.Auth.Tokens),
		"max_conns", used.MaxConns, "max_sessions_per_user", used.MaxSessionsPerUser, "max_conns_per_addr", used.MaxConnsPerAddr,
		"reserved_conns", used.ReservedConns, "max_prelogin", opts.MaxPreLogin, "login_timeout", opts.LoginTimeout.String(),
		"idle_timeout", opts.IdleTimeout.String(), "max_frame", opts.MaxFrame, "large_frame_memory", opts.LargeFrameMemory,
		"login_burst", max(opts.LoginBurst, 0), "login_rate", opts.LoginRate, "trace", cfg.Trace, "log_every", cfg.LogEvery.String(),
		"gc_percent", gcPercent())
	if ready != nil {
		ready(ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- l.Serve(context.Background()) }()
	select {
	case err = <-served:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := l.Shutdown(sctx); err != nil {
		return err
	}
	return <-served
}

// gcPercent is the collector's target in force (-gc-percent, or GOGC from
// the environment), for the start-up line.
func gcPercent() int64 {
	s := []rtmetrics.Sample{{Name: "/gc/gogc:percent"}}
	rtmetrics.Read(s)
	if s[0].Value.Kind() != rtmetrics.KindUint64 {
		return -1
	}
	return int64(s[0].Value.Uint64())
}
