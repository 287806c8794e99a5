package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"
	"time"
)

// Result is what one target's run came to.
type Result struct {
	Target  string
	Last    Progress // the last status line seen
	Crasher string   // where the failing input was copied, if the run failed
	Failure string   // why the run failed when there is no crasher (build error, ...)
	Flake   bool     // go test hit go.dev/issue/75804: no input failed
	// Fuzzed is the wall time from the end of the baseline to the end of
	// the run; zero when it was not seen.
	Fuzzed time.Duration
	// failedSeed is the N of the seed#N that failed in the baseline, when
	// seedFails: Go names seeds by number, not by file.
	failedSeed int
	seedFails  bool
}

// Failed reports whether the run did not pass.
func (r Result) Failed() bool { return r.Crasher != "" || r.Failure != "" }

// ExecsPerSec is executions over the whole fuzzing time: the last status
// line's own rate covers only its last three seconds.
func (r Result) ExecsPerSec() int64 {
	secs := r.elapsed().Seconds()
	if secs <= 0 {
		return r.Last.PerSec
	}
	return int64(float64(r.Last.Execs) / secs)
}

// elapsed is the measured fuzzing time, or the last status line's
// (whole seconds) when it was not measured.
func (r Result) elapsed() time.Duration {
	if r.Fuzzed > 0 {
		return r.Fuzzed.Round(100 * time.Millisecond)
	}
	return r.Last.Elapsed
}

func (r Result) verdict() string {
	switch {
	case r.Crasher != "":
		return r.Crasher
	case r.Failure != "":
		return "FAIL: " + r.Failure
	case r.Flake:
		return "PASS (go.dev/issue/75804 deadline race, no input failed)"
	}
	return "PASS"
}

// Render writes one row per target, a total row, and a closing line
// "fuzz: N passed, N failed" in the plain form test reports end with.
func Render(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\texecs\texecs/s\tnew\tcorpus\telapsed\t\tresult")
	var execs int64
	var elapsed time.Duration
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t\t%s\n", r.Target, r.Last.Execs, r.ExecsPerSec(),
			r.Last.New, r.Last.Total, r.elapsed(), r.verdict())
		execs += r.Last.Execs
		elapsed += r.elapsed()
	}
	failed := failures(results)
	fmt.Fprintf(tw, "%s\t%d\t\t\t\t%s\t\t%s\n", "total", execs, elapsed, strconv.Itoa(failed)+" failed")
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nfuzz: %d passed, %d failed\n", len(results)-failed, failed)
	return err
}

func failures(results []Result) int {
	n := 0
	for _, r := range results {
		if r.Failed() {
			n++
		}
	}
	return n
}
