package lifecycle_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// The frames below are built byte by byte from the layouts of WIRE.md
// section 5, as the reference server and SDKs put them on the wire, not
// through the codec's encoders.

var le = binary.LittleEndian

func putID(b []byte, id codec.Uint128) { le.PutUint64(b, id.Lo); le.PutUint64(b[8:], id.Hi) }

// refRequest is a request header (command 5) and its body.
func refRequest(client codec.Uint128, request uint64, op byte, session uint64, code uint32, body []byte) []byte {
	b := make([]byte, codec.HeaderSize, codec.HeaderSize+len(body))
	le.PutUint32(b[48:], uint32(codec.HeaderSize+len(body)))
	b[60] = 5
	putID(b[128:], client)
	le.PutUint64(b[168:], request)
	b[176] = op
	le.PutUint64(b[184:], session)
	le.PutUint32(b[196:], code)
	return append(b, body...)
}

// refReply is a header-only reply (command 8).
func refReply(client codec.Uint128, request uint64, op byte, status uint32) []byte {
	b := make([]byte, codec.HeaderSize)
	le.PutUint32(b[48:], codec.HeaderSize)
	b[60] = 8
	putID(b[160:], client)
	le.PutUint64(b[200:], request)
	b[208] = op
	le.PutUint32(b[216:], status)
	return b
}

// refEviction is an eviction (command 13) with a zero window.
func refEviction(client codec.Uint128, reason byte) []byte {
	b := make([]byte, codec.HeaderSize)
	le.PutUint32(b[48:], codec.HeaderSize)
	b[60] = 13
	putID(b[128:], client)
	b[255] = reason
	return b
}

// serverConnID is an id the reference server might hold for a connection:
// not the client's (id 1 in these tests).
var serverConnID = codec.Uint128{Lo: 0x5e5e_0000_0000_0007, Hi: 0x0123_4567_89ab_cdef}

// TestClientEvictionWithServerID: the reference builds evictions 1
// (NoSession) and 13 (StaleClient) with its own id for the connection, not
// the request's client id (WIRE.md section 7, point 10). The Client reads
// the eviction's meaning, not a mismatch.
func TestClientEvictionWithServerID(t *testing.T) {
	cases := []struct {
		name   string
		frame  []byte
		want   error
		reason string
	}{
		{"eviction 1, server's id", refEviction(serverConnID, 1), codec.StatusUnauthenticated.Err(), "40"},
		{"eviction 13, server's id", refEviction(serverConnID, 13), codec.StatusStaleClient.Err(), "30"},
		{"eviction 1, our id", refEviction(codec.Uint128{Lo: 1}, 1), codec.StatusUnauthenticated.Err(), "40"},
		{"eviction 7, another id", refEviction(serverConnID, 7), codec.StatusUnauthenticated.Err(), "40"},
		{"eviction 1, client id 0", refEviction(codec.Uint128{}, 1), lifecycle.ErrMalformed, "client id 0 is malformed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := loggedInClient(t)
			if _, err := c.Request(nil, codec.CodeGetClusterMetadata, nil); err != nil {
				t.Fatalf("Request: %v", err)
			}
			_, err := c.Receive(tc.frame)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Receive error = %v, want %v (%s)", err, tc.want, tc.reason)
			}
			if !c.Closed() {
				t.Errorf("Closed() = false, want true: an eviction ends the connection")
			}
			if s := c.Session(); s != 0 {
				t.Errorf("Session() = %d, want 0", s)
			}
		})
	}
}

// TestClientReplyUnderAnotherOperation: the reference answers DeleteSegments
// (503, operation 138) under TruncatePartition (68), and the Java SDK's
// tests accept 64 and 65 for CreateTopic (132) and CreatePartitions (136).
// A reply is correlated by request number and client id (WIRE.md section
// 7, point 9); a request number the client did not send is still refused.
func TestClientReplyUnderAnotherOperation(t *testing.T) {
	us := codec.Uint128{Lo: 1}
	cases := []struct {
		name   string
		code   codec.Code
		reply  []byte
		want   error // nil: accepted
		closed bool
	}{
		{"DeleteSegments under 68", 503, refReply(us, 1, 68, 0), nil, false},
		{"DeleteSegments, transient rejection under 68", 503, refReply(us, 1, 68, 58), codec.Status(58).Err(), false},
		{"CreateTopic under 64", 302, refReply(us, 1, 64, 0), nil, false},
		{"CreatePartitions under 65", 402, refReply(us, 1, 65, 0), nil, false},
		{"DeleteSegments under 68, request 2", 503, refReply(us, 2, 68, 0), lifecycle.ErrMismatch, true},
		{"DeleteSegments under 68, another client", 503, refReply(serverConnID, 1, 68, 0), lifecycle.ErrMismatch, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := loggedInClient(t)
			if _, err := c.Request(nil, tc.code, []byte{1, 2, 3}); err != nil {
				t.Fatalf("Request: %v", err)
			}
			r, err := c.Receive(tc.reply)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("Receive: %v", err)
				}
				if want := codec.Operation(tc.reply[208]); r.Operation != want {
					t.Errorf("the operation the reply carries: Operation = %d, want %d", r.Operation, want)
				}
			} else if !errors.Is(err, tc.want) {
				t.Fatalf("Receive error = %v, want %v", err, tc.want)
			}
			if got := c.Closed(); got != tc.closed {
				t.Errorf("Closed() = %t, want %t", got, tc.closed)
			}
			if c.State().Pending {
				t.Errorf("State().Pending = true, want false")
			}
			if !tc.closed {
				if s := c.Session(); s != 5 {
					t.Errorf("the session stays: Session() = %d, want 5", s)
				}
			}
		})
	}
}

// TestClientRequestRoutesByCode: each code's request header as the
// reference SDKs send it. Replicated commands ride their own operation with
// the session and no code in the header; partition operations carry the
// request number, the others consume it (DeleteSegments included); the
// rest ride NonReplicated with the code at 196.
func TestClientRequestRoutesByCode(t *testing.T) {
	us := codec.Uint128{Lo: 1}
	body := []byte("stream-1")
	steps := []struct {
		name string
		code codec.Code
		want []byte
	}{
		{"CreateStream 202", 202, refRequest(us, 1, 128, 5, 0, body)},
		{"SendMessages 101 carries 2", 101, refRequest(us, 2, 160, 5, 0, body)},
		{"DeleteSegments 503 consumes 2", 503, refRequest(us, 2, 138, 5, 0, body)},
		{"GetClusterMetadata 12", 12, refRequest(us, 3, 2, 5, 12, body)},
		{"DeleteConsumerOffset 122", 122, refRequest(us, 3, 162, 5, 0, body)},
		{"CreateUser 33", 33, refRequest(us, 3, 141, 5, 0, body)},
		{"a code no SDK knows", 70000, refRequest(us, 4, 2, 5, 70000, body)},
		{"LeaveConsumerGroup 605", 605, refRequest(us, 4, 149, 5, 0, body)},
		{"ping", 1, refRequest(us, 5, 2, 5, 1, body)},
	}
	c := loggedInClient(t)
	for _, s := range steps {
		frame, err := c.Request(nil, s.code, body)
		if err != nil {
			t.Fatalf("%s: Request: %v", s.name, err)
		}
		if !bytes.Equal(frame, s.want) {
			t.Fatalf("%s: request bytes =\n%x\nwant\n%x", s.name, frame, s.want)
		}
		if _, err := c.Receive(refReply(us, le.Uint64(s.want[168:]), s.want[176], 0)); err != nil {
			t.Fatalf("%s: Receive: %v", s.name, err)
		}
	}

	fresh := newTestClient(t)
	_, err := fresh.Request(nil, 202, body)
	if !errors.Is(err, lifecycle.ErrNoSession) {
		t.Fatalf("CreateStream before login is not sent as NonReplicated: error = %v, want %v", err, lifecycle.ErrNoSession)
	}
}
