package main

import (
	"fmt"
	"html"
	"io"
	"strings"
)

// htmlStyle is the page's whole style sheet: the page is one file with no
// external resource and no script, like Autobahn|Testsuite's index.
const htmlStyle = `body{font-family:system-ui,sans-serif;font-size:14px;margin:1.5em;color:#222}
h1{font-size:22px;margin:0 0 .3em}h2{font-size:18px;margin:1.6em 0 .2em}h3{font-size:14px;margin:1em 0 .2em;color:#444}
p.meta{color:#555;margin:.2em 0 1em;max-width:75em}
table.sum{border-collapse:collapse}table.sum td,table.sum th{border:1px solid #bbb;padding:3px 8px;text-align:left}
table.sum th{background:#e8e8e8}td.num{text-align:right}
.ok{background:#8d8}.bad{background:#f77}
.pass{background:#5b5;color:#fff}.fail{background:#d33;color:#fff}.not-run{background:#bbb}.none{background:#f4f4f4}
.grid{display:grid;align-items:center;border-bottom:1px solid #ddd}
.grid>span{padding:3px 6px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.grid>span.pass,.grid>span.fail,.grid>span.not-run,.grid>span.none{text-align:center;font-weight:bold;border-left:2px solid #fff}
.head{background:#e8e8e8;font-weight:bold;position:sticky;top:0;z-index:1}
.head>span{white-space:normal;overflow-wrap:anywhere}
details.case>summary{list-style:none;cursor:pointer}details.case>summary::-webkit-details-marker{display:none}
details.case>summary:hover{background:#eef4ff}details.case[open]>summary{background:#dde8ff}
.id{font-family:ui-monospace,monospace}
.cols{display:flex;gap:1em;padding:.6em;background:#fafafa;border-bottom:2px solid #99b}
.col{flex:1;min-width:0}.v-pass{background:#5b5;color:#fff}.v-fail{background:#d33;color:#fff}.v-not-run{background:#bbb}.col h4{margin:0 0 .4em;padding:2px 6px;font-size:14px}
.frame{margin:.4em 0}.fh{font-size:12px;color:#333}.fh b{color:#000}
.c2s{border-left:4px solid #47c;padding-left:6px}.s2c{border-left:4px solid #c84;padding-left:6px}.ev{border-left:4px solid #999;padding-left:6px;color:#555;font-style:italic}
pre{font:12px/1.35 ui-monospace,monospace;margin:2px 0;white-space:pre;overflow-x:auto}`

// writeHTML renders the reports: a summary, then one section per mode
// with the implementations of that mode side by side, one row per case in
// groups by the case's family. Each row opens, below it, what each
// implementation was expected to do, what it did, and every frame
// exchanged as an offset hex dump (secrets are ** in the dump).
func writeHTML(w io.Writer, rs []*Report) {
	esc := html.EscapeString
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Iggy lifecycle conformance</title><style>%s</style></head><body>\n", htmlStyle)
	fmt.Fprintln(w, "<h1>Iggy connection lifecycle conformance</h1>")
	fmt.Fprintf(w, "<p class=\"meta\">%s. Green: the implementation did what WIRE.md requires; red: it did not; grey: not run. "+
		"Click a case to open what was expected, what was observed and every frame exchanged; passwords and tokens show as <code>**</code>.</p>\n", esc(generatedBy(rs)))
	fmt.Fprintln(w, `<table class="sum"><tr><th>implementation</th><th>mode</th><th>cases</th><th>pass</th><th>fail</th><th>not run</th><th>seconds</th></tr>`)
	for _, r := range rs {
		cls := "ok"
		if r.Summary.Fail > 0 || r.Summary.NotRun > 0 {
			cls = "bad"
		}
		fmt.Fprintf(w, "<tr class=\"%s\"><td><a href=\"#mode-%s\">%s</a></td><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%d</td><td class=\"num\">%.1f</td></tr>\n",
			cls, esc(r.Mode), esc(r.Agent), esc(modeText(r.Mode)), len(r.Cases), r.Summary.Pass, r.Summary.Fail, r.Summary.NotRun, r.Duration)
	}
	fmt.Fprintln(w, "</table>")
	for _, m := range byMode(rs) {
		writeModeHTML(w, m)
	}
	fmt.Fprintln(w, "</body></html>")
}

// modeReports are the reports of one mode, side by side.
type modeReports struct {
	mode string
	rs   []*Report
}

// byMode groups the reports by mode, server mode first: a client and a
// server are never compared case by case.
func byMode(rs []*Report) []modeReports {
	var out []modeReports
	for _, mode := range []string{"server", "client"} {
		m := modeReports{mode: mode}
		for _, r := range rs {
			if r.Mode == mode {
				m.rs = append(m.rs, r)
			}
		}
		if len(m.rs) > 0 {
			out = append(out, m)
		}
	}
	for _, r := range rs {
		if r.Mode != "server" && r.Mode != "client" {
			out = append(out, modeReports{mode: r.Mode, rs: []*Report{r}})
		}
	}
	return out
}

func modeText(mode string) string {
	switch mode {
	case "server":
		return "server mode (a client tested)"
	case "client":
		return "client mode (a server tested)"
	}
	return mode
}

// generatedBy says which run the page shows.
func generatedBy(rs []*Report) string {
	if len(rs) == 0 {
		return toolName
	}
	return fmt.Sprintf("%s, run started %s", toolName, rs[0].Started.UTC().Format("2006-01-02 15:04 UTC"))
}

// gridStyle lays out a row: id, vector, name, rule, then a verdict column
// per implementation.
func gridStyle(n int) string {
	return fmt.Sprintf(`style="grid-template-columns:5.5em 4.5em minmax(14em,2fr) minmax(10em,1.3fr) repeat(%d,minmax(9em,12em))"`, n)
}

// writeModeHTML renders one mode's section.
func writeModeHTML(w io.Writer, m modeReports) {
	esc := html.EscapeString
	grid := gridStyle(len(m.rs))
	title := map[string]string{"server": "Server mode: clients tested (the kit served them)", "client": "Client mode: servers tested (the kit played the client)"}[m.mode]
	if title == "" {
		title = m.mode
	}
	fmt.Fprintf(w, "<h2 id=\"mode-%s\">%s</h2>\n", esc(m.mode), esc(title))
	fmt.Fprintf(w, "<div class=\"grid head\" %s><span>case</span><span>vector</span><span>name</span><span>WIRE.md rule</span>", grid)
	for _, r := range m.rs {
		fmt.Fprintf(w, "<span>%s</span>", esc(r.Agent))
	}
	fmt.Fprintln(w, "</div>")
	group := ""
	for _, row := range byFamily(caseRows(m.rs)) {
		if g := family(row.Name); g != group {
			group = g
			fmt.Fprintf(w, "<h3>%s</h3>\n", esc(g))
		}
		fmt.Fprintf(w, "<details class=\"case\" id=\"%s-%s\"><summary class=\"grid\" %s><span class=\"id\">%s</span><span>%s</span><span title=\"%s\">%s</span><span title=\"%s\">%s</span>",
			esc(m.mode), esc(row.ID), grid, esc(row.ID), vectorCell(row.Vector), esc(row.Name), esc(row.Name), esc(row.Rule), esc(row.Rule))
		for _, r := range m.rs {
			c, ok := lookup(r, row.ID)
			if !ok {
				fmt.Fprint(w, `<span class="none">—</span>`)
				continue
			}
			fmt.Fprintf(w, "<span class=\"%s\">%s</span>", esc(c.Verdict), esc(verdictWord(c.Verdict)))
		}
		fmt.Fprint(w, "</summary><div class=\"cols\">")
		for _, r := range m.rs {
			if c, ok := lookup(r, row.ID); ok {
				fmt.Fprintf(w, "<div class=\"col\">%s</div>", caseDetail(r.Agent, c))
			}
		}
		fmt.Fprintln(w, "</div></details>")
	}
}

// family is the group a case is listed under: its name's first part
// (lifecycle, eviction, hostile, ...).
func family(name string) string {
	f, _, _ := strings.Cut(name, "/")
	return f
}

// byFamily orders rows by family, the families in the order they first
// appear and the rows of each in run order, so that each family is listed
// once.
func byFamily(rows []CaseResult) []CaseResult {
	var order []string
	groups := map[string][]CaseResult{}
	for _, r := range rows {
		f := family(r.Name)
		if _, ok := groups[f]; !ok {
			order = append(order, f)
		}
		groups[f] = append(groups[f], r)
	}
	out := make([]CaseResult, 0, len(rows))
	for _, f := range order {
		out = append(out, groups[f]...)
	}
	return out
}

func verdictWord(v string) string {
	switch v {
	case verdictPass:
		return "Pass"
	case verdictFail:
		return "Fail"
	}
	return "Not run"
}

// caseDetail is what a row opens to, for one implementation.
func caseDetail(agent string, c CaseResult) string {
	esc := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<h4 class=\"v-%s\">%s: %s</h4>", esc(c.Verdict), esc(agent), esc(verdictWord(c.Verdict)))
	fmt.Fprintf(&b, "<p><b>expected:</b> %s<br><b>observed:</b> %s", esc(c.Expected), esc(c.Observed))
	if c.Surfaced != "" {
		fmt.Fprintf(&b, "<br><b>surfaced to the caller:</b> %s", esc(c.Surfaced))
	}
	b.WriteString("</p>")
	for _, f := range c.Frames {
		cls, arrow := "ev", "event"
		switch f.Dir {
		case dirClient:
			cls, arrow = "c2s", "client → server"
		case dirKit:
			cls, arrow = "s2c", "server → client"
		}
		fmt.Fprintf(&b, "<div class=\"frame %s\"><div class=\"fh\"><b>%s</b> · conn %d · %.1f ms · %s</div>", cls, arrow, f.Conn, f.AtMS, esc(f.Note))
		if f.Hex != "" {
			fmt.Fprintf(&b, "<pre>%s</pre>", esc(hexDump(f.Hex)))
		}
		b.WriteString("</div>")
	}
	return b.String()
}

// hexDump lays a report's hex out as offset and 16 bytes a line, in
// groups of 8; redacted bytes (**) stay as they are, and a truncation note
// after the bytes ends the dump.
func hexDump(h string) string {
	n := 0
	for n+1 < len(h) && isHexPair(h[n], h[n+1]) {
		n += 2
	}
	var b strings.Builder
	for off := 0; off < n; off += 32 {
		fmt.Fprintf(&b, "%04x ", off/2)
		for i := off; i < min(off+32, n); i += 2 {
			if i > off && (i-off)%16 == 0 {
				b.WriteByte(' ')
			}
			b.WriteByte(' ')
			b.WriteString(h[i : i+2])
		}
		b.WriteByte('\n')
	}
	if rest := strings.TrimSpace(h[n:]); rest != "" {
		b.WriteString(rest + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func isHexPair(a, b byte) bool {
	ok := func(c byte) bool {
		return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '*'
	}
	return ok(a) && ok(b)
}
