//go:build iggysdk

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	ierror "github.com/apache/iggy/foreign/go/errors"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The SDK's errors reach the kit by what WIRE.md section 8 calls them;
// other SDK errors by their SDK name; an error that is not the SDK's own
// as its text.
func TestSurfaced(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{nil, "0"},
		{ierror.IncompatibleProtocolVersion{ClientVersion: 11264, ServerVersionMin: 11265, ServerVersionMax: 11265}, "IncompatibleProtocolVersion"},
		{fmt.Errorf("login: %w", ierror.ErrInvalidCredentials), "42"},
		{ierror.ErrInvalidCommand, "3"},
		{ierror.ErrTransientNotCommitted, "57"},
		{ierror.ErrDisconnected, "Disconnected"},
		{context.DeadlineExceeded, "context deadline exceeded"},
		{errors.New("vsr: register reply is truncated"), "vsr: register reply is truncated"},
	} {
		assert.Equal(t, c.want, surfaced(c.err), "%v", c.err)
	}
}

// The driver against the kit: every server-mode case gets a connection
// and a result, and the run ends with the driver's POST /finish answered
// or the kit's own end. The pass count is the SDK's, not the driver's, so
// it is logged, not asserted.
func TestDriverAgainstKit(t *testing.T) {
	kit := kitBinary(t)
	out := t.TempDir()
	cmd := exec.Command(kit, "server", "-listen", "127.0.0.1:0", "-control", "127.0.0.1:0", "-agent", "iggy-go", "-out", out, "-vectors", repoPath(t, "vectors"),
		"-protocol", kitProtocol())
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	lines := bufio.NewScanner(stdout)
	addr := readLine(t, lines, regexp.MustCompile(`^conform: server mode on ([^,]+),`))
	ctl := readLine(t, lines, regexp.MustCompile(`^conform: control endpoint http://(\S+) `))
	var driven, errOut bytes.Buffer
	require.NoError(t, run([]string{"-addr", addr, "-control", ctl}, &driven, &errOut), errOut.String())
	assert.Contains(t, driven.String(), "cases driven")
	assert.Empty(t, errOut.String())
	for lines.Scan() {
		t.Log(lines.Text())
	}
	// The kit exits 1 when a case fails; only a usage error (2) is wrong here.
	var exit *exec.ExitError
	if err := cmd.Wait(); err != nil && (!errors.As(err, &exit) || exit.ExitCode() != 1) {
		t.Fatalf("kit: %v: %s", err, stderr.String())
	}
	var r struct {
		Summary struct{ Pass, Fail, NotRun int } `json:"summary"`
		Cases   []struct {
			ID, Verdict, Surfaced string
		} `json:"cases"`
	}
	data, err := os.ReadFile(filepath.Join(out, "server-iggy-go.json"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &r))
	require.NotEmpty(t, r.Cases)
	for _, c := range r.Cases {
		assert.NotEqual(t, "not-run", c.Verdict, c.ID)
		assert.NotEmpty(t, c.Surfaced, "%s: no result posted", c.ID)
	}
	t.Logf("Go SDK at protocol %s: %d pass, %d fail of %d", kitProtocol(), r.Summary.Pass, r.Summary.Fail, len(r.Cases))
}

// kitProtocol is the protocol the kit serves: $CONFORM_PROTOCOL, or
// 0.11.0. Set it to the one the SDK speaks.
func kitProtocol() string {
	if p := os.Getenv("CONFORM_PROTOCOL"); p != "" {
		return p
	}
	return "0.11.0"
}

// kitBinary is $CONFORM_KIT, or cmd/conform built into the test's
// temporary directory.
func kitBinary(t *testing.T) string {
	if kit := os.Getenv("CONFORM_KIT"); kit != "" {
		return kit
	}
	kit := filepath.Join(t.TempDir(), "conform")
	build := exec.Command("go", "-C", repoPath(t, "cmd"), "build", "-o", kit, "./conform")
	build.Env = append(os.Environ(), "GOWORK="+repoPath(t, "cmd/go.work")) // the clone's root module, not a release
	msg, err := build.CombinedOutput()
	require.NoError(t, err, string(msg))
	return kit
}

// repoPath is a path in the checkout this driver lives in
// (cmd/conform/drivers/iggy-go).
func repoPath(t *testing.T, rel string) string {
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "..", rel))
	require.NoError(t, err)
	return p
}

// readLine reads the kit's output until a line matches re, and returns
// the match's first group.
func readLine(t *testing.T, lines *bufio.Scanner, re *regexp.Regexp) string {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && lines.Scan() {
		if m := re.FindStringSubmatch(lines.Text()); m != nil {
			return m[1]
		}
	}
	t.Fatalf("the kit never printed a line matching %s", re)
	return ""
}
