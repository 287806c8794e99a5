// Command fuzzrun drives the fuzz targets of ./fuzz/: `make fuzz` runs every
// target for -fuzztime, one after another, and prints a table of
// executions, execs/s, new inputs, corpus size and PASS or the crasher's
// path; a failing input is copied to crashers/<Target>/ as raw bytes.
// -promote copies what fuzzing found into corpus/; -cover replays corpus/
// and crashers/ alone and prints codec/'s statement coverage.
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
	fs.IntVar(&c.max, "max", DefaultMaxPerTarget, "with -promote: most files a corpus/<Target>/ may hold")
	fs.StringVar(&c.pkg, "pkg", "./fuzz/", "package holding the fuzz targets")
	fs.StringVar(&c.root, "root", ".", "module root")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var err error
	switch {
	case c.promote:
		err = promoteAll(c, stdout)
	case c.cover:
		err = cover(c, stdout)
	default:
		err = fuzzAll(c, stdout)
	}
	if err != nil {
		fmt.Fprintln(stderr, "fuzzrun:", err)
		return 1
	}
	return 0
}
