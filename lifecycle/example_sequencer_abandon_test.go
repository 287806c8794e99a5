package lifecycle_test

import (
	"errors"
	"fmt"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// A request that will never be answered (the transport's read timed out,
// the caller cancelled) is abandoned: the fence opens, and its number stays
// used, so a read abandoned at 4 is followed by one at 5. Should the late
// answer to 4 arrive after all, it correlates with nothing: ErrMismatch,
// and the transport drops the connection.
func ExampleSequencer_Abandon() {
	client := codec.Uint128{Lo: 0x1111}
	seq, _ := lifecycle.NewSequencer(client, 5, 4)
	frame := make([]byte, codec.HeaderSize)
	request, _ := seq.Stamp(frame, 100) // PollMessages: NonReplicated, carries the watermark
	// ... the read deadline passes ...
	abandoned, ok := seq.Abandon()
	fmt.Println("abandoned:", abandoned, ok, "pending:", seq.State().Pending)

	next, err := seq.Stamp(frame, 100) // the next call is not ErrPending
	fmt.Println("stamped:", request, "then:", next, err)

	_, err = seq.Receive(exampleReply(client, abandoned, codec.OperationNonReplicated, codec.StatusOK), nil)
	fmt.Println("late answer:", errors.Is(err, lifecycle.ErrMismatch), "closed:", seq.State().Closed)
	// Output:
	// abandoned: 4 true pending: false
	// stamped: 4 then: 5 <nil>
	// late answer: true closed: true
}

// A transport that writes its own headers takes a number the way a
// metadata request would: ConsumeRequest returns the watermark and moves
// it on (the Iggy Go SDK's NextRequestID).
func ExampleSequencer_ConsumeRequest() {
	seq, _ := lifecycle.NewSequencer(codec.Uint128{Lo: 0x1111}, 5, 1)
	a, _ := seq.ConsumeRequest()
	b, _ := seq.ConsumeRequest()
	fmt.Println(a, b, "next:", seq.State().Next)

	unbound, _ := lifecycle.NewSequencer(codec.Uint128{Lo: 0x2222}, 0, 1)
	_, err := unbound.ConsumeRequest()
	fmt.Println(errors.Is(err, lifecycle.ErrNoSession))
	// Output:
	// 1 2 next: 3
	// true
}
