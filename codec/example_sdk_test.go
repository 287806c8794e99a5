package codec_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// The examples of this file are the calls docs/sdk.md gives for each thing
// an SDK transport does, in the order it does them.

// An SDK builds a request's payload after 256 bytes it leaves free, then
// stamps the header in front of it: the payload is never copied.
func ExamplePutRequestHeader() {
	payload := []byte("a SendMessages batch of megabytes")
	frame := make([]byte, codec.HeaderSize, codec.HeaderSize+len(payload))
	frame = append(frame, payload...)
	code := codec.CodeSendMessages
	op := codec.OperationForCode(code) // no table of the SDK's own
	h := codec.RequestHeader{Client: codec.Uint128From(7), Request: 5, Operation: op, Session: 42}
	if op == codec.OperationNonReplicated {
		h.Code = code // only NonReplicated requests carry their code
	}
	if err := codec.PutRequestHeader(frame, h); err != nil {
		panic(err)
	}
	size, _ := codec.FrameSize(frame)
	fmt.Println(op, op.IsPartition(), size == len(frame))
	// Output: SendMessages true true
}

// An SDK's operation table: every operation codec knows, and which ones are
// replicated (they need a bound session; WIRE.md section 7). DeleteSegments
// and Logout are replicated although neither is metadata nor partition.
func ExampleOperations() {
	replicated := 0
	for _, op := range codec.Operations() {
		if op.IsReplicated() {
			replicated++
		}
	}
	fmt.Println(len(codec.Operations()), replicated)
	del := codec.OperationForCode(codec.CodeDeleteSegments)
	fmt.Println(del, del.IsReplicated(), del.IsMetadata() || del.IsPartition())
	fmt.Println(codec.OperationForCode(codec.CodePing).IsReplicated())
	// Output:
	// 34 31
	// DeleteSegments true false
	// false
}

// A reply is matched with its request by client id and request number,
// read from the header before anything is judged.
func ExampleHeader() {
	reply, _ := codec.AppendReplyFrame(nil, codec.ReplyHeader{
		Client: codec.Uint128From(7), Request: 5, Operation: codec.OperationSendMessages,
	}, []byte("ok"))
	var hdr [codec.HeaderSize]byte // the SDK's header buffer
	copy(hdr[:], reply)
	h := (*codec.Header)(&hdr)
	r := h.Reply() // the answer to a request is a reply (or an eviction)
	fmt.Println(h.Command(), r.Client() == codec.Uint128From(7), r.Request(), r.Status())
	// Output: Reply true 5 OK
}

// A denial is read status first, so a stray body cannot hide it: the
// lenient decoder returns the header and the rule it breaks.
func ExampleDecodeReplyHeaderLenient() {
	h := codec.ReplyHeader{Size: codec.HeaderSize, Client: codec.Uint128From(7), Request: 5,
		Operation: codec.OperationNonReplicated, Status: codec.StatusUnauthenticated}
	b, _ := h.AppendBinary(nil)
	b[48] = 0x10 // a server that sent a body with its denial: size 272

	got, err := codec.DecodeReplyHeaderLenient(b)
	var ce *codec.Error
	if errors.As(err, &ce) && ce.Field == codec.FieldSize {
		fmt.Println("rule broken:", ce.Rule)
	}
	fmt.Println(got.Status.Err())
	// Output:
	// rule broken: reply.status
	// codec: iggy status 40 (Unauthenticated)
}

// An eviction ends the session whatever it says; the client maps its
// reason, and names its own version in an incompatible-protocol error.
func ExampleDecodeEvictionLenient() {
	w := codec.Window{Min: codec.MustParseVersion("0.12.0"), Max: codec.MustParseVersion("0.12.0")}
	ev := codec.NewIncompatibleProtocolEviction(codec.Uint128From(7), w)
	b, _ := ev.AppendBinary(nil)
	e, err := codec.DecodeEvictionLenient(b)
	fmt.Println(err, e.ErrFor(codec.MustParseVersion("0.11.0")))

	b[128] = 0 // client id 0, and a reason this build does not know
	b[255] = 99
	e, err = codec.DecodeEvictionLenient(b)
	var ce *codec.Error
	fmt.Println(errors.As(err, &ce) && ce.Field == codec.FieldClient, e.Err())
	// Output:
	// <nil> codec: incompatible protocol version: client speaks 0.11.0, server accepts [0.12.0, 0.12.0]
	// true codec: iggy status 3 (InvalidCommand)
}

// A login reply's body is a result section, then the login reply; a session
// of 0 is decoded beside its error, for the SDK's bind-failure path.
func ExampleDecodeLoginReplyLenient() {
	frame, _ := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Client: codec.Uint128From(7),
		Operation: codec.OperationRegister}, codec.LoginReply{UserID: 1, Session: 9,
		ServerProtocol: codec.MustParseVersion("0.11.0"), ServerVersion: []byte("0.11.0")})
	body, code, err := codec.SplitResult(frame[codec.HeaderSize:])
	if err != nil || code != codec.StatusOK {
		panic("a committed login")
	}
	body[4] = 0 // session 9 becomes 0
	l, _, err := codec.DecodeLoginReplyLenient(body)
	var ce *codec.Error
	fmt.Println(l.UserID, l.Session, errors.As(err, &ce) && ce.Field == codec.FieldSession)
	// Output: 1 0 true
}

// A transient result (57) asks for the same request again: the SDK resends
// the identical bytes (the server deduplicates by request number); 58 may
// be re-issued anywhere.
func ExampleSplitResult_transient() {
	h := codec.ReplyHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}
	frame, _ := codec.AppendReplyFrame(nil, h, []byte{1, 0, 0, 0, 0, 0, 0, 0, 57, 0, 0, 0})
	_, code, _ := codec.SplitResult(frame[codec.HeaderSize:])
	switch code {
	case codec.StatusTransientNotCommitted:
		fmt.Println("replay the same frame on the same connection")
	case codec.StatusTransientNotAccepted:
		fmt.Println("re-issue anywhere")
	}
	// Output: replay the same frame on the same connection
}

// A client that trusts its server up to a cap reads a large reply's header
// into its fixed array, then the body at its exact size: one allocation.
func ExampleReadFrameBody() {
	reply, _ := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: codec.Uint128From(7), Request: 5,
		Operation: codec.OperationNonReplicated}, make([]byte, 1<<20))
	conn := bytes.NewReader(reply)

	var h codec.Header
	if _, err := codec.ReadFrameHeader(conn, &h); err != nil {
		panic(err)
	}
	body, err := codec.ReadFrameBody(conn, &h, nil, codec.MaxFrameSize)
	fmt.Println(h.Reply().Request(), len(body), cap(body), err)
	// Output: 5 1048576 1048576 <nil>
}
