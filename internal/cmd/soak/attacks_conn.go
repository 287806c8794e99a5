package main

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/attack"
)

// connAttacks is the second round's table: each row at the size it names.
func (s *soak) connAttacks() []scenario {
	return []scenario{
		{id: "account-hold", name: "one account logs in 8,192 connections from 40 addresses and holds them", dur: 15 * time.Second, attack: accountHold(8192, 40)},
		{id: "nonreaders", name: "200 logged-in clients ping flat out and never read", attack: nonReaders(200)},
		{id: "pipeline", name: "50 logged-in connections pipeline pings flat out", attack: pipeline(50)},
		{id: "throughput", name: "lockstep pinging clients, login server vs an echo server of the same framing", dur: time.Millisecond, noProbe: true, attack: throughputScenario},
		{id: "churn", name: "connect/reset churn, 32 addresses, flat out", attack: churn(32)},
		{id: "guess-account", name: "wrong passwords for one account from 200 addresses; probe: that account's right password", probeAs: "iggy", attack: guessAccount(200)},
		{id: "prelogin-churn", name: "pre-login connect/reset churn flat out, 64 addresses, with 20 clients logging in", attack: preLoginChurn},
		{id: "stalled-large", name: "8 unauthenticated connections announce 1 MiB frames and stall; a logged-in 200 KiB frame every 0.5 s", attack: stalledLarge},
		{id: "scrapers", name: "metrics port: 500 concurrent scrapers", maxFDs: maxMetricsFDs, attack: scrapers(500)},
		{id: "keepalive", name: "metrics port: 2,000 keep-alive connections after one request each", dur: 15 * time.Second, maxFDs: maxMetricsFDs, attack: keepAlive(2000)},
		{id: "big-headers", name: "metrics port: 200 requests with 1 MiB headers, stalled", maxFDs: maxMetricsFDs, attack: bigHeaders(200)},
		{id: "fd-limit", name: "metrics port: 1,013 idle connections, the server's descriptor limit at 1,024", fdLimit: 1024, attack: fdLimit(1013)},
	}
}

// loopbackIPs are n source addresses 127.0.b.10, 127.0.b.11, ...
func loopbackIPs(b byte, n int) []net.IP {
	ips := make([]net.IP, n)
	for i := range ips {
		ips[i] = net.IPv4(127, 0, b+byte((10+i)/250), byte((10+i)%250))
	}
	return ips
}

// accountHold: n connections from addrs addresses all log in as iggy
// (attack.HoldSessions from each address at once) and hold; then they all
// close.
func accountHold(n, addrs int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		type got struct {
			held    []net.Conn
			refused int
		}
		each := make(chan got, addrs)
		start := time.Now()
		for _, ip := range loopbackIPs(1, addrs) {
			go func() {
				held, refused := attack.HoldSessions(dialer(e.srv.addr), ip, "iggy", "iggy", n/addrs)
				each <- got{held, refused}
			}()
		}
		var all got
		for range addrs {
			g := <-each
			all.held, all.refused = append(all.held, g.held...), all.refused+g.refused
		}
		took := time.Since(start)
		return func() outcome {
			for _, nc := range all.held {
				_ = nc.Close()
			}
			return outcome{result: fmt.Sprintf("%d of %d logged in and held (in %v), %d refused", len(all.held), n, took.Round(100*time.Millisecond), all.refused)}
		}
	}
}

// nonReaders: n clients log in, then write pings as fast as the kernel
// takes them and never read an answer.
func nonReaders(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		ips := loopbackIPs(2, 20)
		var wg sync.WaitGroup
		var written atomic.Int64
		for i := range n {
			spawn(&wg, func() {
				c, batch, ok := pingBatch(e, ips[i%len(ips)])
				if !ok {
					return
				}
				closeOnStop(c, e.stop, func() {
					for {
						k, err := c.NC.Write(batch)
						written.Add(int64(k))
						if err != nil {
							return
						}
					}
				})
			})
		}
		time.Sleep(time.Second)
		return func() outcome {
			wg.Wait()
			m := e.srv.scrape()
			return outcome{result: fmt.Sprintf("%s of pings written, never read; closed: %.0f not-reading, %.0f write-timeout, %.0f read-timeout, %.0f peer-reset",
				mib(written.Load()), m[`loginserver_connections_closed_total{cause="not-reading"}`], m[`loginserver_connections_closed_total{cause="write-timeout"}`],
				m[`loginserver_connections_closed_total{cause="read-timeout"}`], m[`loginserver_connections_closed_total{cause="peer-reset"}`])}
		}
	}
}

// pingBatch dials from local, logs in, and returns the connection, with
// no deadline left on it, and 64 of its pings in one buffer.
func pingBatch(e *env, local net.IP) (*client, []byte, bool) {
	c, err := dial(e.srv.addr, local)
	if err != nil {
		return nil, nil, false
	}
	if c.Login("iggy", "iggy") != nil {
		_ = c.NC.Close()
		return nil, nil, false
	}
	ping, err := c.C.Ping(nil) // after the login: it carries the session
	if err != nil {
		_ = c.NC.Close()
		return nil, nil, false
	}
	_ = c.NC.SetDeadline(time.Time{})
	return c, bytes.Repeat(ping, 64), true
}

// pipeline: n logged-in connections each write pings 64 at a time and read
// the answers on another goroutine, flat out.
func pipeline(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		ips := loopbackIPs(3, 10)
		var wg sync.WaitGroup
		var answered atomic.Int64
		start := time.Now()
		for i := range n {
			spawn(&wg, func() {
				c, batch, ok := pingBatch(e, ips[i%len(ips)])
				if !ok {
					return
				}
				go func() {
					buf := make([]byte, 0, 4096)
					for {
						f, err := codec.ReadFrame(c.NC, buf[:0], codec.MaxFrameSize)
						if err != nil {
							return
						}
						buf = f[:0]
						answered.Add(1)
					}
				}()
				closeOnStop(c, e.stop, func() {
					for {
						if _, err := c.NC.Write(batch); err != nil {
							return
						}
					}
				})
			})
		}
		return func() outcome {
			wg.Wait()
			return outcome{result: fmt.Sprintf("%.0f pings/s answered", float64(answered.Load())/time.Since(start).Seconds())}
		}
	}
}

// churn: connections from addrs addresses opened and reset flat out, 64
// at a time (attack.ResetStorm over a few addresses).
func churn(addrs int) func(e *env) func() outcome {
	return func(e *env) func() outcome {
		ips := loopbackIPs(4, addrs)
		done, start := make(chan int64, 1), time.Now()
		go func() {
			done <- attack.ResetStorm(dialer(e.srv.addr), func(i int) net.IP { return ips[i%len(ips)] }, math.MaxInt, 64, e.stop)
		}()
		return func() outcome {
			return outcome{result: fmt.Sprintf("%.0f connections/s opened and reset", float64(<-done)/time.Since(start).Seconds())}
		}
	}
}

// guessAccount: wrong passwords for iggy from n addresses, one connection
// at a time each.
func guessAccount(n int) func(e *env) func() outcome {
	return func(e *env) func() outcome { return guessFrom(e, loopbackIPs(5, n), 1) }
}

// preLoginChurn: connections from 64 addresses opened and reset flat out
// fill the pre-login line, while 20 clients from 127.0.0.250 log in and
// ping in a loop. Their logins must all succeed, and logged-in sessions
// closed by the pre-login cap must be none.
func preLoginChurn(e *env) func() outcome {
	endChurn := churn(64)(e)
	results := make(chan attack.Result, 20)
	for range 20 {
		go func() {
			l := attack.Legit{From: net.IPv4(127, 0, 0, 250), User: "iggy", Password: "iggy"}
			results <- l.Run(dialer(e.srv.addr), e.stop)
		}()
	}
	return func() outcome {
		churned := endChurn()
		var all attack.Result
		for range 20 {
			r := <-results
			all.OK, all.Failed = all.OK+r.OK, all.Failed+r.Failed
			if all.FirstErr == nil {
				all.FirstErr = r.FirstErr
			}
		}
		wrong := e.srv.scrape()[`loginserver_sessions_closed_total{cause="prelogin-cap"}`]
		o := outcome{result: fmt.Sprintf("%s; legitimate logins %d ok, %d failed; logged-in sessions closed by the pre-login cap: %.0f",
			churned.result, all.OK, all.Failed, wrong)}
		if all.Failed > 0 {
			o.misses = append(o.misses, fmt.Sprintf("%d legitimate logins failed (the first: %v)", all.Failed, all.FirstErr))
		}
		if wrong != 0 {
			o.misses = append(o.misses, fmt.Sprintf("%.0f logged-in sessions closed as pre-login", wrong))
		}
		return o
	}
}

// stalledLarge: 8 connections send the header of a 1 MiB login frame and
// stall; a logged-in client sends a 200 KiB request every 0.5 s, timed
// from its first byte to its answer.
func stalledLarge(e *env) func() outcome {
	var stalled []*client
	for range 8 {
		c, err := dial(e.srv.addr, net.IPv4(127, 0, 6, 10))
		if err != nil {
			return failed(err)
		}
		small, err := c.C.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		if err != nil {
			return failed(err)
		}
		h, err := codec.DecodeRequestHeader(small)
		if err != nil {
			return failed(err)
		}
		h.Size = 1 << 20
		hdr, err := h.AppendBinary(nil)
		if err != nil {
			return failed(err)
		}
		if _, err := c.NC.Write(append(hdr, small[codec.HeaderSize:]...)); err != nil {
			return failed(err)
		}
		stalled = append(stalled, c)
	}
	time.Sleep(200 * time.Millisecond)
	var lat []time.Duration
	var fails int
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := dialClient(e.srv.addr, net.IPv4(127, 0, 6, 11))
		if err != nil || c.Login("iggy", "iggy") != nil {
			fails++
			return
		}
		defer c.NC.Close()
		body := make([]byte, 200<<10)
		for attack.Pause(500*time.Millisecond, e.stop) {
			frame, err := c.C.Request(nil, codec.CodeGetClusterMetadata, body)
			if err != nil {
				fails++
				return
			}
			start := time.Now()
			// A denial (status 3) is an answer; anything else ends the test.
			var denied *codec.IggyError
			if err := c.Do(frame, nil); err != nil && !errors.As(err, &denied) {
				fails++
				return
			}
			lat = append(lat, time.Since(start))
		}
	}()
	return func() outcome {
		<-done
		for _, c := range stalled {
			_ = c.NC.Close()
		}
		p99 := percentile(lat, 0.99)
		o := outcome{result: fmt.Sprintf("logged-in 200 KiB frames: %d answered, p50 %s ms, p99 %s ms, %d failed", len(lat), ms(percentile(lat, 0.5)), ms(p99), fails)}
		if p99 > maxP99 || fails > 0 || len(lat) == 0 {
			o.misses = append(o.misses, fmt.Sprintf("logged-in 200 KiB frame p99 %s ms, %d failed", ms(p99), fails))
		}
		return o
	}
}
