package tcp

import (
	"encoding/binary"
	"io"
	"net"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// A connection refused at MaxConns or MaxConnsPerAddr is told why when it
// can be: the wire has no frame a server may send before a request (an
// eviction carries the client id of the request it answers), so the
// refused connection is given refuseTimeout to send its first header,
// which is answered if it is a valid request: a login with the transient
// result 58, anything else with Eviction 12 (SessionError). At most maxRefusing are answered at once, each on a goroutine
// holding a 256-byte header and a small drain buffer; past that, or when
// no valid header comes in time, the connection is closed unanswered.
const (
	refuseTimeout = time.Second
	maxRefusing   = 64
	refuseDrain   = 512      // the drain buffer of a refused frame's body
	refuseBody    = 64 << 10 // the most of a refused frame's body read
)

// refuse answers or closes nc, refused at a cap; it runs on the accept
// loop, so it only starts the answer's goroutine.
func (l *Listener) refuse(nc net.Conn) {
	l.mu.Lock()
	if l.closing || len(l.refusing) >= maxRefusing {
		l.mu.Unlock()
		_ = nc.Close()
		return
	}
	l.refusing[nc] = struct{}{}
	l.wg.Add(1)
	l.mu.Unlock()
	go l.answerRefused(nc)
}

// answerRefused reads nc's first header within refuseTimeout and, if it
// is a valid request, the rest of its frame (up to refuseBody bytes), then
// answers it (refusal) and closes nc. The body is read before the
// answer so that closing leaves no unread bytes, which would reset the
// connection before the peer has read the eviction.
func (l *Listener) answerRefused(nc net.Conn) {
	defer l.wg.Done()
	defer func() {
		l.mu.Lock()
		delete(l.refusing, nc)
		l.mu.Unlock()
		_ = nc.Close()
	}()
	var header [codec.HeaderSize]byte
	var drain [refuseDrain]byte
	answerRefusal(nc, &header, &drain)
}

// answerRefusal is answerRefused's exchange, through buffers the caller
// gives (so that a test can look at them after). What arrived may be a
// pre-VSR login, password included, a login's body, or a frame cut short:
// both buffers are cleared before it returns, as a served connection's
// buffer is.
func answerRefusal(nc net.Conn, header *[codec.HeaderSize]byte, drain *[refuseDrain]byte) {
	defer clear(header[:])
	defer clear(drain[:])
	_ = nc.SetDeadline(time.Now().Add(refuseTimeout))
	if _, err := io.ReadFull(nc, header[:]); err != nil {
		return
	}
	h, err := codec.DecodeRequestHeader(header[:])
	if err != nil {
		return
	}
	size, _ := codec.FrameSize(header[:])
	if !drainBody(nc, min(size-codec.HeaderSize, refuseBody), drain) {
		return
	}
	if answer, err := refusal(header[:0], &h); err == nil {
		_, _ = nc.Write(answer)
	}
}

// refusal appends the answer of a first request refused at a connection
// cap. A login is answered with the transient result 58
// (TransientNotAccepted, WIRE.md section 8): nothing was decided, the
// client may log in again, here later or elsewhere. An eviction would
// read as a failed login (12 is Unauthenticated to SDKs), sending its user
// to check credentials that may be right. Any other request is answered
// with Eviction 12.
func refusal(dst []byte, h *codec.RequestHeader) ([]byte, error) {
	if h.Operation != codec.OperationRegister {
		e := codec.NewEviction(h.Client, quotaReason)
		return e.AppendBinary(dst)
	}
	var section [12]byte // one result: index 0, code 58
	binary.LittleEndian.PutUint32(section[0:], 1)
	binary.LittleEndian.PutUint32(section[8:], uint32(codec.StatusTransientNotAccepted))
	return codec.AppendReplyFrame(dst, codec.ReplyHeader{
		RequestChecksum: h.RequestChecksum,
		Client:          h.Client,
		Request:         h.Request,
		Operation:       codec.OperationRegister,
	}, section[:])
}

// drainBody reads and discards n bytes of nc through buf, reporting
// whether they all came. They may be a login's credentials: they go
// through the caller's buffer, which it clears, never io.Discard's shared
// ones.
func drainBody(nc net.Conn, n int, buf *[refuseDrain]byte) bool {
	for n > 0 {
		k, err := nc.Read(buf[:min(n, len(buf))])
		n -= k
		if err != nil {
			return n <= 0
		}
	}
	return true
}
