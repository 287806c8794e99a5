package tcp_test

import (
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// TestOversizeEvictionEndsLogicalSession: the Eviction 6 the transport
// sends itself for a frame above MaxFrame ends the connection's logical
// session as any eviction does (WIRE.md section 10.4, case f): a
// BIND_SESSION with the right secret on a new connection is refused.
func TestOversizeEvictionEndsLogicalSession(t *testing.T) {
	l := startListener(t, tcp.ServeOptions{MaxFrame: 4096})
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: codec.Protocol0111})
	if err != nil {
		t.Fatal(err)
	}
	w := dial(t, l.Addr(), c)
	if _, err := w.login(); err != nil {
		t.Fatalf("login: %v", err)
	}
	// A frame above MaxFrame under the client's session, written by hand
	// so that the Client itself knows nothing of it and stays resumable.
	h := codec.RequestHeader{Size: 8192, Client: c.ID(), Session: c.Session(), Request: 1,
		Operation: codec.OperationNonReplicated, Code: codec.CodePing}
	header, err := h.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.nc.Write(header); err != nil {
		t.Fatal(err)
	}
	answer, err := codec.ReadFrame(w.nc, nil, codec.MaxFrameSize)
	if err != nil {
		t.Fatalf("reading the eviction: %v", err)
	}
	ev, err := codec.DecodeEviction(answer)
	if err != nil || ev.Reason != codec.ReasonInvalidRequestBodySize {
		t.Fatalf("answer to an oversize frame: %+v, %v; want Eviction 6", ev, err)
	}
	if !c.State().Resumable {
		t.Fatal("the Client saw nothing and should still think its session resumable")
	}
	w2 := dial(t, l.Addr(), c)
	_, err = w2.do(c.BindSession(nil))
	if !errors.Is(err, lifecycle.ErrLoginAgain) {
		t.Fatalf("bind after the transport's eviction: %v, want ErrLoginAgain (40)", err)
	}
}
