package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// ErrFrameTooLarge is what a Listener reports (through Trace) for a frame
// whose size is valid on the wire but above its MaxFrame: the body is read
// and discarded, and nothing is answered.
var ErrFrameTooLarge = errors.New("lifecycle: frame above the listener's MaxFrame, discarded")

// ServeOptions bound what a Listener spends on its connections. Zero fields
// take the defaults named below.
type ServeOptions struct {
	// ReadTimeout bounds the read of each frame's header, then of its
	// body; a connection idle for longer is closed. Default 30s.
	ReadTimeout time.Duration
	// WriteTimeout bounds the write of each answer. Default 10s.
	WriteTimeout time.Duration
	// MaxConns caps the connections served at once; further clients wait
	// in the listen backlog. Default 256.
	MaxConns int
	// MaxFrame is the largest frame read into memory; larger ones (up to
	// the wire's 64 MiB) are discarded unanswered. Default 1 MiB.
	MaxFrame int
	// LoginTimeout bounds how long a connection may stay without a login,
	// from its accept or its last logout, so that clients that only ping
	// cannot hold every MaxConns slot. Default 60s.
	LoginTimeout time.Duration
	// Trace, if set, is called after every frame from the connection's
	// goroutine, so it must be safe for concurrent use.
	Trace func(Exchange)
}

// Exchange is one frame a Listener read and what it answered, for Trace.
// In and Out are valid only during the call. In is a raw frame and may hold
// a password or a token, so an Exchange prints (under every fmt verb) only
// sizes and the error, never its bytes.
type Exchange struct {
	Remote net.Addr
	In     []byte // the frame read; for a discarded oversized frame, its header
	Out    []byte // the answer written, nil if none
	Err    error  // what Conn.Handle returned, or ErrFrameTooLarge
	Closed bool   // the connection is closed after this frame
}

// Format implements fmt.Formatter: every verb prints a summary without the
// frame bytes.
func (e Exchange) Format(f fmt.State, _ rune) {
	fmt.Fprintf(f, "Exchange{remote %s, in %d bytes, out %d bytes, err %v, closed %t}",
		e.remote(), len(e.In), len(e.Out), e.Err, e.Closed)
}

// MarshalJSON writes the same summary as Format, as an object of sizes:
// the frame bytes never reach an encoder.
func (e Exchange) MarshalJSON() ([]byte, error) {
	errText := ""
	if e.Err != nil {
		errText = e.Err.Error()
	}
	return json.Marshal(struct {
		Remote   string `json:"remote"`
		InBytes  int    `json:"in_bytes"`
		OutBytes int    `json:"out_bytes"`
		Err      string `json:"err,omitempty"`
		Closed   bool   `json:"closed"`
	}{e.remote(), len(e.In), len(e.Out), errText, e.Closed})
}

// LogValue implements slog.LogValuer with the same summary, so a structured
// logger never walks the frame bytes either.
func (e Exchange) LogValue() slog.Value {
	attrs := []slog.Attr{
		slog.String("remote", e.remote()),
		slog.Int("in_bytes", len(e.In)),
		slog.Int("out_bytes", len(e.Out)),
		slog.Bool("closed", e.Closed),
	}
	if e.Err != nil {
		attrs = append(attrs, slog.String("err", e.Err.Error()))
	}
	return slog.GroupValue(attrs...)
}

func (e Exchange) remote() string {
	if e.Remote == nil {
		return "<nil>"
	}
	return e.Remote.String()
}

// Listener puts a Server's Conns on the connections of a net.Listener: for
// each connection it reads a 256-byte header, the body its size announces,
// hands the frame to Conn.Handle and writes the answer, and closes the
// connection after an eviction or an unusable frame size.
type Listener struct {
	ln   net.Listener
	srv  *Server
	opts ServeOptions
	sem  chan struct{} // one token per connection being served

	mu      sync.Mutex
	closing bool
	conns   map[net.Conn]struct{}
	wg      sync.WaitGroup // one per connection goroutine
	done    chan struct{}  // closed by stop
}

// Defaults of ServeOptions.
const (
	defaultReadTimeout  = 30 * time.Second
	defaultWriteTimeout = 10 * time.Second
	defaultMaxConns     = 256
	defaultMaxFrame     = 1 << 20
	defaultLoginTimeout = 60 * time.Second
)

// NewListener returns a Listener serving srv on ln. It takes ownership of
// ln: Shutdown closes it.
func NewListener(ln net.Listener, srv *Server, opts ServeOptions) *Listener {
	if opts.ReadTimeout <= 0 {
		opts.ReadTimeout = defaultReadTimeout
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = defaultWriteTimeout
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = defaultMaxConns
	}
	if opts.MaxFrame < codec.HeaderSize {
		opts.MaxFrame = defaultMaxFrame
	}
	if opts.LoginTimeout <= 0 {
		opts.LoginTimeout = defaultLoginTimeout
	}
	return &Listener{ln: ln, srv: srv, opts: opts, sem: make(chan struct{}, opts.MaxConns),
		conns: make(map[net.Conn]struct{}), done: make(chan struct{})}
}

// Serve is NewListener(ln, srv, ServeOptions{}).Serve with a background
// context: it serves until Accept fails for good, which closing ln causes,
// and then returns that error (net.ErrClosed after a Close), like
// http.Serve. Use a Listener for Shutdown and options.
func Serve(ln net.Listener, srv *Server) error {
	return NewListener(ln, srv, ServeOptions{}).Serve(context.Background())
}

// Addr returns the address listened on.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Serve accepts connections until ctx is done or Shutdown is called, then
// waits for every connection goroutine to end. It returns nil after such a
// shutdown, or the error that made Accept fail for good.
func (l *Listener) Serve(ctx context.Context) error {
	go func() {
		select {
		case <-ctx.Done():
			l.stop()
		case <-l.done:
		}
	}()
	defer l.wg.Wait()
	var backoff time.Duration
	for {
		select {
		case l.sem <- struct{}{}:
		case <-l.done:
			return nil
		}
		nc, err := l.ln.Accept()
		if err != nil {
			<-l.sem
			if l.isClosing() {
				return nil
			}
			if !retryable(err) {
				l.stop()
				return err
			}
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			l.sleep(backoff)
			continue
		}
		backoff = 0
		if !l.track(nc) {
			_ = nc.Close()
			<-l.sem
			return nil
		}
		go l.serveConn(nc)
	}
}

// retryable reports whether an Accept error is passing: a timeout, or the
// process or system running out of descriptors, buffers or memory, or a
// connection aborted before it was accepted. Serve backs off and tries
// again instead of ending the server for them, as net/http does.
func retryable(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	for _, errno := range [...]syscall.Errno{syscall.EMFILE, syscall.ENFILE, syscall.ENOBUFS, syscall.ENOMEM, syscall.ECONNABORTED} {
		if errors.Is(err, errno) {
			return true
		}
	}
	return false
}

// Shutdown stops accepting, closes every connection (an answer being
// written may be cut) and waits until their goroutines end or ctx is done.
func (l *Listener) Shutdown(ctx context.Context) error {
	l.stop()
	waited := make(chan struct{})
	go func() {
		l.wg.Wait()
		close(waited)
	}()
	select {
	case <-waited:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stop closes the listener and every connection, once.
func (l *Listener) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return
	}
	l.closing = true
	close(l.done)
	_ = l.ln.Close()
	for nc := range l.conns {
		_ = nc.Close()
	}
}

func (l *Listener) isClosing() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closing
}

func (l *Listener) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-l.done:
	}
}

// track registers nc, unless the listener is stopping. The WaitGroup is
// added to under the same lock that stop takes, so no Add can follow the
// final Wait.
func (l *Listener) track(nc net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return false
	}
	l.conns[nc] = struct{}{}
	l.wg.Add(1)
	return true
}

func (l *Listener) untrack(nc net.Conn) {
	l.mu.Lock()
	delete(l.conns, nc)
	l.mu.Unlock()
	_ = nc.Close()
	<-l.sem
	l.wg.Done()
}

// serveConn is the frame loop of one connection.
func (l *Listener) serveConn(nc net.Conn) {
	defer l.untrack(nc)
	conn := l.srv.NewConn()
	buf := make([]byte, codec.HeaderSize, 1024)
	out := make([]byte, 0, 1024)
	loginBy := time.Now().Add(l.opts.LoginTimeout)
	for {
		wasIn := conn.State().LoggedIn
		deadline := time.Now().Add(l.opts.ReadTimeout)
		if !wasIn && loginBy.Before(deadline) {
			deadline = loginBy
		}
		frame, err := l.readFrame(nc, buf, deadline)
		if err != nil {
			if errors.Is(err, ErrFrameTooLarge) {
				l.trace(Exchange{Remote: nc.RemoteAddr(), In: frame, Err: err})
				continue
			}
			return
		}
		buf = frame[:cap(frame)]
		out, err = conn.Handle(frame, out[:0])
		l.trace(Exchange{Remote: nc.RemoteAddr(), In: frame, Out: out, Err: err, Closed: conn.Closed()})
		if len(out) > 0 {
			_ = nc.SetWriteDeadline(time.Now().Add(l.opts.WriteTimeout))
			if _, err := nc.Write(out); err != nil {
				return
			}
		}
		if conn.Closed() {
			return
		}
		if wasIn && !conn.State().LoggedIn {
			// A logout: the next login is due LoginTimeout from now.
			loginBy = time.Now().Add(l.opts.LoginTimeout)
		}
	}
}

// readFrame reads one frame into buf (grown as needed), the header by
// deadline and the body within ReadTimeout after it. A header whose size
// is unusable is returned as it is, for Handle to refuse; a frame above
// MaxFrame is discarded and reported as ErrFrameTooLarge with its header.
func (l *Listener) readFrame(nc net.Conn, buf []byte, deadline time.Time) ([]byte, error) {
	_ = nc.SetReadDeadline(deadline)
	header := buf[:codec.HeaderSize]
	if _, err := io.ReadFull(nc, header); err != nil {
		return nil, err
	}
	size, err := codec.FrameSize(header)
	if err != nil || size == codec.HeaderSize {
		return header, nil
	}
	_ = nc.SetReadDeadline(time.Now().Add(l.opts.ReadTimeout))
	if size > l.opts.MaxFrame {
		if _, err := io.CopyN(io.Discard, nc, int64(size-codec.HeaderSize)); err != nil {
			return nil, err
		}
		return header, ErrFrameTooLarge
	}
	return appendFull(nc, header, size-codec.HeaderSize)
}

func (l *Listener) trace(e Exchange) {
	if l.opts.Trace != nil {
		l.opts.Trace(e)
	}
}
