package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// syncBuffer is the log sink; the server writes from its goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestRun starts the command in-process on a loopback port with -trace,
// logs in over TCP with a password and with a token, and stops it by
// cancelling.
func TestRun(t *testing.T) {
	const password, token = "s3cret-pw", "s3cret-token"
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-trace", "-user", "iggy:" + password, "-token", token + "=iggy"},
			&logs, func(a net.Addr) { addrs <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrs:
	case err := <-done:
		t.Fatal(err)
	case <-time.After(10 * time.Second):
		t.Fatal("not listening")
	}

	login(t, addr, func(c *lifecycle.Client) ([]byte, error) {
		return c.Login(nil, []byte("iggy"), codec.NewSecret([]byte(password)))
	}, nil)
	login(t, addr, func(c *lifecycle.Client) ([]byte, error) {
		return c.LoginPAT(nil, codec.NewSecret([]byte(token)))
	}, nil)
	login(t, addr, func(c *lifecycle.Client) ([]byte, error) {
		return c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("nope")))
	},
		codec.StatusInvalidCredentials.Err())

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return")
	}
	out := logs.String()
	for _, want := range []string{"dir=in", "operation=Register", "dir=out", "result=\"status OK\"",
		"result=\"evicted: InvalidCredentials\"", "code=PING", "client=0x", "shutting down"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, password) || strings.Contains(out, token) || strings.Contains(out, "nope") {
		t.Errorf("log shows a secret:\n%s", out)
	}
}

// login connects, logs in, pings, and expects the login to end in want.
func login(t *testing.T, addr net.Addr, build func(*lifecycle.Client) ([]byte, error), want error) {
	t.Helper()
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := net.DialTimeout("tcp", addr.String(), 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	exchange := func(frame []byte, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nc.Write(frame); err != nil {
			t.Fatal(err)
		}
		answer, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Receive(answer)
		return err
	}
	if err := exchange(build(c)); !errors.Is(err, want) {
		t.Fatalf("login: want %v, got %v", want, err)
	}
	if want == nil {
		if err := exchange(c.Ping(nil)); err != nil {
			t.Fatalf("ping: %v", err)
		}
	}
}

// TestRunTransientAndOwnID: with -transient 57:1 the first login is
// answered transiently and its replay logs in; with -evict-own-id an
// eviction 1 carries the server's id for the connection, which the Client
// still reads as Unauthenticated.
func TestRunTransientAndOwnID(t *testing.T) {
	s := startRun(t, "-user", "iggy:pw", "-transient", "57:1", "-evict-own-id")
	addr := s.addr
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	require.NoError(t, err)
	nc, err := net.DialTimeout("tcp", addr.String(), 10*time.Second)
	require.NoError(t, err)
	defer nc.Close()
	require.NoError(t, nc.SetDeadline(time.Now().Add(10*time.Second)))
	exchange := func(frame []byte, err error) ([]byte, error) {
		require.NoError(t, err)
		_, err = nc.Write(frame)
		require.NoError(t, err)
		answer, err := codec.ReadFrame(nc, nil, codec.MaxFrameSize)
		require.NoError(t, err)
		_, err = c.Receive(answer)
		return answer, err
	}
	first, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("pw")))
	require.NoError(t, err)
	_, err = exchange(first, nil)
	require.ErrorIs(t, err, lifecycle.ErrTransient)
	replay, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("pw")))
	require.NoError(t, err)
	require.Equal(t, first, replay, "after a 57 the login is replayed byte for byte")
	_, err = exchange(replay, nil)
	require.NoError(t, err)

	// A second client on a new connection sends a replicated request
	// before logging in: eviction 1, under the connection's id.
	nc2, err := net.DialTimeout("tcp", addr.String(), 10*time.Second)
	require.NoError(t, err)
	defer nc2.Close()
	require.NoError(t, nc2.SetDeadline(time.Now().Add(10*time.Second)))
	h := codec.RequestHeader{Client: codec.Uint128From(0xabc), Operation: codec.OperationCreateStream, Session: 1, Request: 1}
	frame, err := codec.AppendRequestFrame(nil, h, nil)
	require.NoError(t, err)
	_, err = nc2.Write(frame)
	require.NoError(t, err)
	answer, err := codec.ReadFrame(nc2, nil, codec.MaxFrameSize)
	require.NoError(t, err)
	ev, err := codec.DecodeEviction(answer)
	require.NoError(t, err)
	require.Equal(t, codec.ReasonNoSession, ev.Reason)
	require.NotEqual(t, h.Client, ev.Client, "the server's own id, not the request's")
	s.stop(t)
	require.Contains(t, s.logs.String(), "outcome=TransientNotCommitted\n", "a 57 is logged as that code, not status-0")
}
