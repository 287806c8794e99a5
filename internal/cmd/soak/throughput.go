package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// The throughput scenario compares the login server, on its defaults, with
// a plain echo server of the same framing (it reads a 256-byte header and
// the body its size announces, and writes the frame back), run as a
// process of its own on the same machine in the same run: lockstep
// clients each write one ping and read its answer before the next. The
// echo server is what the machine and the kernel give a server that does
// nothing; the login server must reach at least minEchoShare of it with
// lockstep100 clients. Rounds alternate between the two servers, so that
// a neighbour's load falls on both alike.
const (
	lockstep100  = 100
	minEchoShare = 0.5
	echoRounds   = 3
	echoRound    = 2 * time.Second
)

// lockstepSizes are the client counts the scenario measures.
var lockstepSizes = []int{1, 10, lockstep100}

// throughputScenario measures round trips per second at lockstepSizes.
func throughputScenario(e *env) func() outcome {
	echo, err := startEcho()
	if err != nil {
		return failed(fmt.Errorf("echo server: %w", err))
	}
	defer echo.stop()
	var res []string
	var misses []string
	for _, n := range lockstepSizes {
		var echoRT, loginRT int64
		var echoTime, loginTime time.Duration
		for range echoRounds {
			k, d, err := lockstep(echo.addr, n, false, echoRound)
			if err != nil {
				return failed(fmt.Errorf("echo, %d clients: %w", n, err))
			}
			echoRT, echoTime = echoRT+k, echoTime+d
			k, d, err = lockstep(e.srv.addr, n, true, echoRound)
			if err != nil {
				return failed(fmt.Errorf("login server, %d clients: %w", n, err))
			}
			loginRT, loginTime = loginRT+k, loginTime+d
		}
		er, lr := float64(echoRT)/echoTime.Seconds(), float64(loginRT)/loginTime.Seconds()
		share := lr / er
		res = append(res, fmt.Sprintf("%d clients: %.0f vs echo %.0f round trips/s (%.0f%%)", n, lr, er, 100*share))
		if n == lockstep100 && share < minEchoShare {
			misses = append(misses, fmt.Sprintf("%d lockstep clients: %.0f%% of the echo server's round trips < %.0f%%", n, 100*share, 100*minEchoShare))
		}
	}
	return func() outcome { return outcome{result: strings.Join(res, "; "), misses: misses} }
}

// lockstep runs n clients against addr for about d, each logging in first
// when login is set, then writing a ping and reading its answer in a loop;
// it returns the round trips and the time they took. The clients come
// from 10 addresses, as many users' would, within the login server's
// per-address accept burst.
func lockstep(addr string, n int, login bool, d time.Duration) (int64, time.Duration, error) {
	ips := loopbackIPs(7, 10)
	conns := make([]net.Conn, 0, n)
	pings := make([][]byte, 0, n)
	defer func() {
		for _, nc := range conns {
			_ = nc.Close()
		}
	}()
	for i := range n {
		c, err := dialClient(addr, ips[i%len(ips)])
		if err != nil {
			return 0, 0, err
		}
		conns = append(conns, c.NC)
		if login {
			if err := c.Login("iggy", "iggy"); err != nil {
				return 0, 0, err
			}
		}
		ping, err := c.C.Ping(nil)
		if err != nil {
			return 0, 0, err
		}
		pings = append(pings, ping)
	}
	var total atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := make(chan struct{})
	end := time.Now().Add(d + 100*time.Millisecond) // after the barrier
	for i, nc := range conns {
		spawn(&wg, func() {
			buf := make([]byte, 0, 512)
			_ = nc.SetDeadline(end.Add(ioTimeout))
			<-start
			k := int64(0)
			for time.Now().Before(end) {
				if _, err := nc.Write(pings[i]); err != nil {
					firstErr.CompareAndSwap(nil, err)
					break
				}
				f, err := codec.ReadFrame(nc, buf[:0], codec.MaxFrameSize)
				if err != nil {
					firstErr.CompareAndSwap(nil, err)
					break
				}
				buf = f[:0]
				k++
			}
			total.Add(k)
		})
	}
	time.Sleep(time.Until(end.Add(-d)))
	began := time.Now()
	close(start)
	wg.Wait()
	took := time.Since(began)
	if err, ok := firstErr.Load().(error); ok {
		return 0, 0, err
	}
	return total.Load(), took, nil
}

// echoProc is the echo server process.
type echoProc struct {
	cmd  *exec.Cmd
	in   io.Closer
	addr string
}

// startEcho runs the soak again as the echo server and learns its address.
func startEcho() (*echoProc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "-echo")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	e := &echoProc{cmd: cmd, in: in}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		e.stop()
		return nil, err
	}
	e.addr = strings.TrimSpace(line)
	return e, nil
}

func (e *echoProc) stop() {
	_ = e.in.Close()
	_ = e.cmd.Wait()
}

// echoMain is the echo server process: it listens on a loopback port,
// writes the address on standard output and serves until its standard
// input closes.
func echoMain() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak -echo:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		_ = ln.Close()
	}()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				fmt.Fprintln(os.Stderr, "soak -echo:", err)
			}
			return
		}
		go echoConn(nc)
	}
}

// echoConn writes every frame read on nc back, as it came.
func echoConn(nc net.Conn) {
	defer nc.Close()
	buf := make([]byte, 0, 1024)
	for {
		f, err := codec.ReadFrame(nc, buf[:0], 1<<20)
		if err != nil {
			return
		}
		if _, err := nc.Write(f); err != nil {
			return
		}
		if cap(f) <= 4<<10 {
			buf = f[:0]
		}
	}
}
