package fuzz

import (
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// headerAPI is the API every 256-byte header type offers.
type headerAPI[T any] struct {
	name    string
	command codec.Command
	decode  func([]byte) (T, error)
	// decodeInto is the in-place Decode method, and dirty a value with
	// every field set that it decodes over: it must leave nothing of it.
	decodeInto func(*T, []byte) error
	dirty      T
	appendTo   func(*T, []byte) ([]byte, error)
	validate   func(T) error
	encLen     func(T) int
	size       func(T) uint32 // the size the header carries
	// lenient is the client's decoder (nil if the kind has none), and
	// loaded says whether a value it returned with an error holds what the
	// header's field views read from the same bytes.
	lenient func([]byte) (T, error)
	loaded  func(T, *codec.Header) bool
}

// checkHeader holds one input to every invariant of a header's API.
func checkHeader[T any](t *testing.T, api headerAPI[T], src []byte) {
	h, err := api.decode(src)
	if api.lenient != nil {
		checkLenient(t, api, src, h, err)
	}
	into := api.dirty
	intoErr := api.decodeInto(&into, src)
	sameErr(t, api.name+": in-place Decode", intoErr, err)
	if !reflect.DeepEqual(into, h) {
		t.Fatalf("%s: in-place Decode gives %+v, the function %+v", api.name, into, h)
	}
	if len(src) >= codec.HeaderSize {
		// Only the first 256 bytes are the header; what follows is body.
		h2, err2 := api.decode(src[:codec.HeaderSize])
		sameErr(t, api.name+": decode of the first 256 bytes", err2, err)
		if !reflect.DeepEqual(h2, h) {
			t.Fatalf("%s: decode depends on bytes after the header", api.name)
		}
	}
	if err != nil {
		checkHeaderErr(t, api, src, err)
		if !reflect.ValueOf(h).IsZero() {
			t.Fatalf("%s: failed decode returned a non-zero value", api.name)
		}
		return
	}
	if err := api.validate(h); err != nil {
		t.Fatalf("%s: decoded header fails Validate: %v", api.name, err)
	}
	if n := api.encLen(h); n != codec.HeaderSize {
		t.Fatalf("%s: EncodedLen %d", api.name, n)
	}
	out, err := api.appendTo(&h, dirtyPrefix(codec.HeaderSize))
	if err != nil {
		t.Fatalf("%s: decoded header fails AppendBinary: %v", api.name, err)
	}
	checkAppended(t, api.name, out, src[:codec.HeaderSize])
	checkAPIs(t, api.name, h, src[:codec.HeaderSize])
	if c, err := codec.PeekCommand(src); err != nil || c != api.command {
		t.Fatalf("%s: PeekCommand = %v, %v", api.name, c, err)
	}
	if n, err := codec.FrameSize(src); err != nil || uint32(n) != api.size(h) {
		t.Fatalf("%s: FrameSize = %d, %v; header says %d", api.name, n, err, api.size(h))
	}
}

// checkLenient holds the lenient decoder to the strict one: the same
// error; the same value when there is none; the zero value when the input
// is not a whole header of its command; otherwise every field as loaded
// from the bytes, which the field views read independently.
func checkLenient[T any](t *testing.T, api headerAPI[T], src []byte, strict T, strictErr error) {
	l, err := api.lenient(src)
	sameErr(t, api.name+": lenient decode", err, strictErr)
	switch {
	case strictErr == nil:
		if !reflect.DeepEqual(l, strict) {
			t.Fatalf("%s: lenient decode of a valid header gives %+v, the strict one %+v", api.name, l, strict)
		}
	case len(src) < codec.HeaderSize || codec.Command(src[60]) != api.command:
		if !reflect.ValueOf(l).IsZero() {
			t.Fatalf("%s: lenient decode of no header gives %+v", api.name, l)
		}
	default:
		if !api.loaded(l, (*codec.Header)(src)) {
			t.Fatalf("%s: lenient decode gives %+v, not what the field views read", api.name, l)
		}
	}
}

// checkHeaderErr checks the first two rules every header decode applies.
func checkHeaderErr[T any](t *testing.T, api headerAPI[T], src []byte, err error) {
	ce := checkErr(t, err, min(len(src), codec.HeaderSize))
	switch {
	case len(src) < codec.HeaderSize:
		if ce.Err != codec.ErrTruncated || ce.Offset != len(src) {
			t.Fatalf("%s: short input gives %v, want ErrTruncated at %d", api.name, err, len(src))
		}
	case codec.Command(src[60]) != api.command:
		if ce.Err != codec.ErrCommand {
			t.Fatalf("%s: command byte %d gives %v, want ErrCommand", api.name, src[60], err)
		}
	case ce.Err == codec.ErrTruncated || ce.Err == codec.ErrCommand:
		t.Fatalf("%s: full header with the right command gives %v", api.name, err)
	}
}

var requestAPI = headerAPI[codec.RequestHeader]{
	name:       "RequestHeader",
	command:    codec.CommandRequest,
	decode:     codec.DecodeRequestHeader,
	decodeInto: (*codec.RequestHeader).Decode,
	dirty: codec.RequestHeader{
		Checksum: codec.Uint128From(1), ChecksumBody: codec.Uint128From(2), Cluster: codec.Uint128From(3),
		Size: 300, View: 4, Release: 5, Replica: 6, Client: codec.Uint128From(7), RequestChecksum: codec.Uint128From(8),
		Timestamp: 9, Request: 10, Operation: codec.OperationNonReplicated, Session: 11, UserID: 12, Code: 13,
	},
	appendTo: (*codec.RequestHeader).AppendBinary,
	validate: codec.RequestHeader.Validate,
	encLen:   codec.RequestHeader.EncodedLen,
	size:     func(h codec.RequestHeader) uint32 { return h.Size },
}

var replyAPI = headerAPI[codec.ReplyHeader]{
	name:       "ReplyHeader",
	command:    codec.CommandReply,
	decode:     codec.DecodeReplyHeader,
	decodeInto: (*codec.ReplyHeader).Decode,
	dirty: codec.ReplyHeader{
		Checksum: codec.Uint128From(1), ChecksumBody: codec.Uint128From(2), Cluster: codec.Uint128From(3),
		Size: 300, View: 4, Release: 5, Replica: 6, RequestChecksum: codec.Uint128From(7), Context: codec.Uint128From(8),
		Client: codec.Uint128From(9), Op: 10, Commit: 11, Timestamp: 12, Request: 13,
		Operation: codec.OperationNonReplicated, Status: 14,
	},
	appendTo: (*codec.ReplyHeader).AppendBinary,
	validate: codec.ReplyHeader.Validate,
	encLen:   codec.ReplyHeader.EncodedLen,
	size:     func(h codec.ReplyHeader) uint32 { return h.Size },
	lenient:  codec.DecodeReplyHeaderLenient,
	loaded: func(h codec.ReplyHeader, b *codec.Header) bool {
		f := b.Reply()
		return h.Size == b.Size() && h.Client == f.Client() && h.Request == f.Request() &&
			h.Operation == f.Operation() && h.Status == f.Status()
	},
}

var evictionAPI = headerAPI[codec.Eviction]{
	name:       "Eviction",
	command:    codec.CommandEviction,
	decode:     codec.DecodeEviction,
	decodeInto: (*codec.Eviction).Decode,
	dirty: codec.Eviction{
		Checksum: codec.Uint128From(1), ChecksumBody: codec.Uint128From(2), Cluster: codec.Uint128From(3),
		View: 4, Release: 5, Replica: 6, Client: codec.Uint128From(7),
		Window: codec.Window{Max: 8, Min: 9}, Reason: codec.ReasonIncompatibleProtocol,
	},
	appendTo: (*codec.Eviction).AppendBinary,
	validate: codec.Eviction.Validate,
	encLen:   codec.Eviction.EncodedLen,
	size:     func(codec.Eviction) uint32 { return codec.HeaderSize },
	lenient:  codec.DecodeEvictionLenient,
	loaded: func(e codec.Eviction, b *codec.Header) bool {
		f := b.Eviction()
		return e.Client == f.Client() && e.Reason == f.Reason() && e.Window == f.Window()
	},
}

// fuzzHeader fuzzes one header type: every invariant of its API, then its
// own rules on every header that decodes.
func fuzzHeader[T any](f *testing.F, api headerAPI[T], rules func(*testing.T, T)) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, src []byte) {
		checkHeader(t, api, src)
		if h, err := api.decode(src); err == nil {
			rules(t, h)
		}
	})
}

func FuzzRequestHeader(f *testing.F) { fuzzHeader(f, requestAPI, checkRequestRules) }

// checkRequestRules restates the wire reference's request rules on a
// decoded header, independently of how Validate is written.
func checkRequestRules(t *testing.T, h codec.RequestHeader) {
	ok := !h.Client.IsZero() && h.Operation.IsKnown() && h.Operation != codec.OperationReserved
	switch h.Operation {
	case codec.OperationRegister:
		ok = ok && h.Session == 0 && h.Request == 0 && h.Code == 0
	case codec.OperationNonReplicated:
		ok = ok && h.Code != 0
	default:
		ok = ok && h.Session > 0 && h.Request > 0 && h.Code == 0
	}
	if !ok {
		t.Fatalf("decoded request header breaks a rule: %+v", h)
	}
}

func FuzzReplyHeader(f *testing.F) { fuzzHeader(f, replyAPI, checkReplyRules) }

// checkReplyRules restates the wire reference's reply rules on a decoded
// header.
func checkReplyRules(t *testing.T, h codec.ReplyHeader) {
	if !h.Operation.IsKnown() || (h.Status != codec.StatusOK && h.Size != codec.HeaderSize) {
		t.Fatalf("decoded reply header breaks a rule: %+v", h)
	}
}

func FuzzEviction(f *testing.F) { fuzzHeader(f, evictionAPI, checkEvictionRules) }

// checkEvictionRules restates the eviction rules and what each reason
// means to a client (wire reference section 8).
func checkEvictionRules(t *testing.T, e codec.Eviction) {
	if e.Client.IsZero() || e.Reason < 1 || e.Reason > 15 {
		t.Fatalf("decoded eviction breaks a rule: %+v", e)
	}
	w := e.Window
	if e.Reason == codec.ReasonIncompatibleProtocol {
		if !(1 <= w.Min && w.Min <= w.Max) {
			t.Fatalf("reason 14 with an ill-formed window decoded: %v", w)
		}
		if _, ok := e.Err().(*codec.IncompatibleProtocolError); !ok {
			t.Fatalf("reason 14 means %v, want IncompatibleProtocolError", e.Err())
		}
		return
	}
	if w != (codec.Window{}) {
		t.Fatalf("reason %d with a non-zero window decoded: %v", e.Reason, w)
	}
	if _, ok := e.Err().(*codec.IggyError); !ok {
		t.Fatalf("reason %d means %v, want a Status", e.Reason, e.Err())
	}
}
