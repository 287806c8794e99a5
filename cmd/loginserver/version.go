package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/iggywire/iggywire/internal/release"
)

// errPrintVersion is what parseConfig, and so run, returns for -version:
// main prints the version line and exits 0 instead of serving.
var errPrintVersion = errors.New("-version: print the version")

// printVersion writes the version line; a failed write exits 2.
func printVersion(stdout io.Writer) {
	if _, err := fmt.Fprintln(stdout, release.Line("loginserver")); err != nil {
		fmt.Fprintln(os.Stderr, "loginserver:", err)
		os.Exit(2)
	}
}
