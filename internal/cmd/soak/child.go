package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/iggywire/iggywire/internal/attack"
)

// The probe, the lock-outs' legitimate client and the throughput
// scenario's echo server each run in a process of their own (the soak
// started again), so that their timings do not wait behind the attackers'
// goroutines in the soak's scheduler: the attackers share the machine
// with them, as they would, but not its Go runtime.

// child runs the soak again with args until stop closes its standard
// input, and returns its standard output and the wait for its end.
func child(stop <-chan struct{}, args ...string) (*bufio.Reader, func() error, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(self, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	go func() {
		<-stop
		_ = in.Close()
	}()
	return bufio.NewReader(out), cmd.Wait, nil
}

// stdinClosed is closed once the standard input closes: how the soak
// stops a child.
func stdinClosed() <-chan struct{} {
	stop := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	return stop
}

// probeProcess runs l, the probe or the lock-outs' legitimate client,
// against addr until stop, in a process of its own. Its password is its
// account's name: passwords stay out of command lines.
func probeProcess(addr string, l attack.Legit, stop <-chan struct{}) (attack.Result, error) {
	var r attack.Result
	l.Password = ""
	arg, err := json.Marshal(l)
	if err != nil {
		return r, err
	}
	out, wait, err := child(stop, "-probe", string(arg), "-probe-addr", addr)
	if err != nil {
		return r, err
	}
	err = json.NewDecoder(out).Decode(&r)
	return r, errors.Join(err, wait())
}

// probeMain is the probe process: it runs the Legit given in JSON until
// its standard input closes and writes its attack.Result as JSON. The
// probe dials with the system's buffers, the legitimate client with an
// attacker's.
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
	_ = json.NewEncoder(os.Stdout).Encode(l.Run(dialer(addr, bufs, ioTimeout), stdinClosed()))
}
