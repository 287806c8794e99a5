package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
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

// throughput measures round trips per second with 1, 10 and lockstep100
// clients.
func throughput(e *env) outcome {
	ctx, cancel := context.WithCancel(context.Background())
	cmd, out, err := child(ctx, "-echo")
	if err != nil {
		cancel()
		return failed(fmt.Errorf("echo server: %w", err))
	}
	defer cmd.Wait() // runs after cancel, which ends the echo server
	defer cancel()
	echo, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		return failed(fmt.Errorf("echo server: %w", err))
	}
	var res []string
	var share float64 // of the last row, lockstep100's
	for _, n := range []int{1, 10, lockstep100} {
		var rt [2]int64
		var took [2]time.Duration
		for range echoRounds {
			for i, addr := range []string{strings.TrimSpace(echo), e.srv.addr} {
				k, d, err := lockstep(addr, n, i == 1, echoRound)
				if err != nil {
					return failed(fmt.Errorf("%s, %d clients: %w", []string{"echo", "login server"}[i], n, err))
				}
				rt[i], took[i] = rt[i]+k, took[i]+d
			}
		}
		er, lr := float64(rt[0])/took[0].Seconds(), float64(rt[1])/took[1].Seconds()
		share = lr / er
		res = append(res, fmt.Sprintf("%d clients: %.0f vs echo %.0f round trips/s (%.0f%%)", n, lr, er, 100*share))
	}
	return outcome{result: strings.Join(res, "; ")}.
		check(share < minEchoShare, "%d lockstep clients: %.0f%% of the echo server's round trips < %.0f%%", lockstep100, 100*share, 100*minEchoShare)
}

// lockstep runs n clients against addr for about d, each logging in first
// when login is set, then writing a ping and reading its answer in a loop;
// it returns the round trips and the time they took. The clients come
// from 10 addresses, as many users' would, within the login server's
// per-address accept burst.
func lockstep(addr string, n int, login bool, d time.Duration) (int64, time.Duration, error) {
	ips, dial := loopbackIPs(7, 10), dialer(addr, 0, ioTimeout)
	errs := make([]error, n)
	var total atomic.Int64
	var up sync.WaitGroup
	up.Add(n)
	// The clients start together once the last has connected.
	began := sync.OnceValue(time.Now)
	attack.Each(n, func(i int) {
		var ping []byte
		p, err := attack.DialPeer(dial, ips[i%len(ips)])
		if err == nil {
			defer p.NC.Close()
			if login {
				err = p.Login("iggy", "iggy")
			}
		}
		if err == nil {
			ping, err = p.C.Ping(nil)
			_ = p.NC.SetDeadline(time.Now().Add(d + 2*ioTimeout)) // the others' set-up, the run, an answer
		}
		up.Done()
		up.Wait()
		end, buf, k := began().Add(d), make([]byte, 0, 512), int64(0)
		for ; err == nil && time.Now().Before(end); k++ {
			if _, err = p.NC.Write(ping); err == nil {
				buf, err = codec.ReadFrame(p.NC, buf[:0], codec.MaxFrameSize)
			}
		}
		errs[i] = err
		total.Add(k) // one too many after an error, which is returned instead
	})
	return total.Load(), time.Since(began()), cmp.Or(errs...) // the first error
}

// echoMain is the echo server process: it listens on a loopback port,
// writes the address on standard output and serves until SIGINT, writing
// every frame it reads back as it came.
func echoMain() {
	stop, _ := signal.NotifyContext(context.Background(), os.Interrupt) // how the soak ends it
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak -echo:", err)
		os.Exit(1)
	}
	fmt.Println(ln.Addr().String())
	context.AfterFunc(stop, func() { _ = ln.Close() })
	for {
		nc, err := ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				fmt.Fprintln(os.Stderr, "soak -echo:", err)
			}
			return
		}
		go func() {
			defer nc.Close()
			var err error
			for buf := make([]byte, 0, 1024); err == nil; { // only pings come: the buffer stays small
				if buf, err = codec.ReadFrame(nc, buf[:0], 1<<20); err == nil {
					_, err = nc.Write(buf)
				}
			}
		}()
	}
}
