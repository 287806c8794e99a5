package props

import (
	"bytes"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/internal/refconv"
	"github.com/leanovate/gopter"
)

// message is every codec message type.
type message interface {
	AppendBinary(dst []byte) ([]byte, error)
	EncodedLen() int
}

// kind is one message type with everything a property needs to drive it:
// its generator, the codec's decoders, the reference decoder (converted to
// codec types) and an equality that treats nil and empty alike.
type kind[T interface {
	Message
	EncodedLen() int
}] struct {
	name   string
	gen    func() gopter.Gen
	decode func([]byte) (T, int, error) // prefix decode; headers report 256
	parse  func([]byte) (T, error)      // strict parse; nil for headers
	ref    func([]byte) (T, int, error) // the reference's prefix decode
	refPar func([]byte) (T, error)      // the reference's strict parse; nil for headers
	equal  func(a, b T) bool
}

// propKind is a kind with its type parameter hidden, so that one table can
// list every message type.
type propKind interface {
	Name() string
	isHeader() bool
	roundTrip() gopter.Prop
	canonical(accepted *int) gopter.Prop
	prefixAgreement() gopter.Prop
	rejectPrefixes() gopter.Prop
	rejectHostile(counts map[string]int) gopter.Prop
	differential(hostile bool) gopter.Prop
}

func (k kind[T]) Name() string   { return k.name }
func (k kind[T]) isHeader() bool { return k.parse == nil }

// forEachKind runs check as a parallel subtest of t, named after the kind,
// for every kind.
func forEachKind(t *testing.T, check func(t *testing.T, k propKind)) {
	t.Parallel()
	for _, k := range kinds() {
		t.Run(k.Name(), func(t *testing.T) {
			t.Parallel()
			check(t, k)
		})
	}
}

// kinds lists every body and header type.
func kinds() []propKind {
	return []propKind{
		kind[codec.ClientVersionInfo]{"ClientVersionInfo", GenClientVersionInfo,
			codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo,
			refDecode(refcodec.DecodeClientVersionInfo, refconv.FromRefInfo),
			refParse(refcodec.ParseClientVersionInfo, refconv.FromRefInfo), equalInfo},
		kind[codec.LoginRegister]{"LoginRegister", GenLoginRegister,
			codec.DecodeLoginRegister, codec.ParseLoginRegister,
			refDecode(refcodec.DecodeLoginRegister, refconv.FromRefLogin),
			refParse(refcodec.ParseLoginRegister, refconv.FromRefLogin), equalLogin},
		kind[codec.LoginRegisterPAT]{"LoginRegisterPAT", GenLoginRegisterPAT,
			codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT,
			refDecode(refcodec.DecodeLoginRegisterPAT, refconv.FromRefPAT),
			refParse(refcodec.ParseLoginRegisterPAT, refconv.FromRefPAT), equalPAT},
		kind[codec.LoginReply]{"LoginReply", GenLoginReply,
			codec.DecodeLoginReply, codec.ParseLoginReply,
			refDecode(refcodec.DecodeLoginReply, refconv.FromRefReply),
			refParse(refcodec.ParseLoginReply, refconv.FromRefReply), equalReplyBody},
		kind[codec.RequestHeader]{"RequestHeader", GenRequestHeader,
			headerDecode(codec.DecodeRequestHeader), nil,
			headerDecode(refParse(refcodec.DecodeRequestHeader, refconv.FromRefRequest)), nil, equalComparable[codec.RequestHeader]},
		kind[codec.ReplyHeader]{"ReplyHeader", GenReplyHeader,
			headerDecode(codec.DecodeReplyHeader), nil,
			headerDecode(refParse(refcodec.DecodeReplyHeader, refconv.FromRefReplyHeader)), nil, equalComparable[codec.ReplyHeader]},
		kind[codec.Eviction]{"Eviction", GenEviction,
			headerDecode(codec.DecodeEviction), nil,
			headerDecode(refParse(refcodec.DecodeEviction, refconv.FromRefEviction)), nil, equalComparable[codec.Eviction]},
	}
}

// headerDecode gives a header decoder the shape of a prefix decoder: on
// success it used exactly the 256 header bytes.
func headerDecode[T any](f func([]byte) (T, error)) func([]byte) (T, int, error) {
	return func(b []byte) (T, int, error) {
		v, err := f(b)
		if err != nil {
			return v, 0, err
		}
		return v, codec.HeaderSize, nil
	}
}

func refDecode[R, T any](f func([]byte) (R, int, error), conv func(R) T) func([]byte) (T, int, error) {
	return func(b []byte) (T, int, error) {
		r, n, err := f(b)
		return conv(r), n, err
	}
}

// refParse converts a reference decoder without a byte count (a strict
// parse, or a header decode) to codec types.
func refParse[R, T any](f func([]byte) (R, error), conv func(R) T) func([]byte) (T, error) {
	return func(b []byte) (T, error) {
		r, err := f(b)
		return conv(r), err
	}
}

func equalInfo(a, b codec.ClientVersionInfo) bool {
	return a.Protocol == b.Protocol && bytes.Equal(a.SDKName, b.SDKName) && bytes.Equal(a.SDKVersion, b.SDKVersion)
}

func equalLogin(a, b codec.LoginRegister) bool {
	return equalInfo(a.Info, b.Info) && bytes.Equal(a.Username, b.Username) &&
		bytes.Equal(a.Password.Bytes(), b.Password.Bytes()) && bytes.Equal(a.Context, b.Context)
}

func equalPAT(a, b codec.LoginRegisterPAT) bool {
	return equalInfo(a.Info, b.Info) && bytes.Equal(a.Token.Bytes(), b.Token.Bytes()) && bytes.Equal(a.Context, b.Context)
}

func equalReplyBody(a, b codec.LoginReply) bool {
	return a.UserID == b.UserID && a.Session == b.Session && a.ServerProtocol == b.ServerProtocol &&
		bytes.Equal(a.ServerVersion, b.ServerVersion)
}

func equalComparable[T comparable](a, b T) bool { return a == b }
