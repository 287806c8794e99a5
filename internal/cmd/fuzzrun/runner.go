package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// listTargets asks `go test -list`, run in the module root, for the fuzz
// targets of pkg.
func listTargets(root, pkg string) ([]string, error) {
	cmd := exec.Command("go", "test", "-list", "^Fuzz", pkg)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go test -list %s: %w", pkg, err)
	}
	return parseList(string(out)), nil
}

// parseList keeps the Fuzz* names of `go test -list` output.
func parseList(out string) []string {
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if name := strings.TrimSpace(line); strings.HasPrefix(name, "Fuzz") && !strings.ContainsAny(name, " \t") {
			names = append(names, name)
		}
	}
	return names
}

// fuzzAll runs the targets one after another, prints the table, and fails
// if any target failed.
func fuzzAll(c config, stdout io.Writer) error {
	targets, err := listTargets(c.root, c.pkg)
	if err != nil {
		return err
	}
	if c.run != "" {
		if !contains(targets, c.run) {
			return fmt.Errorf("no fuzz target %q in %s (have %s)", c.run, c.pkg, strings.Join(targets, ", "))
		}
		targets = []string{c.run}
	}
	var results []Result
	for _, t := range targets {
		fmt.Fprintf(stdout, "=== %s for %s\n", t, &c.fuzztime)
		results = append(results, fuzzOne(c, t, stdout))
	}
	fmt.Fprintln(stdout)
	if err := Render(stdout, results); err != nil {
		return err
	}
	if err := appendSummary(c.summary, results); err != nil {
		return err
	}
	if n := failures(results); n > 0 {
		return fmt.Errorf("%d of %d targets failed", n, len(results))
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fuzzOne runs one target, echoing its output, and copies a failing
// input to crashers/.
func fuzzOne(c config, target string, stdout io.Writer) Result {
	cmd := exec.Command("go", "test", "-run=^$", "-fuzz=^"+target+"$",
		"-fuzztime="+c.fuzztime.String(), "-parallel="+strconv.Itoa(c.parallel), c.pkg)
	cmd.Dir = c.root
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	r := Result{Target: target}
	if err := cmd.Start(); err != nil {
		r.Failure = err.Error()
		return r
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	failing, deadline := scan(pr, stdout, &r)
	if r.seedFails {
		fmt.Fprint(stdout, seedFileHint(c.root, target, r.failedSeed))
	}
	if err := <-done; err == nil {
		return r
	}
	if failing == "" && deadline {
		// Go's fuzz coordinator can report its own -fuzztime deadline as
		// a failure (go.dev/issue/75804, fixed in Go 1.27). No input
		// failed, so this is not a finding; say so instead of failing.
		r.Flake = true
		return r
	}
	if failing == "" && r.seedFails {
		r.Failure = fmt.Sprintf("%s failed in the baseline (named above)", fuzzload.SeedName(r.failedSeed))
		return r
	}
	if failing == "" {
		r.Failure = "go test failed without a failing input (see output above)"
		return r
	}
	path, err := saveCrasher(c.root, filepath.Join(c.root, c.pkg, failing), target)
	if err != nil {
		r.Failure = err.Error()
		return r
	}
	r.Crasher = path
	fmt.Fprint(stdout, rerunHint(c.root, c.pkg, target, failing, path))
	return r
}

// scan echoes the output, keeps the last status line in r, and returns
// the failing input's path if a line names one, and whether the run
// reported the bare deadline error of go.dev/issue/75804. It also times the
// fuzzing itself, from the end of the baseline to the end of the output,
// since status lines round their elapsed time to whole seconds.
func scan(out io.Reader, echo io.Writer, r *Result) (failing string, deadline bool) {
	var started time.Time
	defer func() {
		if !started.IsZero() {
			r.Fuzzed = time.Since(started)
		}
	}()
	s := bufio.NewScanner(out)
	for s.Scan() {
		line := s.Text()
		fmt.Fprintln(echo, line)
		if started.IsZero() && strings.Contains(line, "now fuzzing") {
			started = time.Now()
		}
		if p, ok := ParseProgress(line); ok {
			r.Last = p
		}
		if f, ok := ParseFailing(line); ok {
			failing = f
		}
		if _, n, ok := ParseSeedFailure(line); ok {
			r.failedSeed, r.seedFails = n, true
		}
		deadline = deadline || IsDeadlineRace(line)
	}
	return failing, deadline
}

// errNoFile is returned when a path names no regular file.
var errNoFile = errors.New("not a regular file")

func isFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", path, errNoFile)
	}
	return nil
}
