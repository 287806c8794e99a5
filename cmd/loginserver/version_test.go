package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/internal/release"
)

// TestVersionFlag: run with -version returns errPrintVersion at once,
// having listened on nothing and written nothing, whatever else the flags
// say; -protocol takes the protocol version served.
func TestVersionFlag(t *testing.T) {
	for _, args := range [][]string{{"-version"}, {"-version", "-addr", "256.0.0.1:1"}, {"-user", "iggy:iggy", "-version"}} {
		var stderr bytes.Buffer
		if err := run(context.Background(), args, &stderr, nil); !errors.Is(err, errPrintVersion) {
			t.Errorf("%v: want errPrintVersion, got %v", args, err)
		}
		if stderr.Len() != 0 {
			t.Errorf("%v: wrote %q", args, stderr.String())
		}
	}
	cfg, err := parseConfig([]string{"-user", "iggy:iggy", "-protocol", "0.12.0"}, &bytes.Buffer{})
	if err != nil || cfg.Version.String() != "0.12.0" {
		t.Fatalf("-protocol 0.12.0: %v, %v", cfg.Version, err)
	}
}

// TestVersionMain runs main itself in a child process (this test binary,
// rerun with LOGINSERVER_MAIN_ARGS set): -version prints the version line on
// stdout, nothing on stderr, and exits 0.
func TestVersionMain(t *testing.T) {
	if args := os.Getenv("LOGINSERVER_MAIN_ARGS"); args != "" {
		os.Args = append([]string{"loginserver"}, strings.Fields(args)...)
		main()
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestVersionMain$")
	cmd.Env = append(os.Environ(), "LOGINSERVER_MAIN_ARGS=-version")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("loginserver -version: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	if !strings.HasPrefix(out, "loginserver "+release.Version+" ") || strings.Count(out, "\n") != 1 ||
		!strings.Contains(out, " go=go") {
		t.Errorf("loginserver -version printed %q", out)
	}
	if stderr.Len() != 0 {
		t.Errorf("loginserver -version wrote to stderr: %q", stderr.String())
	}
}
