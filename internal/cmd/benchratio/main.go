// Command benchratio reads `go test -bench` output of the codec package and
// prints one table: every measured path next to its floor from the same
// run, their medians, the median of their per-round ratios, and the goal it
// is held to.
//
//	for i in 1 2 3 4 5; do go test ./codec/ -run '^$' -bench . -count 1; done | go run ./internal/cmd/benchratio
//
// Rounds (every benchmark once, five times over) rather than -count 5
// (each benchmark five times in a row) pair each figure with a floor
// measured seconds from it; see pairedRatio.
//
// With -check it exits 1 when a ratio misses its goal or a benchmark is
// missing, so a script can hold the goals; with -mem it prints and holds
// the allocation budgets alone (CI: no timing, so no noise).
package main

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
)

func main() {
	check := flag.Bool("check", false, "exit 1 when a ratio misses its goal")
	memOnly := flag.Bool("mem", false, "the allocation budgets alone")
	flag.Parse()
	runs, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(2)
	}
	rows, ok := table(runs, paths)
	mem, memOK := memTable(runs, memGoals)
	if *memOnly {
		rows, ok = nil, true
	}
	fmt.Println(strings.Join(slices.Concat(rows, []string{""}, mem), "\n"))
	if *check && !(ok && memOK) {
		os.Exit(1)
	}
}

// ns writes a figure in ns/op (or allocs/op, B/op).
func ns(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return orDash("%.1f", v)
}

// orDash writes v in format, or a dash for 0: not measured, or no goal.
func orDash(format string, v float64) string {
	if v == 0 {
		return "—"
	}
	return fmt.Sprintf(format, v)
}
