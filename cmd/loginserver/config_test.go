package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

func TestParseConfig(t *testing.T) {
	got, err := parseConfig([]string{"-addr", "127.0.0.1:0", "-user", "iggy:iggy", "-user", "bob:p:w",
		"-token", "a=b=iggy", "-token", "t2=bob", "-inactive", "bob", "-protocol", "0.12.3-edge.1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{Addr: "127.0.0.1:0", Version: codec.MustPack(0, 12, 3), Window: codec.DefaultWindow(codec.MustPack(0, 12, 3)), Auth: lifecycle.StaticAuth{
		Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
			{ID: 2, Name: "bob", Password: codec.NewSecret([]byte("p:w")), Inactive: true},
		},
		Tokens: []lifecycle.Token{{Value: codec.NewSecret([]byte("a=b")), User: "iggy"}, {Value: codec.NewSecret([]byte("t2")), User: "bob"}},
	}, Serve: tcp.DefaultServeOptions(), MetricsMaxConns: defaultMetricsMaxConns, LogEvery: defaultLogEvery,
		GCPercent: gcPercentDefault(os.LookupEnv)}
	// The shares that follow -max-conns stay 0 until the listener resolves
	// them; resolved, the flags' defaults are the library's.
	got.Serve = got.Serve.Resolved()
	if !codectest.Same(want, got) {
		t.Fatalf("want %+v\ngot  %+v", want, got)
	}
	if s := fmt.Sprintf("%v %+v %#v", got, got, got); strings.Contains(s, "p:w") || strings.Contains(s, "a=b") {
		t.Fatalf("a printed config shows a secret: %s", s)
	}

	defaults, err := parseConfig(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if defaults.Addr != "127.0.0.1:8090" || defaults.Version != codec.MustPack(0, 11, 0) ||
		defaults.Window != codec.DefaultWindow(codec.MustPack(0, 11, 0)) {
		t.Fatalf("defaults: %+v", defaults)
	}
}

// TestProtocolFlag: -protocol 0.11.1 serves upstream's 0.11.1 window,
// which counts patch; a list serves both revisions; the default stays
// 0.11.0's window.
func TestProtocolFlag(t *testing.T) {
	for _, c := range []struct {
		arg     string
		version codec.Version
		window  codec.Window
	}{
		{"0.11.0", codec.Protocol0110, codec.DefaultWindow(codec.Protocol0110)},
		{"0.11.1", codec.Protocol0111, codec.InclusiveWindow(codec.Protocol0111, codec.Protocol0111)},
		{"0.11.0,0.11.1", codec.Protocol0111, codec.InclusiveWindow(codec.Protocol0110, codec.Protocol0111)},
		{"0.11.1, 0.11.0", codec.Protocol0111, codec.InclusiveWindow(codec.Protocol0110, codec.Protocol0111)},
	} {
		cfg, err := parseConfig([]string{"-user", "iggy:iggy", "-protocol", c.arg}, io.Discard)
		if err != nil {
			t.Fatalf("-protocol %s: %v", c.arg, err)
		}
		if cfg.Version != c.version || cfg.Window != c.window {
			t.Fatalf("-protocol %s: version %v window %+v, want %v %+v", c.arg, cfg.Version, cfg.Window, c.version, c.window)
		}
	}
	for _, bad := range []string{"0.11.1,", "0.11.1,x", ",", "0.0.0,0.0.0"} {
		if _, err := parseConfig([]string{"-user", "iggy:iggy", "-protocol", bad}, io.Discard); err == nil {
			t.Fatalf("-protocol %q: no error", bad)
		}
	}
}

// TestParseConfigErrors: every bad command line is refused, and neither the
// error nor what is printed to stderr shows a password or token, not even
// one that was rejected.
func TestParseConfigErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-user", "nopassword-s3cr3t"},
		{"-user", ":pw-s3cr3t"},
		{"-user", "a:1-s3cr3t", "-user", "a:2-s3cr3t"},
		{"-token", "tok-s3cr3t"},
		{"-token", "tok-s3cr3t="},
		{"-token", "=tok-s3cr3t"},
		{"-token", "tok-s3cr3t=ghost"},
		{"-inactive", "ghost"},
		{"-protocol", "1.2"},
		{"-protocol", "0.0.0"},
		{"-nosuchflag"},
		{"-max-conns", "0"},
		{"-max-prelogin", "-1"},
		{"-login-timeout", "0s"},
		{"-read-timeout", "-1s"},
		{"-write-timeout", "0"},
		{"-idle-timeout", "-5s"},
		{"-max-frame", "255"},
		{"-max-frame", "67108865"},
		{"-large-frame-memory", "0"},
		{"-login-burst", "-1"},
		{"-login-rate", "0"},
		{"-login-rate", "NaN"},
		{"-login-rate", "+Inf"},
		{"extra"},
	} {
		var stderr strings.Builder
		_, err := parseConfig(args, &stderr)
		if err == nil {
			t.Errorf("%q: no error", args)
			continue
		}
		if out := err.Error() + stderr.String(); strings.Contains(out, "s3cr3t") {
			t.Errorf("%q: the error shows a secret: %s", args, out)
		}
	}
}

// TestParseServeFlags: every budget flag reaches the listener's options;
// -login-burst 0 turns the throttle off.
func TestParseServeFlags(t *testing.T) {
	got, err := parseConfig([]string{"-max-conns", "100", "-max-prelogin", "10", "-login-timeout", "3s",
		"-idle-timeout", "1m", "-read-timeout", "4s", "-write-timeout", "5s", "-max-frame", "65536",
		"-large-frame-memory", "1048576", "-login-burst", "7", "-login-rate", "0.5", "-trace", "-metrics", "127.0.0.1:0",
		"-socket-read-buffer", "16384", "-socket-write-buffer", "8192", "-write-stall", "2s",
		"-account-login-burst", "9", "-account-login-rate", "0.25", "-prelogin-frame-memory", "262144", "-replay-timeout", "20s", "-pipeline-memory", "2097152"}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, tcp.ServeOptions{MaxConns: 100, MaxPreLogin: 10, LoginTimeout: 3 * time.Second,
		IdleTimeout: time.Minute, ReadTimeout: 4 * time.Second, WriteTimeout: 5 * time.Second, MaxFrame: 65536,
		LargeFrameMemory: 1 << 20, LoginBurst: 7, LoginRate: 0.5,
		SocketReadBuffer: 16 << 10, SocketWriteBuffer: 8 << 10, WriteStall: 2 * time.Second, AcceptBurst: 64, AcceptRate: 32,
		AccountLoginBurst: 9, AccountLoginRate: 0.25, PreLoginFrameMemory: 256 << 10, ReplayTimeout: 20 * time.Second, PipelineMemory: 2 << 20}, got.Serve)
	require.True(t, got.Trace)
	require.Equal(t, "127.0.0.1:0", got.Metrics)

	off, err := parseConfig([]string{"-login-burst", "0"}, io.Discard)
	require.NoError(t, err)
	require.Negative(t, off.Serve.LoginBurst, "lifecycle's off")
}

// TestUsageShowsDefaults: -h names every budget with its default.
func TestUsageShowsDefaults(t *testing.T) {
	var usage strings.Builder
	_, err := parseConfig([]string{"-h"}, &usage)
	require.ErrorIs(t, err, flag.ErrHelp)
	for _, want := range []string{"-max-conns int", "(default 8192)", "-max-prelogin int", "(default 256)",
		"-login-timeout duration", "(default 10s)", "-idle-timeout duration", "-read-timeout duration", "(default 30s)",
		"-write-timeout duration", "-max-frame bytes", "(default 1048576)", "-large-frame-memory bytes", "(default 8388608)",
		"-login-burst int", "(default 20)", "-login-rate float", "(default 5)", "-trace", "-metrics ADDR"} {
		require.Contains(t, usage.String(), want)
	}
}

// TestParseServerFlags: -evict-own-id and -transient reach the server's
// Config; a -transient that is not 57:N or 58:N is refused.
func TestParseServerFlags(t *testing.T) {
	got, err := parseConfig([]string{"-evict-own-id", "-transient", "58:3"}, io.Discard)
	require.NoError(t, err)
	require.True(t, got.ConnIDEvictions)
	require.Equal(t, lifecycle.Transient{Status: codec.StatusTransientNotAccepted, Count: 3}, got.Transient)

	got, err = parseConfig([]string{"-transient", "57:1"}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, lifecycle.Transient{Status: codec.StatusTransientNotCommitted, Count: 1}, got.Transient)
	require.False(t, got.ConnIDEvictions)

	for _, bad := range []string{"57", "59:1", "57:-1", "57:x", ":1"} {
		_, err := parseConfig([]string{"-transient", bad}, io.Discard)
		require.Error(t, err, bad)
	}
}

// TestGCPercent: 200 unless GOGC is in the environment (then the runtime's
// stands, 0), the flag over both, and a negative target refused.
func TestGCPercent(t *testing.T) {
	unset := func(string) (string, bool) { return "", false }
	set := func(k string) (string, bool) { return "50", k == "GOGC" }
	require.Equal(t, defaultGCPercent, gcPercentDefault(unset))
	require.Equal(t, 0, gcPercentDefault(set))
	c, err := parseConfig([]string{"-gc-percent", "300"}, io.Discard)
	require.NoError(t, err)
	require.Equal(t, 300, c.GCPercent)
	_, err = parseConfig([]string{"-gc-percent", "-1"}, io.Discard)
	require.ErrorContains(t, err, "-gc-percent")
}
