package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sampleReport(agent, verdict string) *Report {
	r := &Report{Tool: toolName, Mode: "server", Agent: agent, Started: time.Now(), Cases: []CaseResult{
		{ID: "v423", Vector: 423, Name: "login-reply-frame/golden", Rule: "WIRE.md §4", Expected: "e", Verdict: verdictPass, Observed: "o",
			Frames: []Frame{{Conn: 1, Dir: dirKit, Hex: "00ff", Note: "the case's scripted answer"}}},
		{ID: "s5", Name: "login-reply/other-request-number", Rule: "WIRE.md §7", Expected: "e", Verdict: verdict, Observed: "used it <b>"},
	}}
	r.finish()
	return r
}

func TestReportsSideBySide(t *testing.T) {
	dir := t.TempDir()
	a, b := sampleReport("good-sdk", verdictPass), sampleReport("bad-sdk", verdictFail)
	require.NoError(t, a.write(dir))
	require.NoError(t, b.write(dir))
	var out bytes.Buffer
	err := run(context.Background(), []string{"report", "-out", dir,
		filepath.Join(dir, "server-good-sdk.json"), filepath.Join(dir, "server-bad-sdk.json")}, &out, &out)
	require.NoError(t, err, out.String())
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	html := string(page)
	assert.Contains(t, html, "good-sdk")
	assert.Contains(t, html, "bad-sdk")
	assert.Equal(t, 1, strings.Count(html, `class="fail"`))
	assert.Equal(t, 3, strings.Count(html, `class="pass"`))
	assert.Equal(t, 2, strings.Count(html, `<details class="case"`), "one row per case, each opening to both implementations")
	assert.Equal(t, 1, strings.Count(html, `<h2 id="mode-server">`), "both are server-mode runs: one table")
	assert.Contains(t, html, "0000  00 ff", "frames as an offset hex dump")
	assert.Contains(t, html, "used it &lt;b&gt;", "observed text is escaped")
	assert.NotContains(t, html, "<script", "the page needs nothing but itself")
	md, err := os.ReadFile(filepath.Join(dir, "index.md"))
	require.NoError(t, err)
	assert.Contains(t, string(md), "| s5 |  | login-reply/other-request-number | WIRE.md §7 | pass | **FAIL** |")
	assert.Contains(t, string(md), "## bad-sdk (server mode): cases not passed")
}

func TestSummaryCounts(t *testing.T) {
	r := sampleReport("x", verdictNotRun)
	assert.Equal(t, Summary{Pass: 1, NotRun: 1}, r.Summary)
}

// A client and a server are never compared case by case: each mode has
// its own table, holding only its reports' cases.
func TestReportsByMode(t *testing.T) {
	server := sampleReport("an-sdk", verdictPass)
	client := &Report{Tool: toolName, Mode: "client", Agent: "a-server", Started: time.Now(), Cases: []CaseResult{
		{ID: "c6", Vector: 511, Name: "hostile/garbage-header", Verdict: verdictFail}}}
	client.finish()
	var page strings.Builder
	writeHTML(&page, []*Report{server, client})
	html := page.String()
	serverPart, clientPart, ok := strings.Cut(html, `<h2 id="mode-client">`)
	require.True(t, ok)
	assert.Contains(t, serverPart, `<h2 id="mode-server">`)
	assert.NotContains(t, serverPart, `id="server-c6"`)
	assert.Contains(t, clientPart, `id="client-c6"`)
	assert.NotContains(t, clientPart, "an-sdk")
	assert.Equal(t, 1, strings.Count(clientPart, `class="fail"`))
	assert.NotContains(t, clientPart, `class="none"`, "no empty column for the other mode's implementation")
}

func TestFamiliesListedOnce(t *testing.T) {
	rows := byFamily([]CaseResult{{ID: "c1", Name: "hostile/a"}, {ID: "v1", Name: "lifecycle/x"}, {ID: "c6", Name: "hostile/b"}})
	var ids []string
	for _, r := range rows {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"c1", "c6", "v1"}, ids)
}

// A report of no case lists its cases as [], not null.
func TestEmptyReportListsNoCases(t *testing.T) {
	dir := t.TempDir()
	r := &Report{Tool: toolName, Mode: "server", Agent: "none", Started: time.Now()}
	r.finish()
	require.NoError(t, r.write(dir))
	b, err := os.ReadFile(filepath.Join(dir, "server-none.json"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"cases": []`)
	assert.NotContains(t, string(b), "null")
}
