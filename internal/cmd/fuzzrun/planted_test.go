package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plantedTarget is the target the planted bug is in reach of, and
// plantedBudget what make libfuzzer-one gets to find it.
const (
	plantedTarget = "FuzzSplitResult"
	plantedBudget = "100000x"
)

// plantIn is the file the bug goes in, after the line plantAfter:
// SplitResult panics on a result section that claims 0x1BADCAFE entries,
// the kind of value libFuzzer's comparison tracing finds (in a few
// thousand executions from corpus/FuzzSplitResult/, on the seeds tried)
// where blind mutation would need billions.
const (
	plantIn    = "codec/frame.go"
	plantAfter = "\tcount := binary.LittleEndian.Uint32(body)\n"
	plantedBug = "\tif count == 0x1badcafe {\n\t\tpanic(\"planted bug: a result section of 0x1badcafe entries\")\n\t}\n"
	plantedMsg = "planted bug: a result section of 0x1badcafe entries"
)

// TestLibFuzzerFindsPlantedBug plants a bug in codec/ through a go build
// overlay (the shipped code never holds it), in a copy of the module, and
// shows the whole round trip: make libfuzzer-one finds it within its
// budget and saves the crashing input under crashers/<Target>/; go test,
// with the same overlay, fails on that file; without it, the same file
// passes. It needs clang and takes a minute, so it runs only when
// IGGYWIRE_LIBFUZZER is set (make libfuzzer-planted, which CI runs).
func TestLibFuzzerFindsPlantedBug(t *testing.T) {
	if os.Getenv("IGGYWIRE_LIBFUZZER") == "" {
		t.Skip("set IGGYWIRE_LIBFUZZER=1 (make libfuzzer-planted) to build with clang and fuzz")
	}
	clone := copyModule(t)
	overlay := plantBug(t, clone)

	out, err := runIn(clone, "make", "libfuzzer-one", "T="+plantedTarget, "LFTIME="+plantedBudget,
		"LFOVERLAY="+overlay, "LFDIR="+filepath.Join(clone, "bin", "libfuzzer"))
	require.Error(t, err, "make libfuzzer-one must fail on the planted bug:\n%s", out)
	assert.Contains(t, out, plantedMsg)
	crashers, err := filepath.Glob(filepath.Join(clone, "crashers", plantedTarget, "crash-*"))
	require.NoError(t, err)
	require.Len(t, crashers, 1, "one crasher saved:\n%s", out)
	crasher, err := os.ReadFile(crashers[0])
	require.NoError(t, err)
	t.Logf("libFuzzer's crasher %s: %q, found after %s", filepath.Base(crashers[0]), crasher, lastStatus(out))
	readme, err := os.ReadFile(filepath.Join(clone, "crashers", "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(readme), plantedTarget+"/"+filepath.Base(crashers[0]), "the crasher gets its line")

	replay := []string{"test", "./fuzz", "-count=1", "-run", "^" + plantedTarget + "$"}
	out, err = runIn(clone, "go", append(replay, "-overlay", overlay)...)
	require.Error(t, err, "go test must fail on the crasher with the bug planted:\n%s", out)
	assert.Contains(t, out, plantedMsg)
	assert.Contains(t, out, "crashers/"+plantedTarget+"/"+filepath.Base(crashers[0]), "the failing seed is named by file")

	out, err = runIn(clone, "go", replay...)
	assert.NoError(t, err, "without the planted bug the crasher passes:\n%s", out)
}

// copyModule copies the module (without .git, bin/ and the cmd/ module)
// to a temporary directory, so the crasher and its README line never
// reach the working tree.
func copyModule(t *testing.T) string {
	t.Helper()
	clone := t.TempDir()
	root, err := filepath.Abs(moduleRoot)
	require.NoError(t, err)
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == ".git" || rel == "bin" || rel == "cmd" {
				return filepath.SkipDir
			}
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return writeNew(filepath.Join(clone, rel), b)
	})
	require.NoError(t, err)
	return clone
}

// plantBug writes plantIn with the bug outside the module and an
// overlay file that puts it in place of the real one; it returns the
// overlay's path.
func plantBug(t *testing.T, clone string) string {
	t.Helper()
	orig := filepath.Join(clone, filepath.FromSlash(plantIn))
	src, err := os.ReadFile(orig)
	require.NoError(t, err)
	require.Equal(t, 1, strings.Count(string(src), plantAfter), "%s changed: the bug has nowhere to go", plantIn)
	planted := filepath.Join(t.TempDir(), filepath.Base(orig))
	require.NoError(t, os.WriteFile(planted, []byte(strings.Replace(string(src), plantAfter, plantAfter+plantedBug, 1)), 0o644))
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {orig: planted}})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "overlay.json")
	require.NoError(t, os.WriteFile(path, overlay, 0o644))
	return path
}

// lastStatus is libFuzzer's last status line ("#N ... cov: ..."): how far
// the run got.
func lastStatus(out string) string {
	last := "no status line"
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "#") {
			last = strings.Join(strings.Fields(line)[:4], " ")
		}
	}
	return last
}

func runIn(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestLibFuzzerCoverageBuild: the SANITIZER=coverage build of one target,
// replayed as OSS-Fuzz's coverage runner does ($FUZZ_CORPUS_DIR and
// -test.coverprofile), counts real statements of the product, and only
// those its own target reaches: the binary skips the other targets.
func TestLibFuzzerCoverageBuild(t *testing.T) {
	if os.Getenv("IGGYWIRE_LIBFUZZER") == "" {
		t.Skip("set IGGYWIRE_LIBFUZZER=1 (make libfuzzer-planted) to build the coverage binaries")
	}
	t.Setenv("SANITIZER", "coverage")
	out := t.TempDir()
	c := config{root: moduleRoot, run: "FuzzSplitResult", lfBuild: out}
	var log strings.Builder
	require.NoError(t, lfBuild(c, &log), log.String())
	_, err := os.Stat(filepath.Join(out, "FuzzSplitResult.gocovpath"))
	require.NoError(t, err, "the runner's path file")
	corpus, err := filepath.Abs(filepath.Join(moduleRoot, "corpus", "FuzzSplitResult"))
	require.NoError(t, err)
	profile := filepath.Join(t.TempDir(), "cover.out")
	cmd := exec.Command(filepath.Join(out, "FuzzSplitResult"), "-test.coverprofile="+profile)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "FUZZ_CORPUS_DIR="+corpus)
	b, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", b)
	statements, covered := countProfile(t, profile)
	t.Logf("FuzzSplitResult's corpus reaches %d of %d statements", covered, statements)
	assert.Greater(t, statements, 1000, "codec/ and lifecycle/ are counted")
	assert.Positive(t, covered, "the corpus reached SplitResult")
	assert.Less(t, covered, 100, "only FuzzSplitResult ran: the other targets skip")
}

// countProfile sums a coverage profile's statements and those run.
func countProfile(t *testing.T, path string) (statements, covered int) {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, line := range strings.Split(string(b), "\n")[1:] {
		var block string
		var n, count int
		if _, err := fmt.Sscan(line, &block, &n, &count); err == nil {
			statements += n
			if count > 0 {
				covered += n
			}
		}
	}
	return statements, covered
}
