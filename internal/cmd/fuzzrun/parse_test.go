package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestParseProgress(t *testing.T) {
	cases := []struct {
		line string
		want Progress
		ok   bool
	}{
		{"fuzz: elapsed: 3s, execs: 12345 (4115/sec), new interesting: 3 (total: 40)",
			Progress{3 * time.Second, 12345, 4115, 3, 40}, true},
		{"  fuzz: elapsed: 1m0s, execs: 9 (0/sec), new interesting: 0 (total: 1)\n",
			Progress{time.Minute, 9, 0, 0, 1}, true},
		{"fuzz: elapsed: 0s, gathering baseline coverage: 0/65 completed", Progress{}, false},
		{"warning: starting with empty corpus", Progress{}, false},
		{"fuzz: elapsed: 3x, execs: 1 (1/sec), new interesting: 0 (total: 1)", Progress{}, false},
		{"fuzz: elapsed: 3s, execs: 99999999999999999999 (1/sec), new interesting: 0 (total: 1)", Progress{}, false},
		{"", Progress{}, false},
	}
	for _, c := range cases {
		got, ok := ParseProgress(c.line)
		assert.Equal(t, c.ok, ok, "ParseProgress(%q)", c.line)
		assert.Equal(t, c.want, got, "ParseProgress(%q)", c.line)
	}
}

func TestParseFailing(t *testing.T) {
	got, ok := ParseFailing("    Failing input written to testdata/fuzz/FuzzX/582528ddfad69eb5")
	assert.True(t, ok)
	assert.Equal(t, "testdata/fuzz/FuzzX/582528ddfad69eb5", got)
	_, ok = ParseFailing("--- FAIL: FuzzX (0.01s)")
	assert.False(t, ok, "ParseFailing matched a line without a path")
}

func TestIsDeadlineRace(t *testing.T) {
	assert.True(t, IsDeadlineRace("    context deadline exceeded"), "the bare deadline line")
	assert.False(t, IsDeadlineRace("lifecycle: context deadline exceeded while reading"),
		"a line that only mentions the error")
}

// TestScan: the last status line is kept, the failing input and the
// deadline race are found, and the fuzzing time is measured from the end
// of the baseline.
func TestScan(t *testing.T) {
	out := strings.Join([]string{
		"fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed",
		"fuzz: elapsed: 0s, gathering baseline coverage: 3/3 completed, now fuzzing with 2 workers",
		"fuzz: elapsed: 3s, execs: 100 (33/sec), new interesting: 1 (total: 4)",
		"    Failing input written to testdata/fuzz/FuzzX/abc",
		"    context deadline exceeded",
	}, "\n")
	var r Result
	var echo strings.Builder
	failing, deadline := scan(strings.NewReader(out), &echo, &r)
	assert.Equal(t, "testdata/fuzz/FuzzX/abc", failing)
	assert.True(t, deadline, "the deadline race")
	assert.Equal(t, int64(100), r.Last.Execs, "last status")
	assert.Equal(t, int64(4), r.Last.Total, "last status")
	assert.Positive(t, r.Fuzzed, "fuzzing time measured")
	assert.Equal(t, out+"\n", echo.String(), "output echoed as it came")
}

// TestScanSeedFailure: under -fuzz, a seed that fails in the baseline is
// named by its number only; scan keeps the number.
func TestScanSeedFailure(t *testing.T) {
	out := "fuzz: elapsed: 0s, gathering baseline coverage: 0/3 completed\n" +
		"failure while testing seed corpus entry: FuzzX/seed#2\n"
	var r Result
	var echo strings.Builder
	failing, _ := scan(strings.NewReader(out), &echo, &r)
	assert.Empty(t, failing, "no new input was written")
	assert.True(t, r.seedFails)
	assert.Equal(t, 2, r.failedSeed)
	_, _, ok := ParseSeedFailure("failure while testing seed corpus entry: FuzzX/4f3a")
	assert.False(t, ok, "a testdata file is named by its own name")
}
