package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/iggywire/iggywire/internal/release"
)

// errPrintVersion is what parseArgs returns for -version: run prints the
// version line instead of reading an input.
var errPrintVersion = errors.New("-version: print the version")

// printVersion writes the version line to stdout and returns the status.
func printVersion(stdout io.Writer) int {
	if _, err := fmt.Fprintln(stdout, release.Line("wiredump")); err != nil {
		return exitUsage
	}
	return exitOK
}
