package main

import (
	"strings"
	"testing"
	"time"
)

func TestRender(t *testing.T) {
	results := []Result{
		{Target: "FuzzA", Last: Progress{Elapsed: 10 * time.Second, Execs: 500000, PerSec: 1, New: 3, Total: 40}},
		{Target: "FuzzLonger", Last: Progress{Elapsed: 4 * time.Second, Execs: 100}, Crasher: "crashers/FuzzLonger/abc"},
		{Target: "FuzzC", Failure: "no status line"},
		{Target: "FuzzD", Flake: true},
	}
	var b strings.Builder
	if err := Render(&b, results); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) != 8 {
		t.Fatalf("got %d lines, want header, 4 rows, a total, a blank and a closing line:\n%s", len(lines), b.String())
	}
	if lines[7] != "fuzz: 2 passed, 2 failed" {
		t.Errorf("closing line = %q", lines[7])
	}
	wantFields := [][]string{
		{"target", "execs", "execs/s", "new", "corpus", "elapsed", "result"},
		{"FuzzA", "500000", "50000", "3", "40", "10s", "PASS"},
		{"FuzzLonger", "100", "25", "0", "0", "4s", "crashers/FuzzLonger/abc"},
		{"FuzzC", "0", "0", "0", "0", "0s", "FAIL:", "no", "status", "line"},
		{"FuzzD", "0", "0", "0", "0", "0s", "PASS", "(go.dev/issue/75804", "deadline", "race,", "no", "input", "failed)"},
		{"total", "500100", "14s", "2", "failed"},
	}
	for i, want := range wantFields {
		if got := strings.Fields(lines[i]); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("line %d = %q, want fields %q", i, lines[i], want)
		}
	}
	// Columns line up: every row is as wide as the header up to "result".
	if w := strings.Index(lines[0], "result"); strings.Index(lines[1], "PASS") != w {
		t.Errorf("result column not aligned:\n%s", b.String())
	}
}

func TestExecsPerSecMeasured(t *testing.T) {
	r := Result{Last: Progress{Execs: 30000, Elapsed: time.Second}, Fuzzed: 1500 * time.Millisecond}
	if got := r.ExecsPerSec(); got != 20000 {
		t.Errorf("ExecsPerSec = %d, want 20000 from the measured 1.5s", got)
	}
}

func TestExecsPerSecWithoutElapsed(t *testing.T) {
	r := Result{Last: Progress{Execs: 10, PerSec: 7}}
	if got := r.ExecsPerSec(); got != 7 {
		t.Errorf("ExecsPerSec = %d, want the line's own rate 7", got)
	}
}
