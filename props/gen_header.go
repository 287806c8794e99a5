package props

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
)

// u64Edges are the u64 values a bug hides behind.
var u64Edges = []uint64{0, 1, 2, 0xFF, 1 << 32, 1<<63 - 1, 1 << 63, ^uint64(0)}

// GenUint128 generates any u128, half the time with only its low or only
// its high half set; it shrinks each half towards 0.
func GenUint128() gopter.Gen {
	return derive(
		func(lo, hi uint64) codec.Uint128 { return codec.Uint128{Lo: lo, Hi: hi} },
		func(u codec.Uint128) (uint64, uint64) { return u.Lo, u.Hi },
		pick[uint64](0, ^uint64(0), u64Edges...), pick[uint64](0, ^uint64(0), u64Edges...),
	)
}

// GenClient generates a client id: a non-zero u128 with only the low half,
// only the high half, or both set. Shrinking keeps it non-zero: the
// shrinker itself skips zero, so the rule holds even where gopter does not
// apply a sieve to shrunk values (the commands of a stateful property after
// their first shrink, or a gen.Struct field).
func GenClient() gopter.Gen {
	nonZero := func(v interface{}) bool { return !v.(codec.Uint128).IsZero() }
	// A zero becomes 1 rather than being sieved out: a sieve makes the
	// generator return no value at all for some seeds when it is called
	// directly, outside a property's retries.
	return GenUint128().MapResult(func(r *gopter.GenResult) *gopter.GenResult {
		if v, ok := r.Retrieve(); ok && v.(codec.Uint128).IsZero() {
			r.Result = codec.Uint128{Lo: 1}
		}
		inner := r.Shrinker
		r.Shrinker = func(v interface{}) gopter.Shrink { return inner(v).Filter(nonZero) }
		return r
	})
}

// GenFrameSize generates a frame size in 256..64 MiB, often at an edge.
func GenFrameSize() gopter.Gen {
	return pick[uint32](codec.HeaderSize, codec.MaxFrameSize,
		codec.HeaderSize, codec.HeaderSize+1, codec.HeaderSize+4, codec.MaxFrameSize-1, codec.MaxFrameSize)
}

// requestOperations lists every operation a request may carry: the known
// values but 0.
var requestOperations = func() []codec.Operation {
	var ops []codec.Operation
	for o := 1; o < 256; o++ {
		if codec.Operation(o).IsKnown() {
			ops = append(ops, codec.Operation(o))
		}
	}
	return ops
}()

// prologue is the part of every header the wire carries but nobody checks.
type prologue struct {
	Checksum, ChecksumBody, Cluster codec.Uint128
	View, Release                   uint32
	Replica                         uint8
}

// genPrologue generates the carried-as-is fields; they shrink to zero.
func genPrologue() gopter.Gen {
	u32 := pick[uint32](0, ^uint32(0), 0, 1, ^uint32(0))
	return derive(
		func(c, cb, cl codec.Uint128, view, release uint32, replica uint8) prologue {
			return prologue{c, cb, cl, view, release, replica}
		},
		func(p prologue) (codec.Uint128, codec.Uint128, codec.Uint128, uint32, uint32, uint8) {
			return p.Checksum, p.ChecksumBody, p.Cluster, p.View, p.Release, p.Replica
		},
		GenUint128(), GenUint128(), GenUint128(), u32, u32, pick[uint8](0, 255, 0, 1, 255),
	)
}

// requestCore is a request header's own fields.
type requestCore struct {
	Size                    uint32
	Client, RequestChecksum codec.Uint128
	Timestamp, Request      uint64
	OpIndex                 uint8
	Session                 uint64
	UserID                  uint32
	Code                    codec.Code
}

// GenRequestHeader generates a valid request header for every operation:
// Register with session and request 0, NonReplicated with a non-zero code
// (the lifecycle's codes half the time) and any session and request, every
// other operation with both non-zero. Shrinking keeps these rules.
func GenRequestHeader() gopter.Gen {
	u64 := pick[uint64](0, ^uint64(0), u64Edges...)
	core := derive(
		func(size uint32, client, rc codec.Uint128, ts, req uint64, op uint8, session uint64, user uint32, code uint32) requestCore {
			return requestCore{size, client, rc, ts, req, op, session, user, codec.Code(code)}
		},
		func(c requestCore) (uint32, codec.Uint128, codec.Uint128, uint64, uint64, uint8, uint64, uint32, uint32) {
			return c.Size, c.Client, c.RequestChecksum, c.Timestamp, c.Request, c.OpIndex, c.Session, c.UserID, uint32(c.Code)
		},
		GenFrameSize(), GenClient(), GenUint128(), u64, u64,
		pick[uint8](0, uint8(len(requestOperations)-1), 0, 1, 2),
		u64, pick[uint32](0, ^uint32(0), 0, 1), pick[uint32](1, ^uint32(0), 1, 12, 38, 39, 40, 44, 45, ^uint32(0)),
	)
	return derive(buildRequest, splitRequest, genPrologue(), core).SuchThat(validRequest)
}

// buildRequest assembles a header from its parts, applying the rules of
// its operation: Register clears session and request, any other operation
// but NonReplicated clears the code and makes session and request non-zero.
func buildRequest(p prologue, c requestCore) codec.RequestHeader {
	op := requestOperations[int(c.OpIndex)%len(requestOperations)]
	h := codec.RequestHeader{
		Checksum: p.Checksum, ChecksumBody: p.ChecksumBody, Cluster: p.Cluster,
		Size: c.Size, View: p.View, Release: p.Release, Replica: p.Replica,
		Client: c.Client, RequestChecksum: c.RequestChecksum, Timestamp: c.Timestamp,
		Request: c.Request, Operation: op, Session: c.Session, UserID: c.UserID, Code: c.Code,
	}
	switch op {
	case codec.OperationRegister:
		h.Session, h.Request, h.Code = 0, 0, 0
	case codec.OperationNonReplicated:
	default:
		h.Code = 0
		h.Session, h.Request = max(h.Session, 1), max(h.Request, 1)
	}
	return h
}

func splitRequest(h codec.RequestHeader) (prologue, requestCore) {
	idx := 0
	for i, o := range requestOperations {
		if o == h.Operation {
			idx = i
		}
	}
	return prologue{h.Checksum, h.ChecksumBody, h.Cluster, h.View, h.Release, h.Replica},
		requestCore{h.Size, h.Client, h.RequestChecksum, h.Timestamp, h.Request, uint8(idx), h.Session, h.UserID, h.Code}
}

// validRequest is WIRE.md section 5's request rules, restated here so that
// shrinking cannot leave them whatever the codec says.
func validRequest(h codec.RequestHeader) bool {
	if h.Size < codec.HeaderSize || h.Size > codec.MaxFrameSize || h.Client.IsZero() {
		return false
	}
	switch {
	case h.Operation == codec.OperationRegister:
		return h.Session == 0 && h.Request == 0 && h.Code == 0
	case h.Operation == codec.OperationNonReplicated:
		return h.Code != 0
	}
	return h.Session > 0 && h.Request > 0 && h.Code == 0
}

// replyCore is a reply header's own fields.
type replyCore struct {
	Size                             uint32
	RequestChecksum, Context, Client codec.Uint128
	Op, Commit, Timestamp, Request   uint64
	OpIndex                          uint8
	Status                           uint32
}

// GenReplyHeader generates a valid reply header: any known operation (0
// included, a reply may echo it), status 0 with any size, or a non-zero
// status (the lifecycle's, half the time) with size 256.
func GenReplyHeader() gopter.Gen {
	u64 := pick[uint64](0, ^uint64(0), u64Edges...)
	ops := append([]codec.Operation{codec.OperationReserved}, requestOperations...)
	core := derive(
		func(size uint32, rc, ctx, client codec.Uint128, op, commit, ts, req uint64, opIdx uint8, status uint32) replyCore {
			return replyCore{size, rc, ctx, client, op, commit, ts, req, opIdx, status}
		},
		func(c replyCore) (uint32, codec.Uint128, codec.Uint128, codec.Uint128, uint64, uint64, uint64, uint64, uint8, uint32) {
			return c.Size, c.RequestChecksum, c.Context, c.Client, c.Op, c.Commit, c.Timestamp, c.Request, c.OpIndex, c.Status
		},
		GenFrameSize(), GenUint128(), GenUint128(), GenUint128(), u64, u64, u64, u64,
		pick[uint8](0, uint8(len(ops)-1), 0, 1, 2, 3),
		pick[uint32](0, ^uint32(0), 0, 0, 0, 3, 4, 30, 40, 42, 53, ^uint32(0)),
	)
	build := func(p prologue, c replyCore) codec.ReplyHeader {
		h := codec.ReplyHeader{
			Checksum: p.Checksum, ChecksumBody: p.ChecksumBody, Cluster: p.Cluster,
			Size: c.Size, View: p.View, Release: p.Release, Replica: p.Replica,
			RequestChecksum: c.RequestChecksum, Context: c.Context, Client: c.Client,
			Op: c.Op, Commit: c.Commit, Timestamp: c.Timestamp, Request: c.Request,
			Operation: ops[int(c.OpIndex)%len(ops)], Status: codec.Status(c.Status),
		}
		if h.Status != 0 {
			h.Size = codec.HeaderSize
		}
		return h
	}
	split := func(h codec.ReplyHeader) (prologue, replyCore) {
		idx := 0
		for i, o := range ops {
			if o == h.Operation {
				idx = i
			}
		}
		return prologue{h.Checksum, h.ChecksumBody, h.Cluster, h.View, h.Release, h.Replica},
			replyCore{h.Size, h.RequestChecksum, h.Context, h.Client, h.Op, h.Commit, h.Timestamp, h.Request, uint8(idx), uint32(h.Status)}
	}
	return derive(build, split, genPrologue(), core)
}

// GenReason generates any of the 16 reasons 0..15 (0 is not valid on the
// wire), shrinking towards 1.
func GenReason() gopter.Gen {
	return pick[uint8](0, 15).Map(func(r uint8) codec.EvictionReason { return codec.EvictionReason(r) }).
		WithShrinker(func(v interface{}) gopter.Shrink {
			return shrinkList(towards(codec.ReasonNoSession, v.(codec.EvictionReason)))
		})
}

// GenEviction generates a valid eviction for each of the 15 reasons that
// may travel: a zero window, except reason 14 which carries a well-formed
// window; any client id but 0, and any carried prologue.
func GenEviction() gopter.Gen {
	build := func(p prologue, client codec.Uint128, reason uint8, w codec.Window) codec.Eviction {
		e := codec.Eviction{
			Checksum: p.Checksum, ChecksumBody: p.ChecksumBody, Cluster: p.Cluster,
			View: p.View, Release: p.Release, Replica: p.Replica,
			Client: client, Reason: codec.EvictionReason(reason),
		}
		if e.Reason == codec.ReasonIncompatibleProtocol {
			e.Window = w
		}
		return e
	}
	split := func(e codec.Eviction) (prologue, codec.Uint128, uint8, codec.Window) {
		w := e.Window
		if w == (codec.Window{}) {
			w = codec.Window{Min: 1, Max: 1}
		}
		return prologue{e.Checksum, e.ChecksumBody, e.Cluster, e.View, e.Release, e.Replica}, e.Client, uint8(e.Reason), w
	}
	return derive(build, split, genPrologue(), GenClient(),
		pick[uint8](1, 15, 14, 14, 14, 15, 1), GenValidWindow())
}
