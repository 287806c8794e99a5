package main

import (
	"strings"
	"testing"
	"time"
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
		if ok != c.ok || got != c.want {
			t.Errorf("ParseProgress(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

func TestParseFailing(t *testing.T) {
	got, ok := ParseFailing("    Failing input written to testdata/fuzz/FuzzX/582528ddfad69eb5")
	if !ok || got != "testdata/fuzz/FuzzX/582528ddfad69eb5" {
		t.Errorf("ParseFailing = %q, %v", got, ok)
	}
	if _, ok := ParseFailing("--- FAIL: FuzzX (0.01s)"); ok {
		t.Error("ParseFailing matched a line without a path")
	}
}

func TestIsDeadlineRace(t *testing.T) {
	if !IsDeadlineRace("    context deadline exceeded") {
		t.Error("missed the bare deadline line")
	}
	if IsDeadlineRace("lifecycle: context deadline exceeded while reading") {
		t.Error("matched a line that only mentions the error")
	}
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
	if failing != "testdata/fuzz/FuzzX/abc" || !deadline {
		t.Errorf("scan = %q, %v", failing, deadline)
	}
	if r.Last.Execs != 100 || r.Last.Total != 4 {
		t.Errorf("last status %+v", r.Last)
	}
	if r.Fuzzed <= 0 {
		t.Error("fuzzing time not measured")
	}
	if echo.String() != out+"\n" {
		t.Error("output not echoed as it came")
	}
}
