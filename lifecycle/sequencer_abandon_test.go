package lifecycle_test

import (
	"math"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// TestSequencerAbandonConsumes: an abandoned request's number stays used.
// A metadata request consumed it when stamped; a NonReplicated or
// partition request, which only carries the watermark, consumes it when
// abandoned, so the next request carries the number after it.
func TestSequencerAbandonConsumes(t *testing.T) {
	for _, tc := range []struct {
		name string
		code codec.Code
	}{
		{"NonReplicated", codec.CodePing},
		{"partition", codec.CodeSendMessages},
		{"metadata", codec.CodeCreateStream},
		{"DeleteSegments", codec.CodeDeleteSegments},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := lifecycle.NewSequencer(id(7), 2, 5)
			require.NoError(t, err)
			frame := make([]byte, codec.HeaderSize)
			req, err := s.Stamp(frame, tc.code)
			require.NoError(t, err)
			assert.Equal(t, uint64(5), req)
			_, err = s.Stamp(frame, codec.CodePing)
			require.ErrorIs(t, err, lifecycle.ErrPending)

			got, ok := s.Abandon()
			assert.True(t, ok)
			assert.Equal(t, uint64(5), got)
			st := s.State()
			assert.Equal(t, lifecycle.SequencerState{Client: id(7), Session: 2, Next: 6}, st, "nothing pending, 5 used")

			next, err := s.Stamp(frame, codec.CodePing)
			require.NoError(t, err, "the fence is open again")
			assert.Equal(t, uint64(6), next)
		})
	}
}

// TestSequencerAbandonLateAnswer: a late answer to an abandoned request
// correlates with nothing, whether another request is in flight or none:
// ErrMismatch, and the Sequencer is closed (the transport drops the
// connection, WIRE.md section 7, point 9). Without the consumption, the
// late answer to an abandoned read would pass for the next read's.
func TestSequencerAbandonLateAnswer(t *testing.T) {
	frame := make([]byte, codec.HeaderSize)
	late := replyHeader(t, id(7), 5, codec.OperationNonReplicated, 0)

	s, _ := lifecycle.NewSequencer(id(7), 2, 5)
	_, err := s.Stamp(frame, codec.CodePing)
	require.NoError(t, err)
	s.Abandon()
	_, err = s.Stamp(frame, 12) // the next read carries 6, not 5
	require.NoError(t, err)
	require.ErrorIs(t, s.Check(late), lifecycle.ErrMismatch)
	_, err = s.Receive(late, nil)
	require.ErrorIs(t, err, lifecycle.ErrMismatch)
	assert.True(t, s.State().Closed)

	s, _ = lifecycle.NewSequencer(id(7), 2, 5)
	_, err = s.Stamp(frame, codec.CodePing)
	require.NoError(t, err)
	s.Abandon()
	_, err = s.Receive(late, nil) // nothing in flight
	require.ErrorIs(t, err, lifecycle.ErrMismatch)
	assert.True(t, s.State().Closed)
}

// TestSequencerAbandonStates: Abandon with nothing in flight, on a closed
// Sequencer, after a transient answer, for a login, and at the last
// request number.
func TestSequencerAbandonStates(t *testing.T) {
	frame := make([]byte, codec.HeaderSize)
	s := newSeq(t)
	got, ok := s.Abandon()
	assert.False(t, ok, "nothing in flight")
	assert.Equal(t, uint64(0), got)

	// a login in flight: request 0; nothing to consume; the session stays unbound
	_, err := s.Stamp(frame, codec.CodeLoginRegister)
	require.NoError(t, err)
	got, ok = s.Abandon()
	assert.True(t, ok)
	assert.Equal(t, uint64(0), got)
	assert.Equal(t, lifecycle.SequencerState{Client: id(7), Next: 1}, s.State())

	// a transient answer: the request is replayable; Abandon forgets it
	// without consuming (its answer came, nothing is left to arrive)
	require.NoError(t, s.Bind(3))
	_, err = s.Stamp(frame, codec.CodeSendMessages)
	require.NoError(t, err)
	_, err = s.Receive(replyHeader(t, id(7), 1, codec.OperationSendMessages, codec.StatusTransientNotAccepted), nil)
	require.NoError(t, err)
	got, ok = s.Abandon()
	assert.True(t, ok)
	assert.Equal(t, uint64(1), got)
	_, err = s.Replay()
	require.ErrorIs(t, err, lifecycle.ErrNoReplay)
	assert.Equal(t, uint64(1), s.State().Next)

	// a replay in flight is abandoned like any request
	_, err = s.Stamp(frame, codec.CodeSendMessages)
	require.NoError(t, err)
	_, err = s.Receive(replyHeader(t, id(7), 1, codec.OperationSendMessages, codec.StatusTransientNotCommitted), nil)
	require.NoError(t, err)
	_, err = s.Replay()
	require.NoError(t, err)
	got, ok = s.Abandon()
	assert.True(t, ok)
	assert.Equal(t, uint64(1), got)
	assert.Equal(t, uint64(2), s.State().Next)

	// closed: nothing to abandon, still closed
	_, _ = s.Receive(replyHeader(t, id(8), 1, codec.OperationSendMessages, 0), nil)
	require.True(t, s.State().Closed)
	_, ok = s.Abandon()
	assert.False(t, ok)
	assert.True(t, s.State().Closed)

	// the last number: a read at MaxUint64 abandoned cannot move the
	// watermark, so the Sequencer closes, as ErrExhausted would
	s, err = lifecycle.NewSequencer(id(7), 2, math.MaxUint64)
	require.NoError(t, err)
	_, err = s.Stamp(frame, codec.CodePing)
	require.NoError(t, err)
	got, ok = s.Abandon()
	assert.True(t, ok)
	assert.Equal(t, uint64(math.MaxUint64), got)
	assert.True(t, s.State().Closed)
	_, err = s.Stamp(frame, codec.CodePing)
	require.ErrorIs(t, err, lifecycle.ErrClosed)
}

// TestSequencerConsumeRequest: a number consumed without a request, as a
// metadata request would; refused while one is in flight, without a
// session, on a closed Sequencer and at the last number, changing nothing.
func TestSequencerConsumeRequest(t *testing.T) {
	frame := make([]byte, codec.HeaderSize)
	s := newSeq(t)
	_, err := s.ConsumeRequest()
	require.ErrorIs(t, err, lifecycle.ErrNoSession)
	require.NoError(t, s.Bind(2))
	n, err := s.ConsumeRequest()
	require.NoError(t, err)
	assert.Equal(t, uint64(1), n)
	req, err := s.Stamp(frame, codec.CodeCreateStream)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), req, "the stamp takes the number after the consumed one")
	_, err = s.ConsumeRequest()
	require.ErrorIs(t, err, lifecycle.ErrPending)
	_, err = s.Receive(replyHeader(t, id(7), 2, codec.OperationCreateStream, 0), nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), s.State().Next)

	// after a transient answer, a consumed number is a new request: the
	// replayable one is abandoned, as Stamp would
	_, err = s.Stamp(frame, codec.CodeSendMessages)
	require.NoError(t, err)
	_, err = s.Receive(replyHeader(t, id(7), 3, codec.OperationSendMessages, codec.StatusTransientNotAccepted), nil)
	require.NoError(t, err)
	n, err = s.ConsumeRequest()
	require.NoError(t, err)
	assert.Equal(t, uint64(3), n)
	_, err = s.Replay()
	require.ErrorIs(t, err, lifecycle.ErrNoReplay)

	s, _ = lifecycle.NewSequencer(id(7), 2, math.MaxUint64)
	_, err = s.ConsumeRequest()
	require.ErrorIs(t, err, lifecycle.ErrExhausted)
	assert.Equal(t, uint64(math.MaxUint64), s.State().Next)

	_, _ = s.Receive(replyHeader(t, id(7), 1, codec.OperationSendMessages, 0), nil)
	require.True(t, s.State().Closed)
	_, err = s.ConsumeRequest()
	require.ErrorIs(t, err, lifecycle.ErrClosed)
}

// TestSequencerAbandonNoAllocs: abandoning a request and consuming a
// number cost no allocation, like the stamp.
func TestSequencerAbandonNoAllocs(t *testing.T) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	frame := make([]byte, codec.HeaderSize+64)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := s.Stamp(frame, codec.CodeSendMessages); err != nil {
			panic(err)
		}
		if _, ok := s.Abandon(); !ok {
			panic("nothing abandoned")
		}
		if _, err := s.ConsumeRequest(); err != nil {
			panic(err)
		}
	})
	assert.Equal(t, 0.0, allocs)
}
