package props

import (
	"bytes"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/leanovate/gopter"
)

// message is every codec message type.
type message interface {
	AppendTo(dst []byte) ([]byte, error)
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

// kinds lists every body and header type.
func kinds() []propKind {
	return []propKind{
		kind[codec.ClientVersionInfo]{"ClientVersionInfo", GenClientVersionInfo,
			codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo,
			refDecode(refcodec.DecodeClientVersionInfo, infoFromRef),
			refParse(refcodec.ParseClientVersionInfo, infoFromRef), equalInfo},
		kind[codec.LoginRegister]{"LoginRegister", GenLoginRegister,
			codec.DecodeLoginRegister, codec.ParseLoginRegister,
			refDecode(refcodec.DecodeLoginRegister, loginFromRef),
			refParse(refcodec.ParseLoginRegister, loginFromRef), equalLogin},
		kind[codec.LoginRegisterPAT]{"LoginRegisterPAT", GenLoginRegisterPAT,
			codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT,
			refDecode(refcodec.DecodeLoginRegisterPAT, patFromRef),
			refParse(refcodec.ParseLoginRegisterPAT, patFromRef), equalPAT},
		kind[codec.LoginReply]{"LoginReply", GenLoginReply,
			codec.DecodeLoginReply, codec.ParseLoginReply,
			refDecode(refcodec.DecodeLoginReply, replyBodyFromRef),
			refParse(refcodec.ParseLoginReply, replyBodyFromRef), equalReplyBody},
		kind[codec.RequestHeader]{"RequestHeader", GenRequestHeader,
			headerDecode(codec.DecodeRequestHeader), nil,
			headerDecode(refHeader(refcodec.DecodeRequestHeader, requestFromRef)), nil, equalComparable[codec.RequestHeader]},
		kind[codec.ReplyHeader]{"ReplyHeader", GenReplyHeader,
			headerDecode(codec.DecodeReplyHeader), nil,
			headerDecode(refHeader(refcodec.DecodeReplyHeader, replyFromRef)), nil, equalComparable[codec.ReplyHeader]},
		kind[codec.Eviction]{"Eviction", GenEviction,
			headerDecode(codec.DecodeEviction), nil,
			headerDecode(refHeader(refcodec.DecodeEviction, evictionFromRef)), nil, equalComparable[codec.Eviction]},
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

func refParse[R, T any](f func([]byte) (R, error), conv func(R) T) func([]byte) (T, error) {
	return func(b []byte) (T, error) {
		r, err := f(b)
		return conv(r), err
	}
}

func refHeader[R, T any](f func([]byte) (R, error), conv func(R) T) func([]byte) (T, error) {
	return func(b []byte) (T, error) {
		r, err := f(b)
		return conv(r), err
	}
}

func infoFromRef(r refcodec.ClientVersionInfo) codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: codec.Version(r.Protocol), SDKName: r.SDKName, SDKVersion: r.SDKVersion}
}

func loginFromRef(r refcodec.LoginRegister) codec.LoginRegister {
	return codec.LoginRegister{Info: infoFromRef(r.Info), Username: r.Username, Password: codec.NewSecret(r.Password), Context: r.Context}
}

func patFromRef(r refcodec.LoginRegisterPAT) codec.LoginRegisterPAT {
	return codec.LoginRegisterPAT{Info: infoFromRef(r.Info), Token: codec.NewSecret(r.Token), Context: r.Context}
}

func replyBodyFromRef(r refcodec.LoginReply) codec.LoginReply {
	return codec.LoginReply{UserID: r.UserID, Session: r.Session, ServerProtocol: codec.Version(r.ServerProtocol), ServerVersion: r.ServerVersion}
}

func u128(r refcodec.Uint128) codec.Uint128 { return codec.Uint128{Lo: r.Lo, Hi: r.Hi} }

func requestFromRef(r refcodec.RequestHeader) codec.RequestHeader {
	return codec.RequestHeader{
		Checksum: u128(r.Checksum), ChecksumBody: u128(r.ChecksumBody), Cluster: u128(r.Cluster),
		Size: r.Size, View: r.View, Release: r.Release, Replica: r.Replica,
		Client: u128(r.Client), RequestChecksum: u128(r.RequestChecksum), Timestamp: r.Timestamp,
		Request: r.Request, Operation: codec.Operation(r.Operation), Session: r.Session,
		UserID: r.UserID, Code: codec.Code(r.Code),
	}
}

func replyFromRef(r refcodec.ReplyHeader) codec.ReplyHeader {
	return codec.ReplyHeader{
		Checksum: u128(r.Checksum), ChecksumBody: u128(r.ChecksumBody), Cluster: u128(r.Cluster),
		Size: r.Size, View: r.View, Release: r.Release, Replica: r.Replica,
		RequestChecksum: u128(r.RequestChecksum), Context: u128(r.Context), Client: u128(r.Client),
		Op: r.Op, Commit: r.Commit, Timestamp: r.Timestamp, Request: r.Request,
		Operation: codec.Operation(r.Operation), Status: codec.Status(r.Status),
	}
}

func evictionFromRef(r refcodec.Eviction) codec.Eviction {
	return codec.Eviction{
		Checksum: u128(r.Checksum), ChecksumBody: u128(r.ChecksumBody), Cluster: u128(r.Cluster),
		View: r.View, Release: r.Release, Replica: r.Replica, Client: u128(r.Client),
		Window: codec.Window{Min: codec.Version(r.Window.Min), Max: codec.Version(r.Window.Max)},
		Reason: codec.EvictionReason(r.Reason),
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
