package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestMetricsAddr(t *testing.T) {
	for in, want := range map[string]struct {
		addr   string
		public bool
	}{
		":9090":            {"127.0.0.1:9090", false},
		"127.0.0.1:0":      {"127.0.0.1:0", false},
		"localhost:9090":   {"localhost:9090", false},
		"[::1]:9090":       {"[::1]:9090", false},
		"0.0.0.0:9090":     {"0.0.0.0:9090", true},
		"[::]:9090":        {"[::]:9090", true},
		"192.0.2.1:9090":   {"192.0.2.1:9090", true},
		"metrics.lan:9090": {"metrics.lan:9090", true},
	} {
		addr, public, err := metricsAddr(in)
		require.NoError(t, err, in)
		require.Equal(t, want.addr, addr, in)
		require.Equal(t, want.public, public, in)
	}
	for _, bad := range []string{"9090", "127.0.0.1", ":http", ":70000", ""} {
		_, _, err := metricsAddr(bad)
		require.Error(t, err, bad)
	}
}

// TestLimitListener: with two connections open a third waits in the
// listen queue until one closes; Close ends an Accept waiting for a slot.
func TestLimitListener(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ln := newLimitListener(inner, 2)
	accepted := make(chan net.Conn, 3)
	done := make(chan error, 1)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				done <- err
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", inner.Addr().String())
		require.NoError(t, err)
		defer c.Close()
	}
	first, second := <-accepted, <-accepted
	select {
	case <-accepted:
		t.Fatal("a third connection was accepted with two open")
	case <-time.After(100 * time.Millisecond):
	}
	require.NoError(t, first.Close())
	_ = first.Close() // a second Close gives back no second slot
	third := <-accepted
	fourth, err := net.Dial("tcp", inner.Addr().String())
	require.NoError(t, err)
	defer fourth.Close()
	select {
	case <-accepted:
		t.Fatal("a closed connection's slot was given back twice")
	case <-time.After(100 * time.Millisecond):
	}
	require.NoError(t, ln.Close())
	require.ErrorIs(t, <-done, net.ErrClosed)
	_ = second.Close()
	_ = third.Close()
}

// TestPacer: the burst passes at once, then one turn per 1/rate, and a
// caller that would wait longer than it may gets no turn (and takes none).
func TestPacer(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	p := newPacer(10, 3, clock.now)
	for range 3 {
		d, ok := p.reserve(time.Second)
		require.True(t, ok)
		require.Zero(t, d)
	}
	for i := 1; i <= 10; i++ {
		d, ok := p.reserve(time.Second)
		require.True(t, ok)
		require.InDelta(t, float64(i)*float64(100*time.Millisecond), float64(d), float64(time.Millisecond))
	}
	_, ok := p.reserve(time.Second)
	require.False(t, ok, "1.1 s away")
	clock.t = clock.t.Add(2 * time.Second) // the ten reserved are paid; the bucket holds 3 again... less the debt
	d, ok := p.reserve(time.Second)
	require.True(t, ok)
	require.Zero(t, d)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for p.tokens >= 1 {
		p.tokens--
	}
	require.False(t, p.wait(ctx, time.Second), "a cancelled scrape stops waiting")
}

// TestMetricsEndpointBounds: an oversized header is refused with 431, and
// past -metrics-max-conns the keep-alive connection idle longest makes
// room for a newcomer.
func TestMetricsEndpointBounds(t *testing.T) {
	s := startRun(t, "-user", "iggy:iggy", "-metrics", "127.0.0.1:0", "-metrics-max-conns", "2")
	m := regexp.MustCompile(`msg=metrics addr=(\S+) path=/metrics max_conns=2`).FindStringSubmatch(s.logs.String())
	require.NotNil(t, m, s.logs.String())
	get := func(c net.Conn, header string) (*http.Response, error) {
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte("GET /metrics HTTP/1.1\r\nHost: x\r\n" + header + "\r\n")); err != nil {
			return nil, err
		}
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body) // a refusal's body may end in a reset
		}
		return resp, err
	}
	big, err := net.Dial("tcp", m[1])
	require.NoError(t, err)
	resp, err := get(big, "X-Big: "+strings.Repeat("a", 64<<10)+"\r\n")
	require.NoError(t, err)
	require.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
	_ = big.Close()

	held := make([]net.Conn, 2)
	for i := range held {
		held[i], err = net.Dial("tcp", m[1])
		require.NoError(t, err)
		resp, err := get(held[i], "")
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	// A third connection finds both slots taken by idle keep-alive
	// connections: the one idle longest is closed to make room.
	third, err := net.Dial("tcp", m[1])
	require.NoError(t, err)
	defer third.Close()
	resp, err = get(third, "")
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	// One of the two idle connections was closed to make room, well before
	// the 10 s idle timeout would have closed it.
	closed := make(chan int, 2)
	for i, c := range held {
		go func() {
			_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
			if _, err := c.Read(make([]byte, 1)); errors.Is(err, io.EOF) {
				closed <- i
				return
			}
			closed <- -1
		}()
	}
	which := <-closed
	if which < 0 {
		which = <-closed
	}
	require.GreaterOrEqual(t, which, 0, "an idle connection was closed for the newcomer")
	_ = held[0].Close()
	_ = held[1].Close()
}
