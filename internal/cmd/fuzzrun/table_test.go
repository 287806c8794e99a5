package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRender(t *testing.T) {
	results := []Result{
		{Target: "FuzzA", Last: Progress{Elapsed: 10 * time.Second, Execs: 500000, PerSec: 1, New: 3, Total: 40}},
		{Target: "FuzzLonger", Last: Progress{Elapsed: 4 * time.Second, Execs: 100}, Crasher: "crashers/FuzzLonger/abc"},
		{Target: "FuzzC", Failure: "no status line"},
		{Target: "FuzzD", Flake: true},
	}
	var b strings.Builder
	require.NoError(t, Render(&b, results))
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	require.Len(t, lines, 8, "header, 4 rows, a total, a blank and a closing line:\n%s", b.String())
	assert.Equal(t, "fuzz: 2 passed, 2 failed", lines[7], "closing line")
	wantFields := [][]string{
		{"target", "execs", "execs/s", "new", "corpus", "elapsed", "result"},
		{"FuzzA", "500000", "50000", "3", "40", "10s", "PASS"},
		{"FuzzLonger", "100", "25", "0", "0", "4s", "crashers/FuzzLonger/abc"},
		{"FuzzC", "0", "0", "0", "0", "0s", "FAIL:", "no", "status", "line"},
		{"FuzzD", "0", "0", "0", "0", "0s", "PASS", "(go.dev/issue/75804", "deadline", "race,", "no", "input", "failed)"},
		{"total", "500100", "14s", "2", "failed"},
	}
	for i, want := range wantFields {
		assert.Equal(t, want, strings.Fields(lines[i]), "line %d = %q", i, lines[i])
	}
	// Columns line up: every row is as wide as the header up to "result".
	assert.Equal(t, strings.Index(lines[0], "result"), strings.Index(lines[1], "PASS"),
		"result column aligned:\n%s", b.String())
}

func TestExecsPerSecMeasured(t *testing.T) {
	r := Result{Last: Progress{Execs: 30000, Elapsed: time.Second}, Fuzzed: 1500 * time.Millisecond}
	assert.Equal(t, int64(20000), r.ExecsPerSec(), "from the measured 1.5s")
}

func TestExecsPerSecWithoutElapsed(t *testing.T) {
	r := Result{Last: Progress{Execs: 10, PerSec: 7}}
	assert.Equal(t, int64(7), r.ExecsPerSec(), "the line's own rate")
}
