//go:build iggysdk

// Command iggy-go drives the Apache Iggy Go SDK
// (github.com/apache/iggy/foreign/go) through the server-mode cases of the
// conformance kit (cmd/conform), as docs/conformance.md's driver script
// says: per case, connect, log in with the case id as username, ping twice
// once logged in, post what the login surfaced to the kit's control
// endpoint, close; at the end, POST /finish.
//
// Usage:
//
//	iggy-go [-addr 127.0.0.1:8091] [-control 127.0.0.1:8099] [-cases ID,...] [-timeout 10s]
//
// It lives in a module of its own so that neither of the project's modules
// requires the SDK; sdk/ is a link to the SDK's sources (see go.mod). It
// builds only with the build tag iggysdk (go run -tags iggysdk .), so that
// without the link the module still vets and its tests say what is
// missing instead of failing to compile.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	iggycli "github.com/apache/iggy/foreign/go/client"
	"github.com/apache/iggy/foreign/go/client/tcp"
	ierror "github.com/apache/iggy/foreign/go/errors"
)

// password is what every case logs in with: the kit accepts any password
// and hides it in its reports.
const password = "conform"

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "iggy-go:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("iggy-go", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8091", "the kit's server-mode `ADDR`")
	control := fs.String("control", "127.0.0.1:8099", "the kit's control endpoint `ADDR`")
	cases := fs.String("cases", "", "case `IDS` to drive (default: every case GET /cases lists)")
	timeout := fs.Duration("timeout", 10*time.Second, "bounds each case, the SDK's retries included")
	if err := fs.Parse(args); err != nil {
		return err
	}
	d := driver{addr: *addr, control: "http://" + *control, timeout: *timeout, http: &http.Client{Timeout: 5 * time.Second}}
	ids, err := d.caseIDs(*cases)
	if err != nil {
		return err
	}
	refused := 0
	for _, id := range ids {
		if err := d.runCase(id); err != nil {
			fmt.Fprintf(stderr, "iggy-go: case %s: the result was not taken: %v\n", id, err)
			refused++
		}
	}
	fmt.Fprintf(stdout, "iggy-go: %d cases driven\n", len(ids))
	if refused > 0 {
		return fmt.Errorf("the kit took no result for %d cases", refused)
	}
	// A full run ends by itself once every case has run; the kit no longer
	// listening then is no error.
	if err := d.post("/finish"); err != nil && len(ids) < d.listed {
		return err
	}
	return nil
}

// driver holds where the kit is.
type driver struct {
	addr, control string
	timeout       time.Duration
	http          *http.Client
	listed        int // how many cases GET /cases listed
}

// caseIDs are the ids given, or every case the kit lists.
func (d *driver) caseIDs(given string) ([]string, error) {
	resp, err := d.http.Get(d.control + "/cases")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /cases: %s", resp.Status)
	}
	var cases []struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&cases); err != nil {
		return nil, fmt.Errorf("GET /cases: %w", err)
	}
	d.listed = len(cases)
	if given != "" {
		return strings.Split(given, ","), nil
	}
	ids := make([]string, 0, len(cases))
	for _, c := range cases {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

// runCase runs the driver script for one case. The SDK replays a
// transient login by itself, so the driver does not retry. It posts what
// the login surfaced while the client is still open: the kit may end the
// run once the last case's connection has closed.
func (d *driver) runCase(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), d.timeout)
	defer cancel()
	cli, err := iggycli.NewIggyClient(iggycli.WithTcp(tcp.WithServerAddress(d.addr)))
	if err != nil {
		return d.result(id, surfaced(err))
	}
	defer cli.Close()
	got := "0"
	if err := cli.Connect(ctx); err != nil {
		got = surfaced(err)
	} else if _, err := cli.LoginUser(ctx, id, password); err != nil {
		got = surfaced(err)
	} else {
		_ = cli.Ping(ctx) // the first ping's answer is the case's; its error is the SDK's business
		_ = cli.Ping(ctx)
	}
	return d.result(id, got)
}

// result posts what a case's login surfaced.
func (d *driver) result(id, got string) error {
	return d.post("/result?case=" + url.QueryEscape(id) + "&surfaced=" + url.QueryEscape(got))
}

// post sends a POST to the control endpoint and wants it answered 200.
func (d *driver) post(path string) error {
	resp, err := d.http.Post(d.control+path, "text/plain", nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("POST %s: %s: %s", path, resp.Status, strings.TrimSpace(string(msg)))
	}
	return nil
}

// section8 are the codes docs/WIRE.md section 8 maps frames to, which the
// kit takes as numbers.
var section8 = map[ierror.Code]bool{3: true, 4: true, 30: true, 40: true, 42: true, 53: true, 57: true, 58: true}

// surfaced is what the kit is told the SDK's login returned: "0" for
// success; an SDK error by what WIRE.md section 8 calls it: its status
// code, or IncompatibleProtocolVersion for the SDK's code 14003; any other
// SDK error by its name in the SDK (Disconnected, ...); and an error that
// is not the SDK's own (a cancelled context, say) as its text.
func surfaced(err error) string {
	if err == nil {
		return "0"
	}
	var iggy ierror.IggyError
	if !errors.As(err, &iggy) {
		return err.Error()
	}
	switch code := iggy.Code(); {
	case code == ierror.IncompatibleProtocolVersionCode:
		return "IncompatibleProtocolVersion"
	case section8[code]:
		return strconv.Itoa(int(code))
	case code.String() != "Unknown error code":
		return code.String()
	default:
		return "SDK error " + strconv.Itoa(int(code))
	}
}
