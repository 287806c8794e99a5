package main

import (
	"fmt"
	"io"

	"github.com/iggywire/iggywire/internal/release"
)

// printVersion writes the version line of conform -version: the release,
// then the main module's version from the build information (v0.1.0 for
// go install ...@v0.1.0, none for a build from a clone) and the Go that
// built it.
func printVersion(stdout io.Writer) error {
	_, err := fmt.Fprintln(stdout, release.Line("conform"))
	return err
}
