package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// LFResult is what one libFuzzer binary's run came to.
type LFResult struct {
	Target  string
	Execs   int64 // stat::number_of_executed_units
	PerSec  int64 // Execs over Elapsed (libFuzzer's own rate has whole seconds)
	Cov     int64 // edges covered (the last "cov:" of the run)
	Feat    int64 // features (the last "ft:")
	New     int64 // stat::new_units_added
	Elapsed time.Duration
	Crasher string // where the crashing input was saved, if the run crashed
	Failure string // why the run failed without one
}

// Failed reports whether the run did not pass.
func (r LFResult) Failed() bool { return r.Crasher != "" || r.Failure != "" }

func (r LFResult) verdict() string {
	switch {
	case r.Crasher != "":
		return r.Crasher
	case r.Failure != "":
		return "FAIL: " + r.Failure
	}
	return "PASS"
}

// lfFlags are the libFuzzer flags of a run with budget b: a count is
// -runs (executions, the corpus's own included), a duration
// -max_total_time in whole seconds.
func lfFlags(b budget) []string {
	if b.count > 0 {
		return []string{"-runs=" + strconv.FormatInt(b.count, 10)}
	}
	secs := int64(b.d.Round(time.Second) / time.Second)
	return []string{"-max_total_time=" + strconv.FormatInt(max(secs, 1), 10)}
}

// lfRunAll runs every binary of c.lfRun (one per target, or c.run's),
// prints the table and fails if any target failed.
func lfRunAll(c config, stdout io.Writer) error {
	targets, err := selectTargets(c)
	if err != nil {
		return err
	}
	var results []LFResult
	for _, t := range targets {
		fmt.Fprintf(stdout, "=== %s (libFuzzer) for %s\n", t, &c.fuzztime)
		results = append(results, lfRunOne(c, t, stdout))
	}
	fmt.Fprintln(stdout)
	if err := RenderLF(stdout, results); err != nil {
		return err
	}
	failed := 0
	for _, r := range results {
		if r.Failed() {
			failed++
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d targets failed under libFuzzer", failed, len(results))
	}
	return nil
}

// lfRunOne runs one binary over corpus/<Target>/ and crashers/<Target>/
// with a scratch directory first (where libFuzzer writes what it finds,
// so the checked-in corpus never changes) and its dictionary. A crash is
// moved to crashers/<Target>/ as the raw input libFuzzer wrote.
func lfRunOne(c config, target string, stdout io.Writer) LFResult {
	r := LFResult{Target: target}
	bin, err := filepath.Abs(filepath.Join(c.lfRun, target))
	if err == nil {
		err = isFile(bin)
	}
	if err != nil {
		r.Failure = fmt.Sprintf("no binary: %v (make libfuzzer builds it)", err)
		return r
	}
	work, err := os.MkdirTemp("", "libfuzzer-"+target+"-")
	if err != nil {
		r.Failure = err.Error()
		return r
	}
	defer os.RemoveAll(work)
	scratch := filepath.Join(work, "corpus")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		r.Failure = err.Error()
		return r
	}
	args := append(lfFlags(c.fuzztime), "-print_final_stats=1", "-artifact_prefix="+work+string(filepath.Separator))
	if dict := bin + ".dict"; isFile(dict) == nil {
		args = append(args, "-dict="+dict)
	}
	args = append(args, scratch)
	for _, d := range []string{fuzzload.CorpusDir, fuzzload.CrashersDir} {
		if dir := filepath.Join(c.root, d, target); isDir(dir) {
			args = append(args, dir)
		}
	}
	cmd := exec.Command(bin, args...)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		r.Failure = err.Error()
		return r
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	artifact := scanLF(pr, stdout, &r)
	runErr := <-done
	r.Elapsed = time.Since(start)
	if secs := r.Elapsed.Seconds(); secs > 0 {
		r.PerSec = int64(float64(r.Execs) / secs)
	}
	switch {
	case artifact != "":
		r.Crasher, err = saveCrasher(c.root, artifact, target)
		if err != nil {
			r.Crasher, r.Failure = "", err.Error()
			break
		}
		fmt.Fprintf(stdout, "fuzzrun: the crashing input is now %s (raw bytes, as libFuzzer wrote it)\n", r.Crasher)
		fmt.Fprintf(stdout, "fuzzrun: to re-run it: go test ./fuzz -run '^%s$'   (or %s %s)\n", target, bin, r.Crasher)
	case runErr != nil:
		r.Failure = fmt.Sprintf("%v, no input written (see output above)", runErr)
	}
	return r
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

var (
	lfStatus = regexp.MustCompile(`^#\d+\s+\S+\s+cov: (\d+) ft: (\d+)`)
	lfStat   = regexp.MustCompile(`^stat::(\w+):\s+(\d+)`)
	lfUnit   = regexp.MustCompile(`Test unit written to (\S+)`)
)

// scanLF echoes libFuzzer's output, keeps its figures in r, and returns
// the path of the input a crash, timeout or out-of-memory wrote.
func scanLF(out io.Reader, echo io.Writer, r *LFResult) (artifact string) {
	s := bufio.NewScanner(out)
	s.Buffer(make([]byte, 64*1024), 1<<20)
	for s.Scan() {
		line := s.Text()
		fmt.Fprintln(echo, line)
		if m := lfStatus.FindStringSubmatch(line); m != nil {
			r.Cov, _ = strconv.ParseInt(m[1], 10, 64)
			r.Feat, _ = strconv.ParseInt(m[2], 10, 64)
		}
		if m := lfStat.FindStringSubmatch(line); m != nil {
			n, _ := strconv.ParseInt(m[2], 10, 64)
			switch m[1] {
			case "number_of_executed_units":
				r.Execs = n
			case "new_units_added":
				r.New = n
			}
		}
		if m := lfUnit.FindStringSubmatch(line); m != nil && !strings.HasPrefix(filepath.Base(m[1]), "slow-unit-") {
			artifact = m[1]
		}
	}
	return artifact
}

// RenderLF writes one row per target, a total row, and a closing line
// "libfuzzer: N passed, N failed", as Render does for go test.
func RenderLF(w io.Writer, results []LFResult) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\texecs\texecs/s\tcov\tft\tnew\telapsed\t\tresult")
	var execs int64
	var elapsed time.Duration
	failed := 0
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t\t%s\n", r.Target, r.Execs, r.PerSec, r.Cov, r.Feat, r.New,
			r.Elapsed.Round(100*time.Millisecond), r.verdict())
		execs += r.Execs
		elapsed += r.Elapsed
		if r.Failed() {
			failed++
		}
	}
	fmt.Fprintf(tw, "total\t%d\t\t\t\t\t%s\t\t%d failed\n", execs, elapsed.Round(100*time.Millisecond), failed)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\nlibfuzzer: %d passed, %d failed\n", len(results)-failed, failed)
	return err
}

// lfCoverAll replays corpus/<Target>/ and crashers/<Target>/ through each
// coverage binary of c.lfCover as OSS-Fuzz's coverage runner does (the
// directory in $FUZZ_CORPUS_DIR, -test.coverprofile) and prints the
// product statements each target reaches, and all of them together.
func lfCoverAll(c config, stdout io.Writer) error {
	targets, err := selectTargets(c)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "libfuzzer-cover-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\tinputs\tstatements\tcovered\t\t")
	var profiles []string
	for _, t := range targets {
		profile, n, err := lfCoverOne(c, work, t)
		if err != nil {
			return err
		}
		p, err := readProfile(profile)
		if err != nil {
			return err
		}
		profiles = append(profiles, profile)
		fmt.Fprintf(tw, "%s\t%d\t%d/%d\t%.1f%%\t\t\n", t, n, p.Covered, p.Statements, p.Percent())
	}
	all, err := mergeProfiles(work, profiles)
	if err != nil {
		return err
	}
	fmt.Fprintf(tw, "all\t\t%d/%d\t%.1f%%\t\t\n", all.Covered, all.Statements, all.Percent())
	return tw.Flush()
}

// lfCoverOne runs target's coverage binary over its inputs and returns
// the profile's path and how many inputs it replayed.
func lfCoverOne(c config, work, target string) (string, int, error) {
	bin, err := filepath.Abs(filepath.Join(c.lfCover, target))
	if err != nil {
		return "", 0, err
	}
	inputs, err := fuzzload.Target(c.root, target)
	if err != nil {
		return "", 0, err
	}
	dir := filepath.Join(work, target)
	for _, in := range inputs {
		if err := writeNew(filepath.Join(dir, contentName("seed", in.Data)), in.Data); err != nil {
			return "", 0, err
		}
	}
	profile := filepath.Join(work, target+".cov")
	cmd := exec.Command(bin, "-test.coverprofile="+profile)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "FUZZ_CORPUS_DIR="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", 0, fmt.Errorf("%s: coverage run: %w\n%s", target, err, out)
	}
	return profile, len(inputs), nil
}

func readProfile(path string) (Profile, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Profile{}, fmt.Errorf("%s: the coverage binary wrote no profile", path)
	}
	if err != nil {
		return Profile{}, err
	}
	defer f.Close()
	return ParseProfile(f)
}

// mergeProfiles reads profiles as one (ParseProfile counts a block run by
// any of them).
func mergeProfiles(work string, profiles []string) (Profile, error) {
	var b strings.Builder
	b.WriteString("mode: atomic\n")
	for _, p := range profiles {
		data, err := os.ReadFile(p)
		if err != nil {
			return Profile{}, err
		}
		for _, line := range strings.Split(string(data), "\n") {
			if line != "" && !strings.HasPrefix(line, "mode:") {
				b.WriteString(line + "\n")
			}
		}
	}
	return ParseProfile(strings.NewReader(b.String()))
}
