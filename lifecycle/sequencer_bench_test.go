//go:build go1.24

// The benchmarks use testing.B.Loop, new in Go 1.24; the module's go
// directive is lower, so they build only with a Go that has it.

package lifecycle_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// BenchmarkSequencerStamp: a header stamped in front of a 1 MiB payload
// already in place (SendMessages) and its answer correlated: the payload is
// never copied.
func BenchmarkSequencerStamp(b *testing.B) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	frame := make([]byte, codec.HeaderSize+1<<20)
	ok := replyHeader(b, id(7), 1, codec.OperationSendMessages, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Stamp(frame, 101); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Receive(ok, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSequencerStampAlone: the stamp of a SendMessages header without
// its answer (Abandon opens the fence again), to set beside an SDK's own
// stamping, which keeps no fence and reads no answer.
func BenchmarkSequencerStampAlone(b *testing.B) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	frame := make([]byte, codec.HeaderSize+1024)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Stamp(frame, 101); err != nil {
			b.Fatal(err)
		}
		s.Abandon()
	}
}

// BenchmarkSequencerStampHeader: a header stamped into the transport's
// fixed array and its answer correlated.
func BenchmarkSequencerStampHeader(b *testing.B) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	var hdr codec.Header
	ok := replyHeader(b, id(7), 1, codec.OperationNonReplicated, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.StampHeader(&hdr, codec.CodePing, 0); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Receive(ok, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSequencerReplay: a transient answer, the replay, and the answer
// to the replay.
func BenchmarkSequencerReplay(b *testing.B) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	var hdr codec.Header
	transient := replyHeader(b, id(7), 1, codec.OperationSendMessages, codec.StatusTransientNotCommitted)
	ok := replyHeader(b, id(7), 1, codec.OperationSendMessages, 0)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.StampHeader(&hdr, 101, 64); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Receive(transient, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Replay(); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Receive(ok, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClientRequest: the Client on the sequencer, a ping built into a
// buffer with room and its reply read.
func BenchmarkClientRequest(b *testing.B) {
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
	if err != nil {
		b.Fatal(err)
	}
	out := make([]byte, 0, 512)
	reply := refReply(c.ID(), 1, byte(codec.OperationNonReplicated), 0)
	b.ReportAllocs()
	for b.Loop() {
		req, err := c.Ping(out[:0])
		if err != nil {
			b.Fatal(err)
		}
		sink = req
		if _, err := c.Receive(reply); err != nil {
			b.Fatal(err)
		}
	}
}
