package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// RenderMarkdown writes the same table as Render in GitHub's Markdown, for
// a CI job's step summary: one row per target, a total row and the closing
// "fuzz: N passed, N failed" line.
func RenderMarkdown(w io.Writer, results []Result) error {
	var b strings.Builder
	b.WriteString("| target | execs | execs/s | new | corpus | elapsed | result |\n")
	b.WriteString("|---|--:|--:|--:|--:|--:|---|\n")
	var execs int64
	var elapsed time.Duration
	for _, r := range results {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %s | %s |\n", cell(r.Target), r.Last.Execs, r.ExecsPerSec(),
			r.Last.New, r.Last.Total, r.elapsed(), cell(mdVerdict(r)))
		execs += r.Last.Execs
		elapsed += r.elapsed()
	}
	failed := failures(results)
	fmt.Fprintf(&b, "| **total** | %d | | | | %s | %d failed |\n", execs, elapsed, failed)
	fmt.Fprintf(&b, "\nfuzz: %d passed, %d failed\n", len(results)-failed, failed)
	_, err := io.WriteString(w, b.String())
	return err
}

// mdVerdict is the verdict with a failing run made to stand out.
func mdVerdict(r Result) string {
	if r.Failed() {
		return "**FAIL** " + r.verdict()
	}
	return r.verdict()
}

// cell makes s safe inside one table cell: a '|' would end the cell and a
// newline the row.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}

// appendSummary appends the Markdown table to the file at path (GitHub's
// $GITHUB_STEP_SUMMARY, which several steps share); an empty path does
// nothing.
func appendSummary(path string, results []Result) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("step summary: %w", err)
	}
	if err := RenderMarkdown(f, results); err != nil {
		f.Close()
		return fmt.Errorf("step summary: %w", err)
	}
	return f.Close()
}
