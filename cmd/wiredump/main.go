// Command wiredump decodes a frame, a body or version text of the Iggy
// connection lifecycle into named fields, one per line with its offset and
// size, so that fuzz crashers and captured frames can be read.
//
// Usage:
//
//	wiredump [-as KIND] [-json] FILE
//	wiredump [-as KIND] [-json] -hex HEX
//
// FILE is raw bytes, "-" for stdin, or a "go test fuzz v1" file. Without
// -as, an input of at least 256 bytes is decoded by its command byte and an
// input shorter than a header is tried as every body kind. Passwords and
// tokens are never printed: their fields show only their length, and the
// hex dump shows their bytes as "..". Whatever the size fields and command
// bytes claim, any bytes that some reading of the input could take for a
// password or a token are blanked, so a dump may blank more than the
// secrets themselves.
//
// Exit status: 0 decoded, 1 decode error, 2 usage error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
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
	kind    string
	hexText string
	hasHex  bool
	asJSON  bool
	path    string
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseArgs(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "wiredump: %v\n", err)
		}
		return exitUsage
	}
	src, isFuzz, err := readInput(opts, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "wiredump: %v\n", err)
		return exitUsage
	}
	r, err := Dump(src, opts.kind)
	if err != nil {
		fmt.Fprintf(stderr, "wiredump: %v\n", err)
		return exitUsage
	}
	if isFuzz {
		r.Notes = append([]string{"input read from a " + fuzzHeader + " file"}, r.Notes...)
	}
	write := r.WriteText
	if opts.asJSON {
		write = r.WriteJSON
	}
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "wiredump: %v\n", err)
		return exitUsage
	}
	if !r.OK {
		return exitDecode
	}
	return exitOK
}

const usageText = `usage: wiredump [-as KIND] [-json] FILE|-
       wiredump [-as KIND] [-json] -hex HEX

Decodes an Iggy connection-lifecycle frame, body or version text into named
fields (offset, size, value), in wire order. FILE holds raw bytes or a
"go test fuzz v1" file; "-" reads stdin. Passwords and tokens are never shown.

Without -as, an input of 256 bytes or more is decoded by its command byte
(5 Request, 8 Reply, 13 Eviction) and its body by the header; a shorter input
is tried as every body kind.

Exit status: 0 decoded, 1 decode error, 2 usage error.

flags:
`

func parseArgs(args []string, stderr io.Writer) (options, error) {
	var opts options
	fs := flag.NewFlagSet("wiredump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&opts.kind, "as", kindAuto, "decode as `KIND`: "+strings.Join(kinds(), ", "))
	fs.Func("hex", "read the input from `HEX` digits (spaces, newlines, colons and 0x allowed)", func(s string) error {
		opts.hexText, opts.hasHex = s, true
		return nil
	})
	fs.BoolVar(&opts.asJSON, "json", false, "print one JSON object instead of text")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	var paths []string
	// Flags may follow FILE; flag stops at the first operand, so parse on.
	for {
		if err := fs.Parse(args); err != nil {
			return options{}, err
		}
		if fs.NArg() == 0 {
			break
		}
		paths = append(paths, fs.Arg(0))
		args = fs.Args()[1:]
	}
	switch {
	case len(paths) > 1:
		return options{}, fmt.Errorf("one FILE at a time, got %d", len(paths))
	case len(paths) == 1 && opts.hasHex:
		return options{}, errors.New("give FILE or -hex, not both")
	case len(paths) == 0 && !opts.hasHex:
		fs.Usage()
		return options{}, errors.New("no input: give FILE, - or -hex")
	}
	if len(paths) == 1 {
		opts.path = paths[0]
	}
	return opts, nil
}

// readInput returns the bytes to decode, and whether they came from a
// go test fuzz v1 file.
func readInput(opts options, stdin io.Reader) ([]byte, bool, error) {
	if opts.hasHex {
		b, err := parseHex(opts.hexText)
		return b, false, err
	}
	var content []byte
	var err error
	if opts.path == "-" {
		content, err = io.ReadAll(stdin)
	} else {
		content, err = os.ReadFile(opts.path)
	}
	if err != nil {
		return nil, false, err
	}
	return decodeInput(content)
}
