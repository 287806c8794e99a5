package tcp_test

import (
	"encoding/binary"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// The per-connection service where it needs the kernel: socket buffers,
// pipelines over TCP, and what a ping costs.

// pingBatch is n pings of c, each stamped with its index in the request
// checksum (bytes 144..160), which the reply echoes, so that the order of
// the answers can be checked.
func pingBatch(t testing.TB, w *wire, n int) []byte {
	t.Helper()
	one, err := w.c.Ping(nil)
	if err != nil {
		t.Fatalf("Ping: %v", err)
	}
	batch := make([]byte, 0, n*len(one))
	for i := range n {
		at := len(batch)
		batch = append(batch, one...)
		binary.LittleEndian.PutUint64(batch[at+144:], uint64(i+1))
	}
	return batch
}

// TestHostileNotReadingSockets: logged-in peers that pipeline pings over
// TCP and never read are stopped being read once their small socket
// buffers fill, and closed as CauseNotReading at WriteStall. With the
// kernel's own sizing the send buffer grows to megabytes first; with
// PipelineMemory, only as many of them borrow a larger one as it holds.
func TestHostileNotReadingSockets(t *testing.T) {
	const peers = 4
	read := func(opts tcp.ServeOptions) (frames []int) {
		t.Helper()
		var mu sync.Mutex
		done := make(chan struct{}, peers)
		opts.WriteStall = 300 * time.Millisecond
		opts.Observer = tcp.Observer{Closed: func(_ tcp.ConnInfo, how tcp.Closing) {
			if how.Cause != tcp.CauseNotReading {
				t.Errorf("closed by %v, want %v", how.Cause, tcp.CauseNotReading)
			}
			mu.Lock()
			frames = append(frames, how.Frames)
			mu.Unlock()
			done <- struct{}{}
		}}
		l := startListener(t, opts)
		for range peers {
			w := dial(t, l.Addr(), lifecycletest.NewClient(t))
			if _, err := w.login(); err != nil {
				t.Fatalf("login: %v", err)
			}
			batch := pingBatch(t, w, 256)
			go func() {
				for {
					if _, err := w.nc.Write(batch); err != nil {
						return
					}
				}
			}()
		}
		for range peers {
			select {
			case <-done:
			case <-time.After(testTimeout):
				t.Fatalf("peers that do not read were not closed")
			}
		}
		mu.Lock()
		defer mu.Unlock()
		return frames
	}
	most := func(frames []int) (n int) {
		for _, f := range frames {
			n = max(n, f)
		}
		return n
	}
	small := most(read(tcp.ServeOptions{PipelineMemory: -1}))
	kernel := most(read(tcp.ServeOptions{SocketReadBuffer: -1, SocketWriteBuffer: -1}))
	t.Logf("most frames read from a peer that does not read: %d with the default buffers, %d with the kernel's sizing", small, kernel)
	// 32 KiB buffers hold a few hundred answers each way, the reader's
	// receive buffer some more; the kernel's sizing, thousands.
	if small > 4096 {
		t.Errorf("with the default socket buffers a peer that does not read had %d frames read, want at most 4096 (1 MiB of answers)", small)
	}
	if small*2 > kernel {
		t.Errorf("frames read from a peer that does not read: %d with the default buffers, %d with the kernel's sizing; want half or less", small, kernel)
	}
	// A budget of two grown buffers: two peers borrow (the kernel may cap
	// the buffer below 1 MiB, at net.core.wmem_max, but not below twice
	// the default), the others stay small.
	borrowed := 0
	for _, f := range read(tcp.ServeOptions{PipelineMemory: 2 << 20}) {
		if f > 2*small {
			borrowed++
		}
	}
	if borrowed != 2 {
		t.Errorf("with PipelineMemory for two grown buffers, %d of %d peers that do not read had more than %d frames read, want 2", borrowed, peers, 2*small)
	}
}

// TestPipelinedPings: 1,000 and 20,000 pings in one write are all
// answered, in order, to a lone client reading as they come, and to one
// that reads only once its write is done: 1,000 (256 KB of answers) fit
// the socket buffers, 20,000 (5 MB) the send buffer borrowed from
// PipelineMemory, where the kernel lets a socket have 1 MiB
// (net.core.wmem_max).
func TestPipelinedPings(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{})
	for _, c := range []struct {
		n         int
		readAfter bool
	}{{1000, true}, {1000, false}, {20000, false}, {20000, true}} {
		n := c.n
		if c.readAfter && n > 1000 && !socketBuffersReach(1<<20) {
			t.Logf("%d pings read after the write: not run, net.core.wmem_max caps a send buffer below 1 MiB", n)
			continue
		}
		w := dial(t, l.Addr(), lifecycletest.NewClient(t))
		if _, err := w.login(); err != nil {
			t.Fatalf("login: %v", err)
		}
		batch := pingBatch(t, w, n)
		wrote := make(chan error, 1)
		if c.readAfter {
			_, err := w.nc.Write(batch)
			wrote <- err
		} else {
			go func() { _, err := w.nc.Write(batch); wrote <- err }()
		}
		buf := make([]byte, 0, codec.HeaderSize)
		for i := range n {
			answer, err := codec.ReadFrame(w.nc, buf[:0], codec.HeaderSize)
			if err != nil {
				t.Fatalf("%d pings: answer %d: %v", n, i, err)
			}
			h, err := codec.DecodeReplyHeader(answer)
			if err != nil || h.Status != 0 {
				t.Fatalf("%d pings: answer %d: status %v, error %v", n, i, h.Status, err)
			}
			if got := h.RequestChecksum.Lo; got != uint64(i+1) {
				t.Fatalf("%d pings: answer %d is to ping %d, want them in order", n, i, got)
			}
		}
		if err := <-wrote; err != nil {
			t.Fatalf("%d pings: Write: %v", n, err)
		}
	}
}

// TestPingPathAllocs: serving a ping on a logged-in connection allocates
// nothing, the turn, socket sizing and the stall-aware write included.
func TestPingPathAllocs(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{})
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	if _, err := w.login(); err != nil {
		t.Fatalf("login: %v", err)
	}
	ping := pingBatch(t, w, 1)
	answer := make([]byte, codec.HeaderSize)
	var failed error
	allocs := testing.AllocsPerRun(2000, func() {
		if _, err := w.nc.Write(ping); err != nil {
			failed = err
			return
		}
		if _, err := readFull(w.nc, answer); err != nil {
			failed = err
		}
	})
	if failed != nil {
		t.Fatalf("ping: %v", failed)
	}
	// The client's side of the exchange allocates nothing either, so every
	// allocation counted is the server's.
	if allocs > 0.01 {
		t.Fatalf("a ping allocates %.3f times, want 0", allocs)
	}
}

// readFull reads len(b) bytes from nc.
func readFull(nc net.Conn, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := nc.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// TestPipelineBeyondBuffers: without PipelineMemory, a client that
// writes 20,000 pings (5 MB) in one write and reads only after is, while
// it writes, a peer that does not read: the buffers on both sides fill,
// and it is closed at WriteStall as CauseNotReading.
func TestPipelineBeyondBuffers(t *testing.T) {
	closed := make(chan tcp.Closing, 1)
	l := startListener(t, tcp.ServeOptions{WriteStall: 200 * time.Millisecond, PipelineMemory: -1,
		Observer: tcp.Observer{Closed: func(_ tcp.ConnInfo, how tcp.Closing) { closed <- how }}})
	w := dial(t, l.Addr(), lifecycletest.NewClient(t))
	if _, err := w.login(); err != nil {
		t.Fatalf("login: %v", err)
	}
	// The client's own send buffer, pinned so that no kernel's sizing
	// holds the 5 MB by itself.
	if err := w.nc.(*net.TCPConn).SetWriteBuffer(1 << 20); err != nil {
		t.Fatalf("SetWriteBuffer: %v", err)
	}
	if _, err := w.nc.Write(pingBatch(t, w, 20000)); err == nil {
		t.Fatalf("the write of 5 MB never read from went through")
	}
	select {
	case how := <-closed:
		if how.Cause != tcp.CauseNotReading {
			t.Fatalf("closed by %v, want %v", how.Cause, tcp.CauseNotReading)
		}
	case <-time.After(testTimeout):
		t.Fatalf("not closed")
	}
}

// socketBuffersReach reports whether the kernel lets a socket's send
// buffer be set to n bytes (Linux caps it at net.core.wmem_max).
func socketBuffersReach(n int) bool {
	b, err := os.ReadFile("/proc/sys/net/core/wmem_max")
	if err != nil {
		return false
	}
	limit, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return err == nil && limit >= n
}
