// Command fuzzrun drives the fuzz targets of ./fuzz/: `make fuzz` runs every
// target for -fuzztime, one after another, and prints a table of
// executions, execs/s, new inputs, corpus size and PASS or the crasher's
// path; a failing input is copied to crashers/<Target>/ as raw bytes.
// -promote copies what fuzzing found into corpus/; -cover replays corpus/
// and crashers/ alone and prints codec/'s statement coverage (-html also
// writes the annotated source as a page). -libfuzzer-build builds every
// target as a libFuzzer binary (the one copy of the steps `make libfuzzer`
// and .clusterfuzzlite/build.sh share), -libfuzzer runs those binaries and
// prints their table, and -libfuzzer-cover replays the corpus through a
// SANITIZER=coverage build. When $GITHUB_STEP_SUMMARY is set, as in a
// GitHub Actions step, the go test table is appended to it as Markdown too.
//
// It must be run from the module root, as the Makefile does.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"
)

// defaultPkg is the package whose fuzz targets every job runs.
const defaultPkg = "./fuzz/"

// config is everything the flags say.
type config struct {
	fuzztime budget
	run      string
	parallel int
	promote  bool
	cover    bool
	max      int
	pkg      string
	root     string
	summary  string // append the table as Markdown here too (GitHub's step summary)
	html     string // with -cover: also write go tool cover's HTML page here
	lfBuild  string // build libFuzzer binaries here instead of fuzzing
	lfRun    string // run the libFuzzer binaries built here instead of go test
	lfCover  string // replay the corpus through the coverage binaries built here
	overlay  string // a go build -overlay file for the libFuzzer and coverage builds
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses args and does one job; its result is the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	c := config{fuzztime: budget{d: 7 * time.Second}}
	fs := flag.NewFlagSet("fuzzrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(&c.fuzztime, "fuzztime", `how long to fuzz each target: a duration ("7s") or an execution count ("50000x")`)
	fs.StringVar(&c.run, "run", "", "fuzz only this target (FuzzX)")
	fs.IntVar(&c.parallel, "parallel", runtime.NumCPU(), "fuzzing workers per target")
	fs.BoolVar(&c.promote, "promote", false, "copy inputs fuzzing found into corpus/ instead of fuzzing")
	fs.BoolVar(&c.cover, "cover", false, "replay corpus/ and crashers/ and print codec/ coverage instead of fuzzing")
	fs.IntVar(&c.max, "max", DefaultMaxPerTarget, "with -promote: most promoted files (found-*) a corpus/<Target>/ may hold; seeds do not count")
	fs.StringVar(&c.pkg, "pkg", defaultPkg, "package holding the fuzz targets")
	fs.StringVar(&c.root, "root", ".", "module root")
	fs.StringVar(&c.summary, "summary", os.Getenv("GITHUB_STEP_SUMMARY"), "also append the table as Markdown to this file (default $GITHUB_STEP_SUMMARY)")
	fs.StringVar(&c.lfBuild, "libfuzzer-build", "", "build every target (or -run's) as a libFuzzer binary into this directory, as OSS-Fuzz's compile_native_go_fuzzer does ($CXX, $CXXFLAGS, $LIB_FUZZING_ENGINE, $SANITIZER; coverage builds test binaries)")
	fs.StringVar(&c.lfRun, "libfuzzer", "", "run the libFuzzer binaries of this directory for -fuzztime each over corpus/<Target>/ and print a table")
	fs.StringVar(&c.lfCover, "libfuzzer-cover", "", "replay corpus/ and crashers/ through the coverage binaries of this directory (SANITIZER=coverage) and print each target's statement coverage")
	fs.StringVar(&c.overlay, "overlay", "", "with -libfuzzer-build: a go build -overlay file applied to the build")
	fs.StringVar(&c.html, "html", "", "with -cover: also write an HTML coverage page (go tool cover -html) to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var err error
	switch {
	case c.promote:
		err = promoteAll(c, stdout)
	case c.cover:
		err = cover(c, stdout)
	case c.lfBuild != "":
		err = lfBuild(c, stdout)
	case c.lfRun != "":
		err = lfRunAll(c, stdout)
	case c.lfCover != "":
		err = lfCoverAll(c, stdout)
	default:
		err = fuzzAll(c, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fuzzrun:", err)
		return 1
	}
	return 0
}
