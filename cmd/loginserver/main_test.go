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

	login(t, addr, func(c *lifecycle.Client) ([]byte, error) { return c.Login(nil, []byte("iggy"), []byte(password)) }, nil)
	login(t, addr, func(c *lifecycle.Client) ([]byte, error) { return c.LoginWithToken(nil, []byte(token)) }, nil)
	login(t, addr, func(c *lifecycle.Client) ([]byte, error) { return c.Login(nil, []byte("iggy"), []byte("nope")) },
		codec.StatusInvalidCredentials)

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
		answer, err := lifecycle.ReadFrame(nc, nil)
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
