// Command fuzzrun does the parts of fuzzing that a shell loop over
// `go test -list` and `go test -fuzz` (the Makefile's fuzz, libfuzzer and
// cover-corpus recipes) cannot:
//
//	fuzzrun -libfuzzer-build DIR [-run FuzzX] [-overlay FILE]
//	fuzzrun -save FuzzX FILE
//	fuzzrun -promote [-run FuzzX]
//
// -libfuzzer-build is the one copy of the build steps `make libfuzzer` and
// .clusterfuzzlite/build.sh share (lfbuild.go); -save and -promote
// (found.go) keep what fuzzing found, read through internal/fuzzload (the
// one reader of Go's "go test fuzz v1" encoding), as raw files in crashers/
// and corpus/. It must be run from the module root, as the Makefile does.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// config is what the flags tell the jobs.
type config struct {
	run     string
	root    string
	lfBuild string // build libFuzzer binaries here
	overlay string // a go build -overlay file for the libFuzzer and coverage builds
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and does one job; its result is the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	c := config{root: "."}
	fs := flag.NewFlagSet("fuzzrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.run, "run", "", "with -libfuzzer-build or -promote: only this target (FuzzX)")
	promote := fs.Bool("promote", false, "copy inputs fuzzing found into corpus/")
	save := fs.String("save", "", "move the failing input FILE (the argument) of this target (FuzzX) to crashers/ as raw bytes")
	fs.StringVar(&c.lfBuild, "libfuzzer-build", "", "build every target (or -run's) as a libFuzzer binary into this directory, as OSS-Fuzz's compile_native_go_fuzzer does ($CXX, $CXXFLAGS, $LIB_FUZZING_ENGINE, $SANITIZER; coverage builds test binaries)")
	fs.StringVar(&c.overlay, "overlay", "", "with -libfuzzer-build: a go build -overlay file applied to the build")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var err error
	switch {
	case *save != "" && fs.NArg() == 1:
		var path string
		if path, err = saveCrasher(c.root, fs.Arg(0), *save); err == nil {
			fmt.Fprintln(stdout, path)
		}
	case *promote:
		err = promoteAll(c, stdout)
	case c.lfBuild != "":
		err = lfBuild(c, stdout)
	default:
		fs.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "fuzzrun:", err)
		return 1
	}
	return 0
}

// selectTargets asks `go test -list`, run in c.root, for the fuzz targets
// of fuzzPkg, and returns them all, or c.run alone.
func selectTargets(c config) ([]string, error) {
	cmd := exec.Command("go", "test", "-list", "^Fuzz", fuzzPkg)
	cmd.Dir = c.root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go test -list %s: %w", fuzzPkg, err)
	}
	// Its output is the names, then "ok", the package and the time.
	targets := slices.DeleteFunc(strings.Fields(string(out)),
		func(name string) bool { return !strings.HasPrefix(name, "Fuzz") })
	if c.run == "" {
		return targets, nil
	}
	if !slices.Contains(targets, c.run) {
		return nil, fmt.Errorf("no fuzz target %q in %s (have %s)", c.run, fuzzPkg, strings.Join(targets, ", "))
	}
	return []string{c.run}, nil
}
