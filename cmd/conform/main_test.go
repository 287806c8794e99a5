package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

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

// The commands as an SDK author runs them: conform server, driven by
// conform drive over a subset of cases, then conform client against
// loginserver; each writes its three reports.
func TestCommandLine(t *testing.T) {
	dir := t.TempDir()
	addr, control := freePort(t), freePort(t)
	var serverOut, driveOut bytes.Buffer
	var wg sync.WaitGroup
	var serverErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		serverErr = run(context.Background(), []string{"server", "-listen", addr, "-control", control, "-agent", "lifecycle", "-out", dir,
			"-wait", "300ms", "-cases", "v423,v443,s5"}, &serverOut, &serverOut)
	}()
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, 5e9, 1e7)
	require.NoError(t, run(context.Background(), []string{"drive", "-addr", addr, "-control", control, "-cases", "v423,v443,s5"}, &driveOut, &driveOut))
	wg.Wait()
	require.NoError(t, serverErr, serverOut.String())
	assert.Contains(t, serverOut.String(), "3 pass, 0 fail, 0 not run")

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
