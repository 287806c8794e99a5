package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// freePort returns a loopback address nobody listens on.
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// lineWriter hands each write (the commands print whole lines) to a
// channel, so a test reads what a running command prints without a race.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// await returns the first submatch of re in the lines printed.
func await(t *testing.T, lines lineWriter, re *regexp.Regexp) string {
	t.Helper()
	for {
		select {
		case l := <-lines:
			if m := re.FindStringSubmatch(l); m != nil {
				return m[1]
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no line matching %v", re)
			return ""
		}
	}
}

// The commands as an SDK author runs them: conform server on free ports,
// driven by conform drive over a subset of cases, then conform client
// against loginserver; each writes its three reports.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	lines := make(lineWriter, 16)
	serverErr := make(chan error, 1)
	go func() {
		serverErr <- run(context.Background(), []string{"server", "-listen", "127.0.0.1:0", "-control", "127.0.0.1:0",
			"-agent", "lifecycle", "-out", dir, "-wait", "300ms", "-cases", "v423,v443,s5"}, lines, io.Discard)
	}()
	addr := await(t, lines, regexp.MustCompile(`server mode on (\S+),`))
	control := await(t, lines, regexp.MustCompile(`control endpoint http://(\S+) `))
	var driveOut bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"drive", "-addr", addr, "-control", control, "-cases", "v423,v443,s5"}, &driveOut, &driveOut))
	summary := await(t, lines, regexp.MustCompile(`(\d+ pass, \d+ fail, \d+ not run)`))
	require.NoError(t, <-serverErr)
	assert.Equal(t, "3 pass, 0 fail, 0 not run", summary)

	file := testAccountsFile(t)
	ls := startLoginServer(t, file)
	var clientOut bytes.Buffer
	err := run(context.Background(), []string{"client", "-addr", ls, "-users-file", file, "-inactive", "carol",
		"-agent", "loginserver", "-out", dir}, &clientOut, &clientOut)
	require.NoError(t, err, clientOut.String())
	for _, f := range []string{"server-lifecycle", "client-loginserver"} {
		for _, ext := range []string{".json", ".md", ".html"} {
			_, err := os.Stat(filepath.Join(dir, f+ext))
			assert.NoError(t, err)
		}
	}
}

// Server mode at 0.11.1 as make conform runs it: conform server and
// conform drive at -protocol 0.11.1 over every case of that catalogue (s19
// and s20 with them), all passing.
func TestCommandLineDrivesAt0111(t *testing.T) {
	t.Parallel()
	ids, err := caseIDs("server", "", "", protocol0111)
	require.NoError(t, err)
	assert.Contains(t, ids, "s20", "drive lists the catalogue of the kit's protocol")
	lines := make(lineWriter, 16)
	serverErr := make(chan error, 1)
	go func() {
		serverErr <- run(context.Background(), []string{"server", "-protocol", "0.11.1", "-listen", "127.0.0.1:0", "-control", "127.0.0.1:0",
			"-agent", "lifecycle", "-out", t.TempDir(), "-wait", "300ms", "-stall", "100ms"}, lines, io.Discard)
	}()
	addr := await(t, lines, regexp.MustCompile(`server mode on (\S+),`))
	control := await(t, lines, regexp.MustCompile(`control endpoint http://(\S+) `))
	var driveOut bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"drive", "-protocol", "0.11.1", "-addr", addr, "-control", control}, &driveOut, &driveOut))
	summary := await(t, lines, regexp.MustCompile(`(\d+ pass, \d+ fail, \d+ not run)`))
	assert.NoError(t, <-serverErr)
	assert.Equal(t, strconv.Itoa(len(ids))+" pass, 0 fail, 0 not run", summary)
}

// A failing case makes the exit status 1; a server not running leaves
// every case not run, which fails too.
func TestCommandLineFails(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"client", "-addr", freePort(t), "-user", "u:pw-xyz", "-out", t.TempDir(), "-cases", "v456"}, &out, &out)
	assert.True(t, errors.Is(err, errFailed), "%v", err)
	assert.Contains(t, out.String(), "0 pass, 0 fail, 1 not run")
	assert.NotContains(t, out.String(), "pw-xyz")
}

// Flag errors never quote a value that may be a secret.
func TestSecretFlagsNotPrinted(t *testing.T) {
	var out bytes.Buffer
	err := run(context.Background(), []string{"client", "-user", "no-colon-s3cret"}, &out, &out)
	require.Error(t, err)
	assert.NotContains(t, err.Error()+out.String(), "s3cret")
	var a accounts
	require.NoError(t, a.add("bob:pw-secret"))
	assert.NotContains(t, strings.Join([]string{a.users[0].Password.String()}, ""), "pw-secret")
}

func TestAccountsRefuseOverlongFields(t *testing.T) {
	var a accounts
	long := strings.Repeat("x", 256)
	for _, s := range []string{long + ":pw", "u:" + long, long + "=u", "tok=" + long} {
		err := a.add(s)
		require.Error(t, err)
		assert.NotContains(t, err.Error(), long)
	}
	assert.Empty(t, a.users)
	assert.Empty(t, a.tokens)
}

// -cases takes the vector id of an own case a vector holds: v511 runs c6,
// reported under c6.
func TestCasesByVectorID(t *testing.T) {
	var out bytes.Buffer
	dir := t.TempDir()
	err := run(context.Background(), []string{"client", "-addr", freePort(t), "-user", "u:pw", "-agent", "none", "-out", dir, "-cases", "v511,c7"}, &out, &out)
	assert.True(t, errors.Is(err, errFailed), "%v", err)
	assert.Contains(t, out.String(), "0 pass, 0 fail, 2 not run")
	rs, err := readReports([]string{filepath.Join(dir, "client-none.json")})
	require.NoError(t, err)
	var ids []string
	for _, c := range rs[0].Cases {
		ids = append(ids, c.ID+"/"+strconv.Itoa(c.Vector))
	}
	assert.Equal(t, []string{"c6/511", "c7/512"}, ids)
}

// A -cases naming no case is a usage error naming it, in both modes, and
// a choice of no case at all never passes.
func TestUnknownCasesAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"client", "-addr", freePort(t), "-user", "u:pw", "-out", t.TempDir(), "-cases", "zz9"},
		{"client", "-addr", freePort(t), "-user", "u:pw", "-out", t.TempDir(), "-cases", "v456,zz9"},
		{"server", "-listen", "127.0.0.1:0", "-control", "", "-out", t.TempDir(), "-cases", "zz9,s99999"},
	} {
		var out bytes.Buffer
		err := run(context.Background(), args, &out, &out)
		require.Error(t, err, "%v", args)
		assert.False(t, errors.Is(err, errFailed), "a usage error, exit 2: %v", err)
		assert.Contains(t, err.Error(), "zz9")
		assert.NotContains(t, out.String(), "0 pass")
	}
	var out bytes.Buffer
	err := run(context.Background(), []string{"client", "-addr", freePort(t), "-user", "u:pw", "-out", t.TempDir(), "-cases", " , "}, &out, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "chooses no client-mode case")
	// A report of no case is not a pass.
	err = finishRun(&Report{Mode: "client", Agent: "none", Started: time.Now()}, t.TempDir(), &out)
	assert.ErrorIs(t, err, errFailed)
}

// TestLoadFallsBackToBuiltInVectors: run outside a checkout (a kit installed
// with go install), the kit reads the vectors built into it, the same cases
// as the checkout's.
func TestLoadFallsBackToBuiltInVectors(t *testing.T) {
	dir, err := findVectors()
	require.NoError(t, err)
	fromDir, err := loadVectors(dir)
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	_, err = findVectors()
	require.Error(t, err)
	vs, _, err := (&common{}).load()
	require.NoError(t, err)
	require.Equal(t, builtIn, vs.Dir)
	require.Equal(t, len(fromDir.Files), len(vs.Files))
	for k, f := range fromDir.Files {
		require.Equal(t, len(f.Cases), len(vs.Files[k].Cases), k)
	}
}

// TestInstalledBuild: only a build with a module version and no VCS
// checkout (go install ...@vX) counts as installed, and so runs its
// built-in vectors whatever lies above the working directory.
func TestInstalledBuild(t *testing.T) {
	for _, c := range []struct {
		version  string
		settings []debug.BuildSetting
		want     bool
	}{
		{"v0.1.0", nil, true},
		{"(devel)", nil, false},
		{"", nil, false},
		{"v0.1.1-0.20261207120000-abcdefabcdef+dirty", []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdef"}}, false},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/iggywire/iggywire/cmd", Version: c.version}, Settings: c.settings}
		assert.Equal(t, c.want, installedBuild(bi), "%+v", c)
	}
}

// TestDriveAgainstNothingFails: a driver that reached no kit says so and
// fails, instead of reporting the cases as driven.
func TestDriveAgainstNothingFails(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now
	var out, errb bytes.Buffer
	err = cmdDrive([]string{"-addr", addr, "-control", "", "-cases", "s1,s2", "-timeout", "500ms"}, &out, &errb)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no case reached a kit")
	assert.Contains(t, out.String(), "2 cases driven, 0 reached the kit")
}
