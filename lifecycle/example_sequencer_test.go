package lifecycle_test

import (
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// exampleReply is the header of a Reply as a server writes it, read into a
// transport's fixed array.
func exampleReply(client codec.Uint128, request uint64, op codec.Operation, status codec.Status) *codec.Header {
	var h codec.Header
	r := codec.ReplyHeader{Size: codec.HeaderSize, Client: client, Request: request, Operation: op, Status: status}
	if _, err := r.AppendBinary(h[:0]); err != nil {
		panic(err)
	}
	return &h
}

// An SDK transport stamps the header in front of a payload it has already
// laid out (a SendMessages batch of megabytes is never copied), or into a
// header array it keeps apart from the body.
func ExampleSequencer_Stamp() {
	client := codec.Uint128{Lo: 0x1111}
	seq, err := lifecycle.NewSequencer(client, 5, 1) // logged in as session 5; a new client id's watermark is 1
	if err != nil {
		panic(err)
	}
	frame := make([]byte, codec.HeaderSize, codec.HeaderSize+1<<20)
	frame = append(frame, "...the batch..."...) // the payload, in place behind the header's room
	request, err := seq.Stamp(frame, 101)       // SendMessages: a partition operation, the watermark is not consumed
	fmt.Println("SendMessages:", request, err, (*codec.Header)(frame).Size())

	_, _ = seq.Receive(exampleReply(client, request, codec.OperationSendMessages, codec.StatusOK), nil)
	var hdr codec.Header                          // the transport's header, written before the body it sends apart
	request, err = seq.StampHeader(&hdr, 202, 40) // CreateStream: metadata, consumes the watermark
	fmt.Println("CreateStream:", request, err, hdr.Size(), "next:", seq.State().Next)
	// Output:
	// SendMessages: 1 <nil> 271
	// CreateStream: 1 <nil> 296 next: 2
}

// The answer is read as a header (into a fixed array) and a body apart. The
// sequencer correlates it by client id and request number, not by
// operation, and keeps the fence: one request in flight.
func ExampleSequencer_Receive() {
	client := codec.Uint128{Lo: 0x1111}
	seq, _ := lifecycle.NewSequencer(client, 0, 1)
	login := make([]byte, codec.HeaderSize) // then the login body, built by codec
	_, _ = seq.Stamp(login, 40)
	_, err := seq.Stamp(make([]byte, codec.HeaderSize), codec.CodePing)
	fmt.Println("while the login is in flight:", errors.Is(err, lifecycle.ErrPending))

	status, err := seq.Receive(exampleReply(client, 0, codec.OperationRegister, codec.StatusOK), nil)
	fmt.Println("login answered:", status, err)
	_ = seq.Bind(7) // the session of the login reply (codec.DecodeLoginReplyLenient)

	request, _ := seq.Stamp(make([]byte, codec.HeaderSize), 138) // DeleteSegments
	// the reference answers DeleteSegments under TruncatePartition: the same request
	status, err = seq.Receive(exampleReply(client, request, codec.OperationTruncatePartition, codec.StatusOK), nil)
	fmt.Println("DeleteSegments answered:", status, err)

	_, _ = seq.Stamp(make([]byte, codec.HeaderSize), codec.CodePing)
	_, err = seq.Receive(exampleReply(client, 99, codec.OperationNonReplicated, codec.StatusOK), nil)
	fmt.Println("an answer to another request:", errors.Is(err, lifecycle.ErrMismatch), "closed:", seq.State().Closed)
	// Output:
	// while the login is in flight: true
	// login answered: OK <nil>
	// DeleteSegments answered: OK <nil>
	// an answer to another request: true closed: true
}

// A request answered with a transient status (57 or 58) is resent as the
// identical bytes: the server deduplicates it by its request number, and
// Replay arms the fence again for that number.
func ExampleSequencer_Replay() {
	client := codec.Uint128{Lo: 0x1111}
	seq, _ := lifecycle.NewSequencer(client, 5, 3)
	frame := append(make([]byte, codec.HeaderSize), "stream body"...)
	request, _ := seq.Stamp(frame, 202) // CreateStream, request 3

	status, _ := seq.Receive(exampleReply(client, request, codec.OperationCreateStream, codec.StatusTransientNotCommitted), nil)
	fmt.Println("answer:", status, "replayable:", seq.State().Transient)

	again, err := seq.Replay() // then write frame again, as it is
	fmt.Println("replay request:", again, err, "next:", seq.State().Next)
	status, err = seq.Receive(exampleReply(client, again, codec.OperationCreateStream, codec.StatusOK), nil)
	fmt.Println("answer to the replay:", status, err)
	// Output:
	// answer: TransientNotCommitted replayable: TransientNotCommitted
	// replay request: 3 <nil> next: 4
	// answer to the replay: OK <nil>
}

// A Client keeps the request a transient status answered: Replay, then the
// bytes sent are sent again and their answer read.
func ExampleClient_Replay() {
	server, err := lifecycle.NewServer(lifecycle.Config{
		Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)),
		Auth: lifecycle.StaticAuth{Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
		}},
		// the first login is answered 57: committed or not, unknown
		Transient: lifecycle.Transient{Status: codec.StatusTransientNotCommitted, Count: 1},
	})
	if err != nil {
		panic(err)
	}
	conn := server.NewConn()
	client, _ := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})

	request, _ := client.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	answer, _, _ := conn.Handle(request, nil)
	_, err = client.Receive(answer)
	var transient *lifecycle.TransientError
	fmt.Println("login:", errors.As(err, &transient), transient.Status, "replay:", transient.Replay())

	fmt.Println("Replay:", client.Replay())
	answer, _, _ = conn.Handle(request, nil) // the same bytes
	reply, err := client.Receive(answer)
	fmt.Println("replayed login:", err, "session", reply.Login.Session)
	// Output:
	// login: true TransientNotCommitted replay: true
	// Replay: <nil>
	// replayed login: <nil> session 1
}
