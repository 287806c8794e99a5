package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Verdicts of a case.
const (
	verdictPass   = "pass"
	verdictFail   = "fail"
	verdictNotRun = "not-run"
)

// Report is one run of the kit against one implementation: the JSON file
// the kit writes, and what the Markdown and HTML reports are rendered from.
type Report struct {
	Tool   string `json:"tool"`
	Mode   string `json:"mode"`  // "server" (the kit served, a client was tested) or "client"
	Agent  string `json:"agent"` // the implementation tested
	Target string `json:"target,omitempty"`
	// Protocol is the revision the run spoke: the version the kit served
	// (server mode), or the server's window (client mode).
	Protocol string `json:"protocol,omitempty"`
	// Vectors is where the run's cases came from: a directory, or
	// "(built in)" for the vectors of the kit's own release.
	Vectors  string       `json:"vectors,omitempty"`
	Started  time.Time    `json:"started"`
	Duration float64      `json:"duration_seconds"`
	Summary  Summary      `json:"summary"`
	Cases    []CaseResult `json:"cases"`
}

// Summary counts the verdicts.
type Summary struct {
	Pass   int `json:"pass"`
	Fail   int `json:"fail"`
	NotRun int `json:"not_run"`
}

// CaseResult is one case's outcome.
type CaseResult struct {
	ID       string  `json:"id"`               // the kit's case id (stable, append-only)
	Vector   int     `json:"vector,omitempty"` // the vectors/ case id it comes from, if any
	Name     string  `json:"name"`
	Rule     string  `json:"rule"` // the rule, as WIRE.md §N and a rule id
	Expected string  `json:"expected"`
	Verdict  string  `json:"verdict"`
	Observed string  `json:"observed"`
	Surfaced string  `json:"surfaced,omitempty"` // what the driver said its SDK surfaced (server mode)
	Frames   []Frame `json:"frames"`
}

// Frame is one frame (or event) exchanged, in order. Hex has every secret
// replaced by "**" per byte.
type Frame struct {
	Conn int     `json:"conn"`          // the connection, 1, 2, ... within the case
	Dir  string  `json:"dir"`           // "client>server", "server>client" or "event"
	AtMS float64 `json:"at_ms"`         // since the case started
	Hex  string  `json:"hex,omitempty"` // redacted
	Note string  `json:"note"`          // what the frame is, or the event
}

// finish fills the summary and the duration.
func (r *Report) finish() {
	r.Summary = Summary{}
	for _, c := range r.Cases {
		switch c.Verdict {
		case verdictPass:
			r.Summary.Pass++
		case verdictFail:
			r.Summary.Fail++
		default:
			r.Summary.NotRun++
		}
	}
	r.Duration = time.Since(r.Started).Seconds()
}

// write puts report.json, report.md and report.html in dir.
func (r *Report) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if r.Cases == nil {
		r.Cases = []CaseResult{} // "cases": [], not null, for a reader that ranges over it
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	base := filepath.Join(dir, fileStem(r))
	if err := os.WriteFile(base+".json", append(b, '\n'), 0o644); err != nil {
		return err
	}
	return renderFiles(base, []*Report{r})
}

// renderFiles writes base.md and base.html for reports side by side.
func renderFiles(base string, rs []*Report) error {
	var md, page strings.Builder
	writeMarkdown(&md, rs)
	writeHTML(&page, rs)
	if err := os.WriteFile(base+".md", []byte(md.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(base+".html", []byte(page.String()), 0o644)
}

// fileStem names a report's files by mode and agent.
func fileStem(r *Report) string {
	agent := strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' {
			return c
		}
		return '_'
	}, r.Agent)
	return r.Mode + "-" + agent
}

// readReports loads JSON reports written by earlier runs.
func readReports(paths []string) ([]*Report, error) {
	var rs []*Report
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		r := new(Report)
		if err := json.Unmarshal(b, r); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// caseRows lists every case id of the reports once, in the order they
// first appear, with the first result of each as the row's description.
func caseRows(rs []*Report) []CaseResult {
	seen := map[string]bool{}
	var rows []CaseResult
	for _, r := range rs {
		for _, c := range r.Cases {
			if !seen[r.Mode+"/"+c.ID] {
				seen[r.Mode+"/"+c.ID] = true
				rows = append(rows, c)
			}
		}
	}
	return rows
}

// lookup finds case id in r.
func lookup(r *Report, id string) (CaseResult, bool) {
	for _, c := range r.Cases {
		if c.ID == id {
			return c, true
		}
	}
	return CaseResult{}, false
}

// writeMarkdown renders the summary per implementation, the table of cases
// side by side, and the failures with what was observed.
func writeMarkdown(w io.Writer, rs []*Report) {
	fmt.Fprintln(w, "# Iggy connection lifecycle conformance")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| implementation | mode | pass | fail | not run | seconds |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, r := range rs {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %.1f |\n", mdCell(r.Agent), r.Mode, r.Summary.Pass, r.Summary.Fail, r.Summary.NotRun, r.Duration)
	}
	for _, m := range byMode(rs) {
		fmt.Fprintf(w, "\n## %s\n\n", mdCell(modeText(m.mode)))
		fmt.Fprint(w, "| case | vector | name | rule |")
		for _, r := range m.rs {
			fmt.Fprintf(w, " %s |", mdCell(r.Agent))
		}
		fmt.Fprint(w, "\n|---|---|---|---|")
		for range m.rs {
			fmt.Fprint(w, "---|")
		}
		fmt.Fprintln(w)
		for _, row := range caseRows(m.rs) {
			fmt.Fprintf(w, "| %s | %s | %s | %s |", row.ID, vectorCell(row.Vector), mdCell(row.Name), mdCell(row.Rule))
			for _, r := range m.rs {
				c, ok := lookup(r, row.ID)
				fmt.Fprintf(w, " %s |", verdictCell(c.Verdict, ok))
			}
			fmt.Fprintln(w)
		}
	}
	for _, r := range rs {
		fails := 0
		for _, c := range r.Cases {
			if c.Verdict == verdictPass {
				continue
			}
			if fails == 0 {
				fmt.Fprintf(w, "\n## %s (%s mode): cases not passed\n\n", mdCell(r.Agent), r.Mode)
			}
			fails++
			fmt.Fprintf(w, "- **%s** %s (%s): %s. Expected: %s. Observed: %s.\n", c.ID, mdCell(c.Name), mdCell(c.Rule), c.Verdict, mdCell(c.Expected), mdCell(c.Observed))
		}
	}
}

func vectorCell(v int) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprint(v)
}

func verdictCell(v string, ok bool) string {
	switch {
	case !ok:
		return ""
	case v == verdictPass:
		return "pass"
	case v == verdictFail:
		return "**FAIL**"
	}
	return v
}

func mdCell(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ") }
