package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mdResults() []Result {
	return []Result{
		{Target: "FuzzA", Last: Progress{Elapsed: 10 * time.Second, Execs: 500000, New: 3, Total: 40}},
		{Target: "FuzzB", Last: Progress{Elapsed: 4 * time.Second, Execs: 100}, Crasher: "crashers/FuzzB/abc"},
		{Target: "FuzzC", Failure: "exit status 1 | see\noutput"},
	}
}

func TestRenderMarkdown(t *testing.T) {
	var b strings.Builder
	require.NoError(t, RenderMarkdown(&b, mdResults()))
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 8, "header, rule, 3 rows, total, blank, closing line:\n%s", b.String())
	assert.Equal(t, "| target | execs | execs/s | new | corpus | elapsed | result |", lines[0])
	assert.Equal(t, "| FuzzA | 500000 | 50000 | 3 | 40 | 10s | PASS |", lines[2])
	assert.Equal(t, "| FuzzB | 100 | 25 | 0 | 0 | 4s | **FAIL** crashers/FuzzB/abc |", lines[3])
	// A '|' or newline in a failure message must not break the table.
	assert.Equal(t, `| FuzzC | 0 | 0 | 0 | 0 | 0s | **FAIL** FAIL: exit status 1 \| see output |`, lines[4])
	assert.Equal(t, "| **total** | 500100 | | | | 14s | 2 failed |", lines[5])
	assert.Equal(t, "fuzz: 1 passed, 2 failed", lines[7])
	for i, l := range lines[:6] {
		assert.Equal(t, 8, strings.Count(l, "|")-strings.Count(l, `\|`), "line %d has 7 cells: %q", i, l)
	}
}

func TestAppendSummary(t *testing.T) {
	require.NoError(t, appendSummary("", mdResults()), "no path, nothing to do")

	path := filepath.Join(t.TempDir(), "summary.md")
	require.NoError(t, os.WriteFile(path, []byte("# earlier step\n"), 0o644))
	require.NoError(t, appendSummary(path, mdResults()))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), "# earlier step\n| target |"), "appends, keeping what other steps wrote:\n%s", got)
	assert.Contains(t, string(got), "fuzz: 1 passed, 2 failed")

	require.Error(t, appendSummary(filepath.Join(t.TempDir(), "no", "such", "dir"), mdResults()))
}

// TestRunWritesSummary: a fuzz run ends with the Markdown table in the file
// $GITHUB_STEP_SUMMARY names, even when it fails.
func TestRunWritesSummary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and fuzzes a package")
	}
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	var out, errs strings.Builder
	code := run([]string{"-root", "../../..", "-pkg", "./fuzz/", "-run", "FuzzParseVersion", "-fuzztime", "200x", "-parallel", "1"}, &out, &errs)
	require.Equal(t, 0, code, "stdout:\n%s\nstderr:\n%s", out.String(), errs.String())
	got, err := os.ReadFile(summary)
	require.NoError(t, err)
	assert.Contains(t, string(got), "| FuzzParseVersion | ")
	assert.Contains(t, string(got), "fuzz: 1 passed, 0 failed")
}
