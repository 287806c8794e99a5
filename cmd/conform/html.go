package main

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// htmlStyle is the page's whole style sheet: the page is one file with no
// external resource, like Autobahn|Testsuite's index.
const htmlStyle = `body{font-family:sans-serif;font-size:13px;margin:1em}
table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px;vertical-align:top}
th{background:#ddd}.pass{background:#6c6}.fail{background:#e55}.not-run{background:#ccc}
details summary{cursor:pointer;font-weight:bold}pre{font-size:11px;white-space:pre-wrap;word-break:break-all;max-width:70em;margin:2px 0}
.dir{color:#555}`

// writeHTML renders the reports side by side: one row per case, one column
// per implementation, each cell green or red and opening to what was
// expected, observed, and every frame exchanged.
func writeHTML(w io.Writer, rs []*Report) {
	esc := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Iggy lifecycle conformance</title><style>%s</style></head><body>\n", htmlStyle)
	fmt.Fprintln(w, "<h1>Iggy connection lifecycle conformance</h1>")
	fmt.Fprintln(w, "<table><tr><th>implementation</th><th>mode</th><th>pass</th><th>fail</th><th>not run</th><th>seconds</th></tr>")
	for _, r := range rs {
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%.1f</td></tr>\n",
			esc(r.Agent), esc(r.Mode), r.Summary.Pass, r.Summary.Fail, r.Summary.NotRun, r.Duration)
	}
	fmt.Fprintln(w, "</table><p></p><table><tr><th>case</th><th>vector</th><th>name</th><th>rule</th>")
	for _, r := range rs {
		fmt.Fprintf(w, "<th>%s<br>(%s)</th>", esc(r.Agent), esc(r.Mode))
	}
	fmt.Fprintln(w, "</tr>")
	for _, row := range caseRows(rs) {
		fmt.Fprintf(w, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>", esc(row.ID), vectorCell(row.Vector), esc(row.Name), esc(row.Rule))
		for _, r := range rs {
			c, ok := lookup(r, row.ID)
			if !ok {
				fmt.Fprint(w, "<td></td>")
				continue
			}
			fmt.Fprintf(w, "<td class=\"%s\"><details><summary>%s</summary>%s</details></td>", esc(c.Verdict), esc(strings.ToUpper(c.Verdict)), caseDetail(c))
		}
		fmt.Fprintln(w, "</tr>")
	}
	fmt.Fprintln(w, "</table></body></html>")
}

// caseDetail is the content a cell opens to.
func caseDetail(c CaseResult) string {
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<p><b>expected:</b> %s<br><b>observed:</b> %s</p>", esc(c.Expected), esc(c.Observed))
	for _, f := range c.Frames {
		fmt.Fprintf(&b, "<pre><span class=\"dir\">conn %d %s %.1fms</span> %s", f.Conn, esc(f.Dir), f.AtMS, esc(f.Note))
		if f.Hex != "" {
			fmt.Fprintf(&b, "\n%s", esc(f.Hex))
		}
		b.WriteString("</pre>")
	}
	return b.String()
}
