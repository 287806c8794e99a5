// Command conform is a conformance kit for the Iggy connection lifecycle,
// in the manner of Autobahn|Testsuite and h2spec: numbered cases, one
// report per implementation, several side by side.
//
// Usage:
//
//	conform server [-listen 127.0.0.1:8091] [-control 127.0.0.1:8099] [-allow-remote] [-protocol 0.11.0] [-agent NAME] [-out DIR] [-wait 2s] [-stall 500ms] [-cases ID,...]
//	conform client -addr HOST:PORT [-agent NAME] [-out DIR] [-users-file PATH] [-user NAME:PASSWORD ...]
//	               [-token TOKEN=NAME ...] [-inactive NAME ...] [-protocol 0.11.0[,0.11.1] | -window MIN..MAX]
//	               [-evict-own-id] [-wait 2s] [-cases ID,...]
//	conform drive -addr HOST:PORT [-protocol 0.11.0] [-cases ID,...]   (this project's lifecycle.Client as a server-mode driver)
//	conform list server|client [-protocol 0.11.0]
//	conform report -out DIR REPORT.json ...
//	conform -version
//
// Server mode tests a client: the kit listens, and a driver logs the
// client in once per case with the case id as its username; the kit
// answers that case's scripted frames and records what the client does.
// Client mode tests a server: the kit plays every lifecycle vector and its
// hostile sequences against it and compares every answer field by field.
// Both write DIR/<mode>-<agent>.json, .md and .html; report renders earlier
// JSON reports side by side. The exit status is 1 when a case fails. No
// password or token is ever printed: reports show their bytes as "**".
// docs/conformance.md is the guide.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/vectors"
)

// toolName is the report's tool field.
const toolName = "iggywire conform"

// errFailed is the exit status 1 of a run with a failing case.
var errFailed = errors.New("some cases failed")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errFailed):
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "conform:", err)
		os.Exit(2)
	}
}

// run dispatches a subcommand.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: conform server|client|drive|list|report [flags]; conform MODE -h for the flags; conform -version")
		return flag.ErrHelp
	}
	switch args[0] {
	case "server":
		return cmdServer(ctx, args[1:], stdout, stderr)
	case "client":
		return cmdClient(ctx, args[1:], stdout, stderr)
	case "drive":
		return cmdDrive(args[1:], stdout, stderr)
	case "list":
		return cmdList(args[1:], stdout, stderr)
	case "report":
		return cmdReport(args[1:], stdout, stderr)
	case "-version", "--version":
		return printVersion(stdout)
	}
	return fmt.Errorf("unknown mode %q: want server, client, drive, list or report", args[0])
}

// common are the flags every running mode has.
type common struct {
	agent, out, vectors, cases string
	wait                       time.Duration
}

func (c *common) register(fs *flag.FlagSet, agent string) {
	fs.StringVar(&c.agent, "agent", agent, "the implementation's `NAME` in the reports")
	fs.StringVar(&c.out, "out", "conform-reports", "`DIR` to write the reports to")
	fs.StringVar(&c.vectors, "vectors", "", "the vectors `DIR` (default: in a checkout the nearest vectors/ above the working directory, else, and always for an installed kit, the ones built into it)")
	fs.StringVar(&c.cases, "cases", "", "run only these case `IDS` (comma-separated)")
	fs.DurationVar(&c.wait, "wait", 2*time.Second, "how long to wait for the peer's next frame before calling it silent")
}

// load reads the vectors and the registry.
func (c *common) load() (*vectorSet, *registry, error) {
	var vs *vectorSet
	var err error
	switch dir := c.vectors; {
	case dir != "":
		vs, err = loadVectors(dir)
	case installed():
		// A released kit runs the vectors of its release, whatever
		// vectors/ lies above the working directory (an SDK's own copy,
		// stale or edited, would otherwise pass for the release's).
		vs, err = loadVectorsFS(vectors.FS(), builtIn)
	default:
		if dir, err = findVectors(); err == nil {
			vs, err = loadVectors(dir)
		} else {
			vs, err = loadVectorsFS(vectors.FS(), builtIn)
		}
	}
	if err != nil {
		return nil, nil, err
	}
	reg, err := loadRegistry()
	return vs, reg, err
}

// selected reports whether id is among -cases (all when empty).
func (c *common) selected(id string) bool {
	if c.cases == "" {
		return true
	}
	for _, s := range strings.Split(c.cases, ",") {
		if strings.TrimSpace(s) == id {
			return true
		}
	}
	return false
}

// checkCases is the usage error of a -cases naming an id no case has
// (matched says which ids the cases chose), or of a choice of no case at
// all: a run of nothing must not read as a pass.
func (c *common) checkCases(matched func(id string) bool, chosen int, mode string) error {
	if c.cases != "" {
		var unknown []string
		for _, s := range strings.Split(c.cases, ",") {
			if id := strings.TrimSpace(s); id != "" && !matched(id) {
				unknown = append(unknown, id)
			}
		}
		if len(unknown) > 0 {
			return fmt.Errorf("-cases: no %s-mode case %s (conform list %s lists them)", mode, strings.Join(unknown, ", "), mode)
		}
	}
	if chosen == 0 {
		return fmt.Errorf("-cases %q chooses no %s-mode case", c.cases, mode)
	}
	return nil
}

func cmdServer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conform server", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c common
	c.register(fs, "client")
	listen := fs.String("listen", "127.0.0.1:8091", "loopback `ADDR` to listen on")
	controlAddr := fs.String("control", "127.0.0.1:8099", "loopback `ADDR` of the HTTP control endpoint (GET /cases, POST /result, POST /finish); empty for none")
	stall := fs.Duration("stall", 500*time.Millisecond, "how long a stalled or delayed answer waits (keep it under the client's timeout)")
	protocol := fs.String("protocol", "0.11.0", "the protocol `X.Y.Z` the kit serves, 0.11.0 or 0.11.1: what its own login replies announce (every login is read in the layout of its own version)")
	allowRemote := fs.Bool("allow-remote", false, "allow -listen and -control on addresses other than loopback (the kit accepts any password and the control endpoint has no authentication)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	proto, err := serveProtocol(*protocol)
	if err != nil {
		return err
	}
	vs, reg, err := c.load()
	if err != nil {
		return err
	}
	all, err := serverCasesAt(vs, reg, proto)
	if err != nil {
		return err
	}
	var cases []serverCase
	ids := map[string]bool{}
	for _, sc := range all {
		ids[sc.ID] = true
		if c.selected(sc.ID) {
			cases = append(cases, sc)
		}
	}
	if err := c.checkCases(func(id string) bool { return ids[id] }, len(cases), "server"); err != nil {
		return err
	}
	r, err := runServer(ctx, serverOptions{Listen: *listen, Control: *controlAddr, AllowRemote: *allowRemote, Wait: c.wait, Stall: *stall, Agent: c.agent, Cases: cases,
		Protocol: proto, Vectors: vs.Dir, Redact: &redactor{}, Ready: func(a, control net.Addr) {
			fmt.Fprintf(stdout, "conform: server mode on %s, %d cases, protocol %s, vectors %s; log in once per case with the case id as username (conform list server)\n", a, len(cases), proto, vs.Dir)
			if control != nil {
				fmt.Fprintf(stdout, "conform: control endpoint http://%s (GET /cases, POST /result?case=ID&surfaced=X, POST /finish)\n", control)
			}
		}})
	if err != nil {
		return err
	}
	return finishRun(r, c.out, stdout)
}

// serveProtocol reads server mode's -protocol: one of the two revisions.
func serveProtocol(s string) (codec.Version, error) {
	v, err := codec.ParseVersion(s)
	if err != nil {
		return 0, fmt.Errorf("-protocol: %w", err)
	}
	if v != protocol0110 && v != protocol0111 {
		return 0, fmt.Errorf("-protocol %s: want 0.11.0 or 0.11.1", v)
	}
	return v, nil
}

// finishRun writes a report and says where.
func finishRun(r *Report, dir string, stdout io.Writer) error {
	if err := r.write(dir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "conform: %s mode, %s: %d pass, %d fail, %d not run in %.1fs; reports in %s\n",
		r.Mode, r.Agent, r.Summary.Pass, r.Summary.Fail, r.Summary.NotRun, r.Duration, dir)
	if r.Summary.Fail+r.Summary.NotRun > 0 || len(r.Cases) == 0 {
		return errFailed
	}
	return nil
}

func cmdDrive(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conform drive", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8091", "the kit's server-mode `ADDR`")
	controlAddr := fs.String("control", "127.0.0.1:8099", "the kit's control endpoint `ADDR`, to report what each login surfaced; empty for none")
	cases := fs.String("cases", "", "case `IDS` to drive (default: every server-mode case)")
	timeout := fs.Duration("timeout", 5*time.Second, "read timeout of the client")
	vectors := fs.String("vectors", "", "the vectors `DIR`")
	protocol := fs.String("protocol", "0.11.0", "the protocol `X.Y.Z` the client speaks, 0.11.0 or 0.11.1 (run the kit with the same -protocol)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	proto, err := serveProtocol(*protocol)
	if err != nil {
		return err
	}
	if err := speaks(proto); err != nil {
		return err
	}
	ids, err := caseIDs("server", *cases, *vectors, proto)
	if err != nil {
		return err
	}
	d := driver{Addr: *addr, Control: *controlAddr, Timeout: *timeout, Protocol: proto}
	reached := 0
	for _, id := range ids {
		// The kit judges the wire, not the error; a case whose first
		// connection could not even be made never reached it.
		var op *net.OpError
		if err := d.run(id); !errors.As(err, &op) || op.Op != "dial" {
			reached++
		}
	}
	fmt.Fprintf(stdout, "conform drive: %d cases driven, %d reached the kit at %s\n", len(ids), reached, *addr)
	// The kit ends a full run by itself once every case has run; a
	// finish it no longer accepts is that.
	_ = d.finish()
	if reached == 0 && len(ids) > 0 {
		return fmt.Errorf("no case reached a kit at %s: is conform server running there?", *addr)
	}
	return nil
}

// caseIDs lists a mode's case ids at protocol, or the ones given.
func caseIDs(mode, given, vectors string, protocol codec.Version) ([]string, error) {
	if given != "" {
		return strings.Split(given, ","), nil
	}
	c := common{vectors: vectors}
	vs, reg, err := c.load()
	if err != nil {
		return nil, err
	}
	return listIDs(mode, vs, reg, protocol)
}

func cmdList(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "server" && args[0] != "client" {
		return errors.New("list: want server or client")
	}
	fs := flag.NewFlagSet("conform list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	protocol := fs.String("protocol", "0.11.0", "server mode: the protocol `X.Y.Z` the kit serves, 0.11.0 or 0.11.1 (0.11.1 has cases of its own)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	proto, err := serveProtocol(*protocol)
	if err != nil {
		return err
	}
	c := common{}
	vs, reg, err := c.load()
	if err != nil {
		return err
	}
	ids, err := listIDs(args[0], vs, reg, proto)
	for _, id := range ids {
		fmt.Fprintln(stdout, id)
	}
	return err
}

func cmdReport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("conform report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "conform-reports", "`DIR` to write index.md and index.html to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rs, err := readReports(fs.Args())
	if err != nil {
		return err
	}
	if len(rs) == 0 {
		return errors.New("report: give one or more JSON reports")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "conform report: %d reports side by side in %s/index.html\n", len(rs), *out)
	return renderFiles(*out+"/index", rs)
}
