// Command wiredump shows a frame, a body or version text of the Iggy
// connection lifecycle as named fields with their offsets and sizes, so that
// fuzz crashers and captured frames can be read; see its -h.
//
// It cannot show a password or a token: a header is shown as the fields of
// the codec's header table (a non-zero checksum only as non-zero), a body
// only as the fields of a reading the codec decodes, a password or token as
// [REDACTED n=N], and every other byte only as its offset and length, with
// nothing computed from it. Where a secret can be is found from the length
// fields in front of it before anything decodes, and every reading reads
// those bytes as filler (mask.go), so that nothing printed depends on a
// secret. An input is read as frames only when -kind says
// so or their size fields delimit it exactly. Only -raw, which says so,
// prints every byte.
package main

import (
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// Exit statuses.
const (
	exitOK     = 0
	exitDecode = 1
	exitUsage  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are the parsed command line.
type options struct {
	kind, hexText, path string
	hasHex, json, raw   bool
	ref, trustVersion   bool
}

const usageText = `usage: wiredump [-kind KIND] [-json] [-raw] [-ref] [-trust-version] FILE|-
       wiredump [-kind KIND] [-json] [-raw] [-ref] [-trust-version] -hex HEX

Shows an Iggy connection-lifecycle frame, body or version text as named
fields (offset, size, value). FILE holds raw bytes or a "go test fuzz v1"
file; "-" reads stdin.

The files you give wiredump (captures, fuzz crashers, corpus files) may hold
credentials: passwords and tokens. Without -raw, a password or token prints
as [REDACTED n=N] (N its length), and bytes that do not decode print as
their offset and length only: not the bytes, and nothing computed from them
(no hash, no checksum), so that the output cannot be used to test guesses
of a password. Runs of such bytes are told apart by their offsets. For the
same reason a non-zero checksum header field prints only as non-zero.
Where a password, token or bind secret can be is found from the length
fields before anything decodes, in every login shape, whether or not the
body decodes; every reading of every kind then reads those bytes as "~",
and any field over them, a header number too, prints [REDACTED n=N]. A
note gives their offsets. Every body is laid out in both layouts, 0.11.0's
and 0.11.1's, whatever its version says, since upstream development builds
send 0.11.1's bind secret under version 0.11.0: so a login body shows its
client_version_info and little else.

-trust-version reads a body whose version is 0.11.0 in the 0.11.0 layout
only, so that its username, lengths and context show. Use it only on
captures of released builds: a bind secret sent under 0.11.0 would be read
as a username and a password's length, and can be printed.

-raw adds a hex dump of every input byte: it PRINTS PASSWORDS AND TOKENS in
the clear, and every checksum. Use it only on inputs you know hold no
credential, and do not paste its output anywhere.

Which kind the input is:
  - -kind KIND reads it as KIND.
  - Without -kind, a file in a directory named after a fuzz target
    (corpus/FuzzLoginRegister/...) is read as that target's input. The
    inputs of FuzzBuildBodies, FuzzBuildHeaders and FuzzSecretPrinting are
    not wire bytes (each target's generator reads them as choices and
    field values): wiredump says so and gives the go test command that
    replays one.
  - Otherwise it is read as a frame only when it holds 256 bytes or more
    and its size field (bytes 48..52, u32 little-endian, 256..64 MiB)
    equals its length; as a stream of frames when each size field ends its
    frame where the next begins and the last at the end of the input.
  - Anything else, a body among them, is not read at all: wiredump says
    the kind could not be determined and prints the length only. Give
    -kind (login_register, login_register_pat, client_version_info,
    login_reply, ...).

Kinds: frame is one frame read by its command byte (bytes after its size
are not decoded); frames a stream of frames, each as long as its size
field; request, reply and eviction one frame read as that header; a body
kind (client_version_info, login_register, login_register_pat,
login_reply) the codec's body of that name; register_reply_body the body
of a committed Register reply (a result section, then a login_reply);
version version text; conn the input of FuzzConn ([flags][len u16][frame]
chunks); client the input of FuzzClient (steps of [action u8] and an
answer in conn's chunk form); every the input read as every kind at once,
as FuzzDifferential reads it.

-ref also decodes every header, body, result section and version text
with internal/refcodec, the independent reference codec, and says under
each whether the two agree (the same verdict, or error class, and the same
field values), or "codec says X, reference says Y". Without it the dump is
the codec's reading alone, so a codec bug reads as the input's fault. It
shows nothing -raw would not: classes without offsets, byte fields as
lengths, checksums as zero or non-zero.

Exit status: 0 decoded, 1 decode error, kind not determined or not wire
bytes, 2 usage error.

flags:
`

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitUsage
	}
	if errors.Is(err, errPrintVersion) {
		return printVersion(stdout)
	}
	var src []byte
	if err == nil {
		src, err = readInput(opts, stdin)
	}
	kind, byTarget := opts.kind, ""
	if k, ok := targetKinds[filepath.Base(filepath.Dir(opts.path))]; ok && kind == kindAuto && opts.path != "" {
		kind, byTarget = k, filepath.Base(filepath.Dir(opts.path))
	}
	var r Report
	target := filepath.Base(filepath.Dir(opts.path))
	switch _, isStructured := structuredTargets[target]; {
	case err != nil:
	case isStructured && kind == kindAuto && opts.path != "":
		r = structured(target, len(src))
	case opts.trustVersion:
		r, err = DumpTrustingVersion(src, kind)
		r.Notes = append(r.Notes, "-trust-version: a body whose version is 0.11.0 is read in the 0.11.0 layout only; "+
			"a bind secret sent under 0.11.0 (a development build) would be read as its username")
	default:
		r, err = Dump(src, kind)
	}
	if err != nil {
		fmt.Fprintf(stderr, "wiredump: %v\n", err)
		return exitUsage
	}
	if byTarget != "" {
		r.Notes = append(r.Notes, "read as "+kind+": the input of "+byTarget+", the directory's name")
	}
	if opts.ref {
		r.checkReference()
	}
	if opts.raw {
		r.RawHex = hex.EncodeToString(src)
	}
	write := map[bool]func(io.Writer) error{false: r.WriteText, true: r.WriteJSON}[opts.json]
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "wiredump: %v\n", err)
		return exitUsage
	}
	if !r.OK {
		return exitDecode
	}
	return exitOK
}

// targetKinds maps the fuzz targets whose input is one kind to that kind.
var targetKinds = map[string]string{
	"FuzzRequestHeader": kindRequest, "FuzzReplyHeader": kindReply, "FuzzEviction": kindEviction,
	"FuzzClientVersionInfo": kindClientInfo, "FuzzLoginRegister": kindLogin,
	"FuzzLoginRegisterPAT": kindLoginPAT, "FuzzLoginReply": kindLoginReply,
	"FuzzSplitResult": kindLoginReplyFrame, "FuzzParseVersion": kindVersion, "FuzzConn": kindConn,
	"FuzzFrame": kindFrames, "FuzzClient": kindClient, "FuzzDifferential": kindEvery,
	"FuzzBindSession": kindBind, "FuzzLoginRegisterSecret": kindLoginSecret, "FuzzLoginRegisterPATSecret": kindLoginPATSecret,
}

func parseArgs(args []string, stderr io.Writer) (options, error) {
	var opts options
	fs := flag.NewFlagSet("wiredump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.kind, "kind", kindAuto, "read the input as `KIND`: "+strings.Join(kinds(), ", "))
	fs.StringVar(&opts.kind, "as", kindAuto, "the old name of -kind `KIND`; the old kind names clientinfo, login, loginpat, loginreply, loginreplyframe still work")
	fs.Func("hex", "read the input from `HEX` digits (spaces, newlines, colons, commas and 0x allowed)", func(s string) error {
		opts.hexText, opts.hasHex = s, true
		return nil
	})
	fs.BoolVar(&opts.json, "json", false, "print one JSON object instead of text")
	fs.BoolVar(&opts.ref, "ref", false, "also decode with the reference codec (internal/refcodec) and say, per section, whether it agrees")
	fs.BoolVar(&opts.trustVersion, "trust-version", false, "read a body whose version is 0.11.0 in the 0.11.0 layout only, so that its username and lengths show; "+
		"without it every body is masked as both layouts, since development builds send the bind secret under 0.11.0")
	fs.BoolVar(&opts.raw, "raw", false, "also print every input byte as hex: this PRINTS PASSWORDS AND TOKENS")
	wantVersion := fs.Bool("version", false, "print the release version and build of wiredump, then exit")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	var paths []string
	for { // flags may follow FILE; flag stops at the first operand, so parse on
		if err := fs.Parse(args); err != nil {
			return options{}, err
		}
		if fs.NArg() == 0 {
			break
		}
		paths, args = append(paths, fs.Arg(0)), fs.Args()[1:]
	}
	if *wantVersion {
		return options{}, errPrintVersion
	}
	switch {
	case len(paths) > 1:
		return options{}, fmt.Errorf("one FILE at a time, got %d", len(paths))
	case len(paths) == 1 && opts.hasHex:
		return options{}, errors.New("give FILE or -hex, not both")
	case len(paths) == 0 && !opts.hasHex:
		fs.Usage()
		return options{}, errors.New("no input: give FILE, - or -hex")
	case len(paths) == 1:
		opts.path = paths[0]
	}
	return opts, nil
}

// readInput returns the bytes to read: -hex digits, or a file or stdin,
// raw or in Go's corpus encoding.
func readInput(opts options, stdin io.Reader) ([]byte, error) {
	if opts.hasHex {
		return parseHex(opts.hexText)
	}
	var content []byte
	var err error
	if opts.path == "-" {
		content, err = io.ReadAll(stdin)
	} else {
		content, err = os.ReadFile(opts.path)
	}
	if err != nil {
		return nil, err
	}
	return fuzzload.Decode(content)
}

// parseHex reads hex digits in groups separated by spaces, tabs, newlines,
// colons or commas, each optionally prefixed 0x. A group must hold whole
// bytes, so a typo cannot shift every byte after it.
func parseHex(s string) ([]byte, error) {
	var out []byte
	for i, g := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\r\n:,", r) }) {
		g = strings.TrimPrefix(strings.TrimPrefix(g, "0x"), "0X")
		b, err := hex.DecodeString(g)
		if err != nil || len(b) == 0 {
			return nil, fmt.Errorf("-hex group %d (%d characters) is not whole bytes of hex digits", i+1, len(g))
		}
		out = append(out, b...)
	}
	return out, nil
}
