package lifecycle_test

import (
	"bytes"
	"math"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// newSeq is a Sequencer of client 7, not logged in, watermark 1.
func newSeq(t testing.TB) *lifecycle.Sequencer {
	t.Helper()
	s, err := lifecycle.NewSequencer(id(7), 0, 1)
	require.NoError(t, err)
	return s
}

// replyHeader is the header of a Reply of client c to request req with
// status, as a server writes it, in a fixed array.
func replyHeader(t testing.TB, c codec.Uint128, req uint64, op codec.Operation, status codec.Status) *codec.Header {
	t.Helper()
	var h codec.Header
	r := codec.ReplyHeader{Size: codec.HeaderSize, Client: c, Request: req, Operation: op, Status: status}
	_, err := r.AppendBinary(h[:0])
	require.NoError(t, err)
	return &h
}

// loginResultBody is a login reply's result section with one code.
func loginResultBody(code codec.Status) []byte {
	b := []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	b[8] = byte(code)
	return b
}

func TestNewSequencerState(t *testing.T) {
	for _, bad := range []struct {
		client codec.Uint128
		next   uint64
	}{{codec.Uint128{}, 1}, {id(1), 0}} {
		_, err := lifecycle.NewSequencer(bad.client, 0, bad.next)
		require.ErrorIs(t, err, lifecycle.ErrState)
	}
	s, err := lifecycle.NewSequencer(id(9), 4, 12)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.SequencerState{Client: id(9), Session: 4, Next: 12}, s.State())
}

func TestNewClientID(t *testing.T) {
	a, err := lifecycle.NewClientID(nil)
	require.NoError(t, err)
	b, err := lifecycle.NewClientID(nil)
	require.NoError(t, err)
	assert.False(t, a.IsZero() || a == b, "two ids from crypto/rand: %v %v", a, b)
	_, err = lifecycle.NewClientID(bytes.NewReader(make([]byte, 1000)))
	require.ErrorIs(t, err, lifecycle.ErrRandom)
	_, err = lifecycle.NewClientID(bytes.NewReader(nil))
	require.ErrorIs(t, err, lifecycle.ErrRandom)
}

// TestSequencerStamp: the header each kind of request gets (WIRE.md
// section 7, point 9), written in place in front of the payload, which is
// not touched.
func TestSequencerStamp(t *testing.T) {
	s, err := lifecycle.NewSequencer(id(7), 3, 5)
	require.NoError(t, err)
	cases := []struct {
		code     codec.Code
		op       codec.Operation
		request  uint64
		session  uint64
		nextWant uint64
	}{
		{codec.CodePing, codec.OperationNonReplicated, 5, 3, 5},
		{202, codec.OperationCreateStream, 5, 3, 6},                    // metadata: consumes
		{101, codec.OperationSendMessages, 6, 3, 6},                    // partition: carries, does not consume
		{39, codec.OperationLogout, 6, 3, 7},                           // logout: consumes
		{40, codec.OperationRegister, 0, 0, 7},                         // login: 0 and 0
		{codec.CodeBindSession, codec.OperationNonReplicated, 7, 3, 7}, // the bound session, as Go and C# send it
	}
	for _, tc := range cases {
		frame := append(make([]byte, codec.HeaderSize), "payload"...)
		req, err := s.Stamp(frame, tc.code)
		require.NoError(t, err, "code %d", tc.code)
		assert.Equal(t, tc.request, req, "code %d: request", tc.code)
		assert.Equal(t, "payload", string(frame[codec.HeaderSize:]))
		h, err := codec.DecodeRequestHeader(frame)
		require.NoError(t, err, "code %d", tc.code)
		assert.Equal(t, tc.op, h.Operation, "code %d", tc.code)
		assert.Equal(t, tc.request, h.Request, "code %d", tc.code)
		assert.Equal(t, tc.session, h.Session, "code %d", tc.code)
		assert.Equal(t, uint32(len(frame)), h.Size)
		assert.Equal(t, tc.nextWant, s.State().Next, "code %d", tc.code)
		// the fence: nothing else until the answer
		_, err = s.Stamp(frame, codec.CodePing)
		require.ErrorIs(t, err, lifecycle.ErrPending)
		_, err = s.Receive(replyHeader(t, id(7), req, tc.op, codec.StatusOK), nil)
		require.NoError(t, err)
		if tc.op == codec.OperationRegister {
			require.NoError(t, s.Bind(3))
		}
	}
}

// TestSequencerStampHeader: the header kept apart from the body carries the
// body's length in its size; a length no frame can have is codec.ErrSize.
func TestSequencerStampHeader(t *testing.T) {
	s := newSeq(t)
	var hdr codec.Header
	_, err := s.StampHeader(&hdr, codec.CodePing, -1)
	require.ErrorIs(t, err, codec.ErrSize)
	_, err = s.StampHeader(&hdr, codec.CodePing, codec.MaxFrameSize)
	require.ErrorIs(t, err, codec.ErrSize)
	assert.Equal(t, codec.Header{}, hdr, "a refused stamp writes nothing")
	req, err := s.StampHeader(&hdr, codec.CodePing, 10)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), req)
	assert.Equal(t, uint32(266), hdr.Size())
	assert.Equal(t, id(7), hdr.Request().Client())
	assert.Equal(t, codec.CodePing, hdr.Request().Code())
}

func TestSequencerRefusals(t *testing.T) {
	s := newSeq(t)
	frame := make([]byte, codec.HeaderSize)
	_, err := s.Stamp(frame, 202)
	require.ErrorIs(t, err, lifecycle.ErrNoSession)
	_, err = s.Stamp(frame, 0) // NonReplicated code 0: the codec refuses it
	require.ErrorIs(t, err, codec.ErrField)
	_, err = s.Stamp(frame[:10], codec.CodePing)
	require.ErrorIs(t, err, codec.ErrTruncated)
	assert.Equal(t, make([]byte, codec.HeaderSize), frame, "refusals write nothing")
	assert.False(t, s.State().Pending)
	_, err = s.Replay()
	require.ErrorIs(t, err, lifecycle.ErrNoReplay)
	require.ErrorIs(t, s.Bind(0), lifecycle.ErrState)
	require.ErrorIs(t, s.Reset(codec.Uint128{}), lifecycle.ErrState)
	require.NoError(t, s.Bind(4))
	require.ErrorIs(t, s.Bind(5), lifecycle.ErrBound)

	// the watermark cannot wrap to 0
	s, err = lifecycle.NewSequencer(id(7), 4, math.MaxUint64)
	require.NoError(t, err)
	_, err = s.Stamp(frame, 202)
	require.ErrorIs(t, err, lifecycle.ErrExhausted)
	req, err := s.Stamp(frame, 101) // a partition request does not consume it
	require.NoError(t, err)
	assert.Equal(t, uint64(math.MaxUint64), req)
	require.ErrorIs(t, s.Bind(5), lifecycle.ErrPending)
}

// TestSequencerCorrelate: a reply answers by client id and request number,
// not by operation; anything else closes the sequencer.
func TestSequencerCorrelate(t *testing.T) {
	frame := make([]byte, codec.HeaderSize)
	cases := []struct {
		name string
		hdr  func(req uint64) *codec.Header
		want error
	}{
		{"match under another operation", func(req uint64) *codec.Header {
			return replyHeader(t, id(7), req, codec.OperationTruncatePartition, 0)
		}, nil},
		{"other client", func(req uint64) *codec.Header { return replyHeader(t, id(8), req, codec.OperationNonReplicated, 0) }, lifecycle.ErrMismatch},
		{"other request", func(req uint64) *codec.Header {
			return replyHeader(t, id(7), req+1, codec.OperationNonReplicated, 0)
		}, lifecycle.ErrMismatch},
		{"a request frame", func(req uint64) *codec.Header {
			var h codec.Header
			copy(h[:], frame)
			return &h
		}, lifecycle.ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := lifecycle.NewSequencer(id(7), 2, 1)
			req, err := s.Stamp(frame, 138) // DeleteSegments
			require.NoError(t, err)
			h := tc.hdr(req)
			before := s.State()
			checkErr := s.Check(h)
			assert.Equal(t, before, s.State(), "Check changes nothing")
			_, err = s.Receive(h, nil)
			if tc.want == nil {
				require.NoError(t, checkErr)
				require.NoError(t, err)
				assert.False(t, s.State().Pending)
				return
			}
			require.ErrorIs(t, checkErr, tc.want)
			require.ErrorIs(t, err, tc.want)
			assert.True(t, s.State().Closed)
			_, err = s.Stamp(frame, codec.CodePing)
			require.ErrorIs(t, err, lifecycle.ErrClosed)
			_, err = s.Receive(h, nil)
			require.ErrorIs(t, err, lifecycle.ErrClosed)
			require.NoError(t, s.Reset(id(9)))
			assert.Equal(t, lifecycle.SequencerState{Client: id(9), Next: 1}, s.State())
		})
	}
	// an answer with nothing in flight
	s := newSeq(t)
	_, err := s.Receive(replyHeader(t, id(7), 1, codec.OperationNonReplicated, 0), nil)
	require.ErrorIs(t, err, lifecycle.ErrMismatch)
}

// TestSequencerEviction: an eviction, whatever client id it names, ends the
// connection: ErrEvicted and the reason's status.
func TestSequencerEviction(t *testing.T) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	_, err := s.Stamp(make([]byte, codec.HeaderSize), codec.CodePing)
	require.NoError(t, err)
	var h codec.Header
	copy(h[:], refEviction(id(99), byte(codec.ReasonSessionTooLow)))
	require.NoError(t, s.Check(&h))
	status, err := s.Receive(&h, nil)
	require.ErrorIs(t, err, lifecycle.ErrEvicted)
	assert.Equal(t, codec.ReasonSessionTooLow.Status(), status)
	assert.Equal(t, lifecycle.SequencerState{Client: id(7), Next: 1, Closed: true}, s.State())
}

// TestSequencerReplay: after a transient answer (a denial, or a login's
// result code) the same request number is armed again, and the answer to
// the resent bytes is accepted; stamping instead abandons the request.
func TestSequencerReplay(t *testing.T) {
	for _, status := range []codec.Status{codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted} {
		t.Run(status.String(), func(t *testing.T) {
			s, _ := lifecycle.NewSequencer(id(7), 2, 5)
			frame := append(make([]byte, codec.HeaderSize), "batch"...)
			req, err := s.Stamp(frame, 202)
			require.NoError(t, err)
			sent := bytes.Clone(frame)
			got, err := s.Receive(replyHeader(t, id(7), req, codec.OperationCreateStream, status), nil)
			require.NoError(t, err)
			assert.Equal(t, status, got)
			st := s.State()
			assert.Equal(t, lifecycle.SequencerState{Client: id(7), Session: 2, Next: 6, Request: 5,
				Operation: codec.OperationCreateStream, Transient: status}, st)
			again, err := s.Replay()
			require.NoError(t, err)
			assert.Equal(t, req, again, "the same request number")
			assert.Equal(t, sent, frame, "the bytes to resend are untouched")
			assert.Equal(t, uint64(6), s.State().Next, "a replay consumes nothing")
			_, err = s.Replay()
			require.ErrorIs(t, err, lifecycle.ErrNoReplay)
			got, err = s.Receive(replyHeader(t, id(7), req, codec.OperationCreateStream, 0), nil)
			require.NoError(t, err)
			assert.Equal(t, codec.StatusOK, got)

			// a transient login (the code in the result section), abandoned
			_, err = s.Stamp(make([]byte, codec.HeaderSize), 40)
			require.NoError(t, err)
			got, err = s.Receive(replyHeader(t, id(7), 0, codec.OperationRegister, 0), loginResultBody(status))
			require.NoError(t, err)
			assert.Equal(t, status, got)
			_, err = s.Stamp(make([]byte, codec.HeaderSize), codec.CodePing)
			require.NoError(t, err, "a new request abandons the transient one")
			_, err = s.Replay()
			require.ErrorIs(t, err, lifecycle.ErrNoReplay)
		})
	}
}

// TestSequencerLogout: an answered logout unbinds the session; a denied
// one keeps it.
func TestSequencerLogout(t *testing.T) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	frame := make([]byte, codec.HeaderSize)
	req, _ := s.Stamp(frame, 39)
	_, err := s.Receive(replyHeader(t, id(7), req, codec.OperationLogout, codec.StatusInvalidCommand), nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(2), s.State().Session)
	req, _ = s.Stamp(frame, 39)
	_, err = s.Receive(replyHeader(t, id(7), req, codec.OperationLogout, 0), nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(0), s.State().Session)
	_, err = s.Stamp(frame, 39)
	require.ErrorIs(t, err, lifecycle.ErrNoSession)
}

// TestSequencerNoAllocs: stamping, checking, receiving and replaying cost
// no allocation.
func TestSequencerNoAllocs(t *testing.T) {
	s, _ := lifecycle.NewSequencer(id(7), 2, 1)
	frame := make([]byte, codec.HeaderSize+64)
	var hdr codec.Header
	ok := replyHeader(t, id(7), 1, codec.OperationSendMessages, 0)
	transient := replyHeader(t, id(7), 1, codec.OperationSendMessages, codec.StatusTransientNotCommitted)
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := s.Stamp(frame, 101); err != nil {
			panic(err)
		}
		if err := s.Check(transient); err != nil {
			panic(err)
		}
		if _, err := s.Receive(transient, nil); err != nil {
			panic(err)
		}
		if _, err := s.Replay(); err != nil {
			panic(err)
		}
		if _, err := s.Receive(ok, nil); err != nil {
			panic(err)
		}
		if _, err := s.StampHeader(&hdr, 101, 64); err != nil {
			panic(err)
		}
		if _, err := s.Receive(ok, nil); err != nil {
			panic(err)
		}
	})
	assert.Equal(t, 0.0, allocs)
}

// TestClientReplay: a Client keeps the request a transient denial answered,
// so the answer to the resent bytes is accepted (and not a mismatch).
func TestClientReplay(t *testing.T) {
	c := loggedInClient(t)
	st := c.State()
	req, err := c.Replicated(nil, codec.OperationCreateStream, []byte("x"))
	require.NoError(t, err)
	_, err = c.Receive(refReply(c.ID(), st.Watermark, byte(codec.OperationCreateStream), uint32(codec.StatusTransientNotCommitted)))
	require.ErrorIs(t, err, codec.StatusTransientNotCommitted.Err())
	assert.True(t, c.State().Replay)
	assert.False(t, c.Closed())
	require.NoError(t, c.Replay())
	require.ErrorIs(t, c.Replay(), lifecycle.ErrNoReplay)
	assert.Equal(t, st.Watermark, requestNumber(req), "the bytes kept carry the number replayed")
	_, err = c.Receive(refReply(c.ID(), st.Watermark, byte(codec.OperationCreateStream), 0))
	require.NoError(t, err)
	assert.Equal(t, st.Watermark+1, c.State().Watermark)
	assert.False(t, c.State().Pending || c.State().Replay)

	// without Replay, the answer to resent bytes is a mismatch, as before
	_, err = c.Replicated(nil, codec.OperationCreateStream, []byte("y"))
	require.NoError(t, err)
	_, err = c.Receive(refReply(c.ID(), st.Watermark+1, byte(codec.OperationCreateStream), uint32(codec.StatusTransientNotAccepted)))
	require.ErrorIs(t, err, codec.StatusTransientNotAccepted.Err())
	_, err = c.Receive(refReply(c.ID(), st.Watermark+1, byte(codec.OperationCreateStream), 0))
	require.ErrorIs(t, err, lifecycle.ErrMismatch)
	require.ErrorIs(t, c.Replay(), lifecycle.ErrClosed)
}

// requestNumber reads a request frame's number.
func requestNumber(frame []byte) uint64 {
	return (*codec.Header)(frame).Request().Request()
}
