package fuzz

import (
	"errors"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// counter is a deterministic source of client ids: every Read fills its
// buffer with the next byte values, never all zero.
type counter struct{ n byte }

func (c *counter) Read(p []byte) (int, error) {
	for i := range p {
		c.n++
		p[i] = c.n | 1
	}
	return len(p), nil
}

// FuzzClient plays a hostile server: each step the client sends the
// request the input picks, and the input's next frame is its answer.
// Nothing may panic, every error is one Receive documents, and a session
// is stored only from a valid login reply to a pending login.
//
// Step layout: [action u8] then a frame as chunks reads it. Flags bit 1
// patches the client id, request number and operation the client waits
// for into a Reply (the client id into an Eviction), so the fuzzer gets
// past the echo checks at will; flags bit 2 keeps the Reply's own
// operation, which the client must not require to match (WIRE.md section
// 7, point 9).
func FuzzClient(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, data []byte) {
		// The same steps against a client of each protocol: at 0.11.1 the
		// logins carry a bind secret, and an action of 1 with its top bit
		// set resumes the session with BindSession instead (WIRE.md
		// section 10.4).
		for _, protocol := range []codec.Version{codec.Protocol0110, codec.Protocol0111} {
			c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: protocol, Rand: &counter{}})
			if err != nil {
				t.Fatal(err)
			}
			in := chunks{rest: data}
			for len(in.rest) > 0 {
				action := in.rest[0]
				in.rest = in.rest[1:]
				sent, bind := send(t, c, action, protocol == codec.Protocol0111)
				frame, flags, ok := in.next()
				if !ok {
					break
				}
				if flags&2 != 0 && len(frame) >= codec.HeaderSize {
					echo(c, frame, sent, flags&4 != 0)
				}
				checkReceive(t, c, protocol, sent, bind, frame)
			}
		}
	})
}

// send makes c build the request action picks and returns its operation
// (OperationReserved when c refused to build one), and whether it was a
// BIND_SESSION (only when binds is set).
func send(t *testing.T, c *lifecycle.Client, action byte, binds bool) (codec.Operation, bool) {
	var err error
	op := codec.OperationNonReplicated
	if binds && action%6 == 1 && action&0x80 != 0 {
		if _, err = c.BindSession(nil); err != nil {
			checkBuildErr(t, err)
			return codec.OperationReserved, false
		}
		return op, true
	}
	switch action % 6 {
	case 0:
		_, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		op = codec.OperationRegister
	case 1:
		_, err = c.LoginPAT(nil, codec.NewSecret([]byte("tok")))
		op = codec.OperationRegister
	case 2:
		_, err = c.Ping(nil)
	case 3:
		_, err = c.Logout(nil)
		op = codec.OperationLogout
	case 4:
		_, err = c.Request(nil, codec.CodeGetClusterMetadata, nil)
	default:
		if k := action >> 3; k >= 24 {
			return sendCode(t, c, k-24), false
		}
		op = codec.OperationCreateStream + codec.Operation(action>>3)%3
		_, err = c.Replicated(nil, op, []byte("x"))
	}
	if err == nil {
		return op, false
	}
	checkBuildErr(t, err)
	return codec.OperationReserved, false
}

// sendCode makes c build a request by code (Request routes it by
// codec.OperationForCode) and checks that a replicated code never goes out
// as NonReplicated. It returns the operation sent, or OperationReserved.
func sendCode(t *testing.T, c *lifecycle.Client, pick byte) codec.Operation {
	codes := [8]codec.Code{202, 503, 101, 122, 33, 605, 70000, codec.CodeGetClusterMetadata}
	code := codes[pick%8]
	frame, err := c.Request(nil, code, []byte("x"))
	if err != nil {
		checkBuildErr(t, err)
		return codec.OperationReserved
	}
	h, err := codec.DecodeRequestHeader(frame)
	if err != nil {
		t.Fatalf("Request(%d) built an invalid header: %v", code, err)
	}
	if want := codec.OperationForCode(code); h.Operation != want || (want != codec.OperationNonReplicated) != (h.Code == 0) {
		t.Fatalf("Request(%d) sent operation %v with code %d, want operation %v", code, h.Operation, h.Code, want)
	}
	return h.Operation
}

// checkBuildErr: building a request fails only in the documented ways.
func checkBuildErr(t *testing.T, err error) {
	if !errors.Is(err, lifecycle.ErrPending) && !errors.Is(err, lifecycle.ErrNoSession) &&
		!errors.Is(err, lifecycle.ErrClosed) && !errors.Is(err, lifecycle.ErrLoginAgain) {
		t.Fatalf("building a request: undocumented error %v (%T)", err, err)
	}
}

// echo writes into a Reply what c waits for, and into an Eviction c's
// client id.
func echo(c *lifecycle.Client, frame []byte, sent codec.Operation, keepOperation bool) {
	id, st := c.ID(), c.State()
	if frame[60] == byte(codec.CommandEviction) {
		le.PutUint64(frame[128:], id.Lo)
		le.PutUint64(frame[136:], id.Hi)
		return
	}
	if frame[60] != byte(codec.CommandReply) {
		return
	}
	le.PutUint64(frame[160:], id.Lo)
	le.PutUint64(frame[168:], id.Hi)
	request := st.Watermark
	if sent == codec.OperationRegister {
		request = 0
	} else if consumes(sent) {
		request-- // these consumed the watermark when they were built
	}
	le.PutUint64(frame[200:], request)
	if !keepOperation {
		frame[208] = byte(sent)
	}
}

// consumes reports whether a request on op consumed the watermark: every
// replicated operation but the partition ones (WIRE.md section 7, point 9).
func consumes(op codec.Operation) bool {
	switch op {
	case codec.OperationReserved, codec.OperationRegister, codec.OperationNonReplicated:
		return false
	}
	return !op.IsPartition()
}

// checkReceive hands frame to c and checks the outcome.
func checkReceive(t *testing.T, c *lifecycle.Client, protocol codec.Version, sent codec.Operation, bind bool, frame []byte) {
	before := c.State()
	resp, err := c.Receive(frame)
	after := c.State()
	checkReceiveErr(t, protocol, before, after, err)
	if after.Session == 0 || after.Session == before.Session {
		return
	}
	if bind {
		// A session from a BIND_SESSION: a valid Reply of status 0 whose
		// body is the bare login reply (WIRE.md section 10.4).
		h, herr := codec.DecodeReplyHeader(frame)
		lr, lerr := codec.ParseLoginReply(frame[codec.HeaderSize:])
		if err != nil || !before.Pending || herr != nil || h.Status != codec.StatusOK || lerr != nil ||
			lr.Session != after.Session || resp.Login.Session != after.Session || !after.Resumable {
			t.Fatalf("session %d stored from an invalid bind reply (err %v)", after.Session, err)
		}
		return
	}
	// A new session: it must come from a valid login reply to a login,
	// whatever operation the reply carries (WIRE.md section 7, point 9).
	if err != nil || sent != codec.OperationRegister || !before.Pending {
		t.Fatalf("session %d stored after %v (sent %v, pending %v)", after.Session, err, sent, before.Pending)
	}
	h, herr := codec.DecodeReplyHeader(frame)
	payload, code, serr := codec.SplitResult(frame[codec.HeaderSize:])
	lr, _, lerr := codec.DecodeLoginReply(payload)
	if herr != nil || h.Request != 0 || h.Status != codec.StatusOK || serr != nil || code != 0 ||
		lerr != nil || lr.Session != after.Session || resp.Login.Session != after.Session || after.UserID != lr.UserID {
		t.Fatalf("session %d stored from an invalid login reply", after.Session)
	}
}

// checkReceiveErr: every error is one Receive documents, with its effect,
// for a client of protocol.
func checkReceiveErr(t *testing.T, protocol codec.Version, before, after lifecycle.ClientState, err error) {
	var status *codec.IggyError
	var incompatible *codec.IncompatibleProtocolError
	var transient *lifecycle.TransientError
	var refused *lifecycle.BindRefusedError
	switch {
	case err == nil:
		if before.Closed || after.Closed {
			t.Fatalf("Receive succeeded on a closed client or closed it: %+v -> %+v", before, after)
		}
	case before.Closed:
		if !errors.Is(err, lifecycle.ErrClosed) {
			t.Fatalf("closed client: %v, want ErrClosed", err)
		}
	case errors.Is(err, lifecycle.ErrMismatch), errors.Is(err, lifecycle.ErrMalformed), errors.Is(err, codec.ErrSize):
		if !after.Closed || after.Session != 0 {
			t.Fatalf("%v left the client %+v", err, after)
		}
	case errors.As(err, &incompatible):
		if !after.Closed || !incompatible.Window.IsValid() || incompatible.Client != protocol ||
			!strings.Contains(err.Error(), "client speaks "+protocol.String()) {
			t.Fatalf("incompatible protocol %v (client %v) left the client %+v", incompatible.Window, incompatible.Client, after)
		}
	case errors.As(err, &refused):
		if after.Closed || after.Session != 0 || after.Resumable || refused.Status == codec.StatusOK ||
			!errors.Is(err, lifecycle.ErrLoginAgain) || !errors.Is(err, refused.Status.Err()) {
			t.Fatalf("bind refusal %v left the client %+v", err, after)
		}
	case errors.As(err, &transient):
		if after.Closed || after.Session != 0 || transient.Replay() == transient.Reissue() ||
			!strings.Contains(err.Error(), transient.Status.String()) {
			t.Fatalf("transient %v left the client %+v", err, after)
		}
	case errors.As(err, &status):
		if status.Status == codec.StatusOK {
			t.Fatal("Receive returned status 0 as an error")
		}
	default:
		t.Fatalf("Receive returned an undocumented error %v (%T)", err, err)
	}
}
