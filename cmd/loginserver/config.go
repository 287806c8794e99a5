package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// config is what the flags say.
type config struct {
	Addr    string
	Version codec.Version
	// Window is what -protocol serves: codec.ServeWindow of one version,
	// or the inclusive window of a list (both revisions: 0.11.0,0.11.1).
	Window codec.Window
	Auth   lifecycle.StaticAuth
	// Serve holds the budgets and timeouts; run adds the Observer and,
	// with Trace, the per-frame log.
	Serve tcp.ServeOptions
	// Trace logs every frame in and every answer out.
	Trace bool
	// Metrics is the address of the Prometheus endpoint, "" for none;
	// MetricsMaxConns caps its connections open at once.
	Metrics         string
	MetricsMaxConns int
	// LogEvery is the interval of the aggregated log's summaries.
	LogEvery time.Duration
	// ConnIDEvictions answers evictions 1 and 13 with the server's own id
	// for the connection, as the reference server does.
	ConnIDEvictions bool
	// Transient answers the first logins with a transient result code.
	Transient lifecycle.Transient
	// GCPercent is the collector's target (GOGC) run sets for the process;
	// 0 leaves the runtime's, which is what the GOGC environment variable
	// says (see gcPercentFlag).
	GCPercent int
}

// rawFlags holds what is checked, or turned into config, after parsing.
type rawFlags struct {
	users, tokens, inactive []string
	usersFile               string
	version                 string
	loginBurst              int
	transient               string
}

// secretFlag collects the raw values of a repeatable flag that holds a
// secret (-user NAME:PASSWORD, -token TOKEN=NAME). Set never fails: the flag
// package quotes a rejected value in its error, so the values are checked
// after parsing, by code that names only the entry's position and user.
type secretFlag struct{ list *[]string }

func (f secretFlag) String() string {
	if f.list == nil || len(*f.list) == 0 {
		return ""
	}
	return strconv.Itoa(len(*f.list)) + " redacted"
}

func (f secretFlag) Set(s string) error {
	*f.list = append(*f.list, s)
	return nil
}

// userNames lists the user names, for the startup log line.
func userNames(users []lifecycle.User) string {
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = u.Name
	}
	return strings.Join(names, ",")
}

// listFlag collects a repeatable plain string.
type listFlag struct{ list *[]string }

func (f listFlag) String() string {
	if f.list == nil {
		return ""
	}
	return strings.Join(*f.list, ",")
}

func (f listFlag) Set(s string) error {
	*f.list = append(*f.list, s)
	return nil
}

// parseConfig reads the command line. Errors and usage go to stderr. Flags
// come in groups, each registered by one method and checked by one check
// after parsing: a new flag goes into the group it belongs to.
func parseConfig(args []string, stderr io.Writer) (config, error) {
	cfg := config{Serve: tcp.DefaultServeOptions()}
	// These follow -max-conns and -large-frame-memory unless set: 0 until
	// the listener resolves them from what was asked.
	cfg.Serve.MaxSessionsPerUser, cfg.Serve.MaxConnsPerAddr, cfg.Serve.ReservedConns, cfg.Serve.PreLoginFrameMemory = 0, 0, 0, 0
	cfg.Serve.MaxSessionsPerUserAddr = 0
	raw := rawFlags{version: "0.11.0", loginBurst: cfg.Serve.LoginBurst}
	fs := flag.NewFlagSet("loginserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { usage(fs, stderr) }
	cfg.accountFlags(fs, &raw)
	cfg.serveFlags(fs, &raw)
	cfg.outputFlags(fs)
	cfg.serverFlags(fs, &raw)
	wantVersion := fs.Bool("version", false, "print the release version and build of loginserver, then exit")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if *wantVersion {
		return config{}, errPrintVersion
	}
	if n := fs.NArg(); n > 0 {
		// Not shown: "-user iggy: pw" makes the password one of them.
		s := "s"
		if n == 1 {
			s = ""
		}
		return config{}, fmt.Errorf("%d unexpected argument%s after the flags, not shown as one may be a secret (a space ends a flag's value: quote a value with spaces)", n, s)
	}
	for _, check := range []func(*rawFlags) error{cfg.checkAccounts, cfg.checkServe, cfg.checkServer, cfg.checkOutput} {
		if err := check(&raw); err != nil {
			return config{}, err
		}
	}
	return cfg, nil
}

// usage is -h: the flags, then the environment variables read.
func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintln(w, "Usage of loginserver:")
	fs.PrintDefaults()
	fmt.Fprintf(w, `
Environment:
  %s, %s
    	a user NAME and PASSWORD (both or neither), as the Iggy server takes
    	its root user. Unlike the command line, a process's environment is
    	readable only by its own user and root. There is no token variable:
    	tokens go in -users-file.

User ids are 1, 2, ... in this order: %s, the lines of -users-file,
the -user flags.
`, envUsername, envPassword, envUsername)
}

// accountFlags: where to listen, who may log in, which protocol.
func (c *config) accountFlags(fs *flag.FlagSet, raw *rawFlags) {
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8090", "address to listen on")
	fs.Var(secretFlag{&raw.users}, "user",
		"a user `NAME:PASSWORD` (repeatable), for tests: any local user can read it in the process list (ps); use "+
			envUsername+"/"+envPassword+" or -users-file")
	fs.Var(secretFlag{&raw.tokens}, "token",
		"a personal access token `TOKEN=NAME` (repeatable), for tests: any local user can read it in the process list (ps); use -users-file")
	fs.StringVar(&raw.usersFile, "users-file", "",
		"read users and tokens from the file at `PATH`: a user NAME:PASSWORD or a token TOKEN=NAME a line, blank lines and # comments allowed; "+
			"refused if group or others may read or write it (chmod 600)")
	fs.Var(listFlag{&raw.inactive}, "inactive", "mark user `NAME` inactive, whichever source gave it (repeatable)")
	fs.StringVar(&raw.version, "protocol", raw.version,
		"server protocol version `X.Y.Z`, whose window it serves (0.11.1: [0.11.1, 0.11.1], counting patch; others: the default window); "+
			"a comma-separated list (0.11.0,0.11.1) serves every version from the lowest to the highest, counting patch, each login read in its version's layout")
}

// serveFlags: the budgets, timeouts and throttle of the listener. Their
// defaults are lifecycle's, shown by -h.
func (c *config) serveFlags(fs *flag.FlagSet, raw *rawFlags) {
	o := &c.Serve
	fs.IntVar(&o.MaxConns, "max-conns", o.MaxConns, "most connections open at once; one more is answered with eviction 12 if it sends a request within a second, then closed")
	fs.IntVar(&o.MaxPreLogin, "max-prelogin", o.MaxPreLogin, "most connections not logged in; a newcomer closes the oldest of them")
	fs.DurationVar(&o.LoginTimeout, "login-timeout", o.LoginTimeout, "close a connection not logged in after this long, pings or not")
	fs.DurationVar(&o.IdleTimeout, "idle-timeout", o.IdleTimeout, "close a logged-in connection after this long without a frame (0: never)")
	fs.DurationVar(&o.ReadTimeout, "read-timeout", o.ReadTimeout, "close a connection whose frame does not arrive whole within this")
	fs.DurationVar(&o.WriteTimeout, "write-timeout", o.WriteTimeout, "close a connection whose answer is not written within this")
	fs.IntVar(&o.MaxFrame, "max-frame", o.MaxFrame, "largest frame in `bytes`; a larger one is answered with eviction 6 and closed")
	fs.IntVar(&o.LargeFrameMemory, "large-frame-memory", o.LargeFrameMemory, "`bytes` of frames above 64 KiB held at once, server-wide; more wait")
	fs.IntVar(&raw.loginBurst, "login-burst", raw.loginBurst, "failed logins an address may make before it is throttled (0: no throttle, the per-account one included)")
	fs.Float64Var(&o.LoginRate, "login-rate", o.LoginRate, "failed logins per second an address may make after its burst")
	fs.IntVar(&o.MaxSessionsPerUser, "max-sessions-per-user", o.MaxSessionsPerUser, "most connections logged in as one account; one more login is refused as a wrong password is (0: an eighth of -max-conns, at least 8; negative: no cap)")
	fs.IntVar(&o.MaxSessionsPerUserAddr, "max-sessions-per-user-addr", o.MaxSessionsPerUserAddr, "most connections logged in as one account from one address (IPv6: one /64); one more login is refused as a wrong password is (0: a quarter of -max-conns-per-addr, at least 8; negative: no cap)")
	fs.IntVar(&o.MaxConnsPerAddr, "max-conns-per-addr", o.MaxConnsPerAddr, "most connections open from one address (IPv6: one /64); one more is refused (0: an eighth of -max-conns, at least 8; negative: no cap)")
	fs.IntVar(&o.ReservedConns, "reserved-conns", o.ReservedConns, "connections of -max-conns kept for accounts with no session yet (0: an eighth of -max-conns; negative: none)")
	fs.IntVar(&o.AcceptBurst, "accept-burst", o.AcceptBurst, "connections an address may open at once without logging in before more are on probation (32 at once, 2s to log in) or reset (0: 64; negative: no limit)")
	fs.Float64Var(&o.AcceptRate, "accept-rate", o.AcceptRate, "connections per second an address may open without logging in after its burst (0: 32)")
	fs.IntVar(&o.SocketReadBuffer, "socket-read-buffer", o.SocketReadBuffer, "kernel receive buffer of each connection in `bytes` (negative: the kernel's sizing)")
	fs.IntVar(&o.SocketWriteBuffer, "socket-write-buffer", o.SocketWriteBuffer, "kernel send buffer of each connection in `bytes`, which bounds the answers a peer leaves unread (negative: the kernel's sizing)")
	fs.IntVar(&o.PipelineMemory, "pipeline-memory", o.PipelineMemory, "`bytes` of send buffer, server-wide, that connections whose answers pile up may borrow, 1 MiB each (negative: none)")
	fs.DurationVar(&o.WriteStall, "write-stall", o.WriteStall, "close a connection whose answer makes no progress for this long (a peer that does not read)")
	fs.IntVar(&o.AccountLoginBurst, "account-login-burst", o.AccountLoginBurst, "failed logins an account may take from addresses where it has not logged in within 7 days before it is throttled (negative: no account throttle)")
	fs.Float64Var(&o.AccountLoginRate, "account-login-rate", o.AccountLoginRate, "failed logins per second an account may take after its burst")
	fs.IntVar(&o.PreLoginFrameMemory, "prelogin-frame-memory", o.PreLoginFrameMemory, "`bytes` of -large-frame-memory that connections not logged in may hold (0: a quarter of it)")
	fs.DurationVar(&o.ReplayTimeout, "replay-timeout", o.ReplayTimeout, "how long a connection may replay a login answered with 57 before it must be logged in")
}

// outputFlags: logs and metrics.
func (c *config) outputFlags(fs *flag.FlagSet) {
	fs.BoolVar(&c.Trace, "trace", false, "also log every frame read and every answer written (never a secret)")
	fs.StringVar(&c.Metrics, "metrics", "",
		"serve Prometheus metrics at http://`ADDR`/metrics (off when empty); :PORT is 127.0.0.1:PORT, name the host (0.0.0.0:PORT) for other interfaces")
	fs.IntVar(&c.MetricsMaxConns, "metrics-max-conns", defaultMetricsMaxConns,
		"most connections to the metrics endpoint at once; more wait in the listen queue (counted in the descriptor budget)")
	fs.DurationVar(&c.LogEvery, "log-every", defaultLogEvery,
		"an event repeated from one address is logged once, then counted and summed up once per this interval")
	c.GCPercent = gcPercentDefault(os.LookupEnv)
	fs.IntVar(&c.GCPercent, "gc-percent", c.GCPercent,
		"the garbage collector's target, as GOGC: 200 unless GOGC is set in the environment, which then stands (0: the runtime's)")
}

// defaultGCPercent is the collector's target loginserver runs at unless
// told otherwise. Its live heap is a few MiB whatever the load (the
// connections' memory is their goroutines' stacks and the kernel's
// buffers), so at Go's default of 100 the runtime's 4 MiB floor of the
// heap goal, not the live heap, sets how often it collects: about once per
// 2 MiB allocated. A flood of connections each closed at its first frame
// allocates about 600 bytes per connection inside package net's Accept
// (docs/loginserver.md, "Third round"), so 100 ran the collector once a
// second at 3,000 connections a second; 200 doubles that floor, for a few
// MiB more of peak heap.
const defaultGCPercent = 200

// gcPercentDefault is -gc-percent's default: defaultGCPercent, or 0 (leave
// the runtime's) when the environment sets GOGC, so that an operator's
// GOGC is not overridden by a default.
func gcPercentDefault(lookup func(string) (string, bool)) int {
	if _, set := lookup("GOGC"); set {
		return 0
	}
	return defaultGCPercent
}

// serverFlags: how the server answers, for testing clients against the
// reference server's habits.
func (c *config) serverFlags(fs *flag.FlagSet, raw *rawFlags) {
	fs.BoolVar(&c.ConnIDEvictions, "evict-own-id", false,
		"answer evictions 1 (NoSession) and 13 (StaleClient) with the server's own id for the connection, as the reference server does, instead of the request's client id")
	fs.StringVar(&raw.transient, "transient", "",
		"answer the first `CODE:N` logins with the transient result CODE (57: replay the same request; 58: re-issue it anywhere)")
}

// checkOutput checks the log and metrics flags; a -metrics without a host
// becomes a loopback address.
func (c *config) checkOutput(*rawFlags) error {
	switch {
	case c.MetricsMaxConns < 1:
		return errors.New("-metrics-max-conns: want at least 1")
	case c.LogEvery < time.Second:
		return errors.New("-log-every: want at least 1s")
	case c.GCPercent < 0:
		return errors.New("-gc-percent: want 0 (the runtime's) or more (a server that never collects would grow until killed)")
	}
	if c.Metrics == "" {
		return nil
	}
	addr, _, err := metricsAddr(c.Metrics)
	if err != nil {
		return fmt.Errorf("-metrics: %w", err)
	}
	c.Metrics = addr
	return nil
}

// checkServer reads -transient.
func (c *config) checkServer(raw *rawFlags) error {
	if raw.transient == "" {
		return nil
	}
	code, n, ok := strings.Cut(raw.transient, ":")
	count, err := strconv.ParseUint(n, 10, 64)
	if !ok || err != nil || (code != "57" && code != "58") {
		return fmt.Errorf("-transient: want 57:N or 58:N, got %q", raw.transient)
	}
	status := codec.StatusTransientNotCommitted
	if code == "58" {
		status = codec.StatusTransientNotAccepted
	}
	c.Transient = lifecycle.Transient{Status: status, Count: count}
	return nil
}

// checkAccounts turns the environment, the users file and the account
// flags into users and tokens (accounts.go), and reads the version.
func (c *config) checkAccounts(raw *rawFlags) error {
	var a accounts
	if err := a.fromEnv(os.LookupEnv); err != nil {
		return err
	}
	if raw.usersFile != "" {
		if err := a.fromFile(raw.usersFile); err != nil {
			return err
		}
	}
	if err := a.fromUserFlags(raw.users); err != nil {
		return err
	}
	if err := a.fromTokenFlags(raw.tokens); err != nil {
		return err
	}
	if err := a.resolve(raw.inactive); err != nil {
		return err
	}
	c.Auth.Users, c.Auth.Tokens = a.users, a.tokens
	var err error
	if c.Version, c.Window, err = parseProtocol(raw.version); err != nil {
		return fmt.Errorf("-protocol: %w", err)
	}
	if !c.Window.IsValid() {
		return fmt.Errorf("-protocol: %s gives no usable window", raw.version)
	}
	return nil
}

// parseProtocol reads -protocol: one version, served with its window
// (codec.ServeWindow), or a comma-separated list, served as the inclusive
// window from its lowest to its highest version (WIRE.md section 10.5).
// The server's own version, in its login replies, is the highest.
func parseProtocol(s string) (codec.Version, codec.Window, error) {
	parts := strings.Split(s, ",")
	vs := make([]codec.Version, 0, len(parts))
	for _, p := range parts {
		v, err := codec.ParseVersion(strings.TrimSpace(p))
		if err != nil {
			return 0, codec.Window{}, err
		}
		vs = append(vs, v)
	}
	if len(vs) == 1 {
		return vs[0], codec.ServeWindow(vs[0]), nil
	}
	lo, hi := slices.Min(vs), slices.Max(vs)
	return hi, codec.InclusiveWindow(lo, hi), nil
}

// checkServe refuses values the listener would otherwise replace with its
// defaults, so that what runs is what was asked for.
func (c *config) checkServe(raw *rawFlags) error {
	o := &c.Serve
	switch {
	case o.MaxConns < 1:
		return errors.New("-max-conns: want at least 1")
	case o.MaxPreLogin < 1:
		return errors.New("-max-prelogin: want at least 1")
	case o.LoginTimeout <= 0, o.ReadTimeout <= 0, o.WriteTimeout <= 0:
		return errors.New("-login-timeout, -read-timeout and -write-timeout: want a positive duration")
	case o.IdleTimeout < 0:
		return errors.New("-idle-timeout: want 0 (never) or a positive duration")
	case o.MaxFrame < codec.HeaderSize || o.MaxFrame > codec.MaxFrameSize:
		return fmt.Errorf("-max-frame: want %d..%d bytes", codec.HeaderSize, codec.MaxFrameSize)
	case o.LargeFrameMemory < 1:
		return errors.New("-large-frame-memory: want at least 1 byte")
	case raw.loginBurst < 0:
		return errors.New("-login-burst: want 0 (no throttle) or more")
	case !(o.LoginRate > 0) || math.IsInf(o.LoginRate, 0):
		return errors.New("-login-rate: want a positive number")
	}
	o.LoginBurst = raw.loginBurst
	if raw.loginBurst == 0 {
		o.LoginBurst = -1 // lifecycle's "off"
	}
	return nil
}
