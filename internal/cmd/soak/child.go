package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"

	"github.com/iggywire/iggywire/internal/attack"
)

// The probe, the lock-outs' legitimate client and the throughput
// scenario's echo server each run in a process of their own (the soak
// started again), so that their timings do not wait behind the attackers'
// goroutines in the soak's scheduler: the attackers share the machine
// with them, as they would, but not its Go runtime.

// child runs the soak again with args until ctx is done, and returns it
// and its standard output.
func child(ctx context.Context, args ...string) (*exec.Cmd, io.ReadCloser, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	return start(ctx, (*exec.Cmd).StdoutPipe, append([]string{self}, args...)...)
}

// interrupted is done at SIGINT: how the soak stops a child.
func interrupted() context.Context {
	ctx, _ := signal.NotifyContext(context.Background(), os.Interrupt)
	return ctx
}

// probeProcess runs l, the probe or the lock-outs' legitimate client,
// against addr until ctx is done, in a process of its own. Its password
// is its account's name: passwords stay out of command lines.
func probeProcess(ctx context.Context, addr string, l attack.Legit) (attack.Result, error) {
	var r attack.Result
	l.Password = ""
	arg, _ := json.Marshal(l) // its fields all marshal
	cmd, out, err := child(ctx, "-probe", string(arg), "-probe-addr", addr)
	if err != nil {
		return r, err
	}
	err = json.NewDecoder(out).Decode(&r)
	_ = cmd.Wait() // an error once ctx is done, by design: a crash shows in the decoding
	return r, err
}

// probeMain is the probe process: it runs the Legit given in JSON until
// SIGINT and writes its attack.Result as JSON. The probe dials with the
// system's buffers, the legitimate client with an attacker's.
func probeMain(addr, arg string) {
	var l attack.Legit
	if err := json.Unmarshal([]byte(arg), &l); err != nil {
		fmt.Fprintln(os.Stderr, "soak -probe:", err)
		os.Exit(2)
	}
	l.Password = l.User
	bufs := attackBuffer
	if l.Probe {
		bufs = 0
	}
	_ = json.NewEncoder(os.Stdout).Encode(l.Run(dialer(addr, bufs, ioTimeout), interrupted().Done()))
}
