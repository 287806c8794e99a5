package main

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Progress is one status line of `go test -fuzz`:
//
//	fuzz: elapsed: 3s, execs: 12345 (4115/sec), new interesting: 3 (total: 40)
type Progress struct {
	Elapsed time.Duration
	Execs   int64
	PerSec  int64
	New     int64 // inputs this run added to the cache
	Total   int64 // the corpus the fuzzer holds: seeds, cache and new
}

var progressRE = regexp.MustCompile(`^fuzz: elapsed: (\S+), execs: (\d+) \((\d+)/sec\), new interesting: (\d+) \(total: (\d+)\)`)

// ParseProgress reads a status line; ok is false for any other line
// (baseline coverage lines included).
func ParseProgress(line string) (p Progress, ok bool) {
	m := progressRE.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return Progress{}, false
	}
	d, err := time.ParseDuration(m[1])
	if err != nil {
		return Progress{}, false
	}
	nums := [4]int64{}
	for i := range nums {
		if nums[i], err = strconv.ParseInt(m[i+2], 10, 64); err != nil {
			return Progress{}, false
		}
	}
	return Progress{Elapsed: d, Execs: nums[0], PerSec: nums[1], New: nums[2], Total: nums[3]}, true
}

// failingRE matches the line `go test` prints after a crash:
//
//	Failing input written to testdata/fuzz/FuzzX/582528ddfad69eb5
var failingRE = regexp.MustCompile(`Failing input written to (\S+)`)

// seedFailRE matches the line Go's fuzz coordinator prints when a seed
// fails during the baseline, before any input is generated:
//
//	failure while testing seed corpus entry: FuzzX/seed#13
var seedFailRE = regexp.MustCompile(`failure while testing seed corpus entry: (Fuzz\w*)/seed#(\d+)`)

// ParseSeedFailure returns the target and the index n of the seed#n a
// line names as failing.
func ParseSeedFailure(line string) (target string, n int, ok bool) {
	m := seedFailRE.FindStringSubmatch(line)
	if m == nil {
		return "", 0, false
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return "", 0, false
	}
	return m[1], n, true
}

// ParseFailing returns the path of the failing input a line names,
// relative to the fuzz package directory.
func ParseFailing(line string) (string, bool) {
	m := failingRE.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// IsDeadlineRace reports whether line is the bare error Go's fuzz
// coordinator prints when it mistakes its own -fuzztime deadline for a
// failure (go.dev/issue/75804).
func IsDeadlineRace(line string) bool {
	return strings.TrimSpace(line) == "context deadline exceeded"
}
