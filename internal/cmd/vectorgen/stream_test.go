package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// A guard against a hang, not a measure of speed: every read the runner
// makes is answered, or ended, at once by a correct server.
const streamDeadline = 5 * time.Second

// TestStreamRunner plays every lifecycle case over TCP the way the README
// tells a runner to, against one lifecycle/tcp server per configuration
// that lives for the whole run (so its sessions and connection ids are not
// the vectors'), and that puts its own id on evictions 1 and 13. The
// runner knows nothing but the files: it writes each step, ends its side
// after a short one, reads nothing for a dropped one and the end of the
// stream for a closed one, writes in the sessions in_session names, and
// compares answers by the free fields' rules. Real sockets: ending one
// side of a connection needs the kernel's half-close.
func TestStreamRunner(t *testing.T) {
	f := loadFiles(t)[len(kindList)-1]
	require.Equal(t, KindLifecycle, f.Kind)
	addrs := map[string]string{}
	for name, cfg := range f.Servers {
		addrs[name] = serveVectors(t, cfg)
	}
	last := map[string]uint64{}
	answers := 0
	for i := range f.Cases {
		c := &f.Cases[i]
		r := &streamRunner{last: last[c.Server], deadline: streamDeadline}
		assert.NoError(t, r.play(addrs[c.Server], c), c.Name)
		last[c.Server] = r.last
		answers += r.answers
	}
	assert.Greater(t, answers, 80, "answers compared")
}

// TestStreamRunnerNeedsTheData: a runner that leaves out one piece of the
// steps' data fails the case that needs it.
func TestStreamRunnerNeedsTheData(t *testing.T) {
	f := loadFiles(t)[len(kindList)-1]
	addr := serveVectors(t, f.Servers["default"])
	byName := map[string]*Case{}
	for i := range f.Cases {
		byName[f.Cases[i].Name] = &f.Cases[i]
	}
	// Sessions first, so that the server's are past the vectors' own.
	warm := &streamRunner{deadline: streamDeadline}
	require.NoError(t, warm.play(addr, byName["lifecycle/1.sessions/three-logins"]))
	for name, tc := range map[string]struct {
		cas string
		r   streamRunner
	}{
		"no end after a short step": {"lifecycle/8/short-frame", streamRunner{noEnd: true}},
		"no in_session":             {"lifecycle/7/ahead", streamRunner{noSession: true}},
		"no free fields":            {"lifecycle/1c/password", streamRunner{noFree: true}},
	} {
		r := tc.r
		r.last, r.deadline = warm.last, 200*time.Millisecond // the server is expected to wait: how long does not matter
		assert.Error(t, r.play(addr, byName[tc.cas]), name)
		ok := streamRunner{last: warm.last, deadline: streamDeadline}
		assert.NoError(t, ok.play(addr, byName[tc.cas]), "%s, with the data", name)
		warm.last = max(warm.last, r.last, ok.last)
	}
}

// serveVectors serves a case configuration on a loopback port: no failed
// login throttle and no accept-rate limit (the cases fail logins and break
// the protocol on purpose, from one address, which costs an address its
// accept budget on a default server) and frames up to the wire's 64 MiB.
func serveVectors(t *testing.T, cfg ServerConfig) string {
	t.Helper()
	srv, err := newServer(cfg, true)
	require.NoError(t, err)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := tcp.NewListener(ln, srv, tcp.ServeOptions{LoginBurst: -1, AcceptBurst: -1, MaxFrame: codec.MaxFrameSize})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		sctx, stop := context.WithTimeout(context.Background(), streamDeadline)
		defer stop()
		_ = l.Shutdown(sctx)
		<-done
	})
	return ln.Addr().String()
}

// streamRunner plays cases over TCP. last is the highest session the
// server has handed out so far, answers the answers it compared; the no*
// switches leave out one piece of the steps' data, to show it is needed.
type streamRunner struct {
	last                     uint64
	answers                  int
	deadline                 time.Duration
	noEnd, noSession, noFree bool
}

// play plays one case on new connections, one for each conn its steps
// name, dialled when first used.
func (r *streamRunner) play(addr string, c *Case) error {
	conns := map[int]*net.TCPConn{}
	defer func() {
		for _, conn := range conns {
			conn.Close()
		}
	}()
	handed := map[int]uint64{}
	closedConns := map[int]bool{}
	for j, st := range c.Steps {
		conn := conns[st.Conn]
		if conn == nil {
			nc, err := net.Dial("tcp", addr)
			if err != nil {
				return err
			}
			conn = nc.(*net.TCPConn)
			conns[st.Conn] = conn
		}
		if err := conn.SetDeadline(time.Now().Add(r.deadline)); err != nil {
			return err
		}
		closed := closedConns[st.Conn]
		if closed {
			if err := readEnd(conn); err != nil {
				return fmt.Errorf("step %d: %w", j, err)
			}
			continue
		}
		in := st.inBytes()
		if ref := st.InSession; ref != nil && !r.noSession {
			le.PutUint64(in[ref.Offset:], handed[ref.Step]+uint64(ref.Plus))
		}
		if _, err := conn.Write(in); err != nil {
			return fmt.Errorf("step %d: write: %w", j, err)
		}
		if st.End && !r.noEnd {
			if err := conn.CloseWrite(); err != nil {
				return err
			}
		}
		closed = st.Then == OutClosed
		closedConns[st.Conn] = closed
		switch st.Out {
		case OutDropped:
			continue // seen when the next step's answer comes first
		case OutClosed:
			if err := readEnd(conn); err != nil {
				return fmt.Errorf("step %d (%s): %w", j, st.Note, err)
			}
			continue
		}
		got, err := codec.ReadFrame(conn, nil, codec.MaxFrameSize)
		if err != nil {
			return fmt.Errorf("step %d (%s): reading the answer: %w", j, st.Note, err)
		}
		free := st.Free
		if r.noFree {
			free = nil
		}
		s, err := matchAnswer(got, st.outBytes(), free, r.last, handed)
		if err != nil {
			return fmt.Errorf("step %d (%s): %w", j, st.Note, err)
		}
		r.answers++
		if s != 0 {
			handed[j], r.last = s, s
		}
		if closed {
			if err := readEnd(conn); err != nil {
				return fmt.Errorf("step %d: after the answer: %w", j, err)
			}
		}
	}
	return nil
}

// readEnd requires the server to have closed: the stream ends (or is
// reset) before any byte.
func readEnd(conn net.Conn) error {
	n, err := conn.Read(make([]byte, 1))
	switch {
	case n > 0:
		return errors.New("a byte where the stream should end")
	case errors.Is(err, os.ErrDeadlineExceeded):
		return errors.New("the server left the connection open")
	case err == nil:
		return errors.New("a read of nothing")
	case errors.Is(err, io.EOF):
		return nil
	}
	return nil // reset: closed too
}
