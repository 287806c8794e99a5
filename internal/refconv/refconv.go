// Package refconv converts values between package codec and the reference
// codec, internal/refcodec, so that the property suite (props) and the fuzz
// targets (fuzz) can compare the two. It lives apart from refcodec so that
// the reference never imports codec.
//
// A Uint128 converts directly (both are struct{ Lo, Hi uint64 }). Every
// other conversion copies field by field and keeps byte slices as they
// are: no copy, and a nil slice stays nil while an empty one stays empty.
// The one exception is a secret: codec.NewSecret and Secret.Bytes hold no
// empty secret, so a password or token that is empty (nil or not) comes
// out as the empty Secret in one direction and as nil in the other.
package refconv

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
)

// ToRefWindow converts a codec Window to the reference's.
func ToRefWindow(w codec.Window) refcodec.Window {
	return refcodec.Window{Min: uint32(w.Min), Max: uint32(w.Max), CountPatch: w.CountPatch}
}

// FromRefWindow converts a reference Window to codec's.
func FromRefWindow(r refcodec.Window) codec.Window {
	return codec.Window{Min: codec.Version(r.Min), Max: codec.Version(r.Max), CountPatch: r.CountPatch}
}

// ToRefInfo converts a codec ClientVersionInfo to the reference's.
func ToRefInfo(c codec.ClientVersionInfo) refcodec.ClientVersionInfo {
	return refcodec.ClientVersionInfo{Protocol: uint32(c.Protocol), SDKName: c.SDKName, SDKVersion: c.SDKVersion}
}

// FromRefInfo converts a reference ClientVersionInfo to codec's.
func FromRefInfo(r refcodec.ClientVersionInfo) codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: codec.Version(r.Protocol), SDKName: r.SDKName, SDKVersion: r.SDKVersion}
}

// ToRefLogin converts a codec LoginRegister to the reference's; an empty
// password becomes nil. The reference has no revision: its layout is
// whether a bind secret is there, which the caller's choice of decoder or
// encoder says.
func ToRefLogin(l codec.LoginRegister) refcodec.LoginRegister {
	return refcodec.LoginRegister{Info: ToRefInfo(l.Info), BindSecret: l.BindSecret.Bytes(), Username: l.Username,
		Password: l.Password.Bytes(), Context: l.Context}
}

// FromRefLogin converts a reference LoginRegister to codec's; an empty
// password becomes the empty Secret, and a bind secret makes the value
// RevisionBindSecret.
func FromRefLogin(r refcodec.LoginRegister) codec.LoginRegister {
	return codec.LoginRegister{Info: FromRefInfo(r.Info), Revision: revisionOf(r.BindSecret), BindSecret: codec.NewSecret(r.BindSecret),
		Username: r.Username, Password: codec.NewSecret(r.Password), Context: r.Context}
}

// revisionOf is the revision of a reference body: the bind-secret layout
// when it holds a secret.
func revisionOf(secret []byte) codec.Revision {
	if secret != nil {
		return codec.RevisionBindSecret
	}
	return codec.RevisionBase
}

// ToRefPAT converts a codec LoginRegisterPAT to the reference's; an empty
// token becomes nil.
func ToRefPAT(l codec.LoginRegisterPAT) refcodec.LoginRegisterPAT {
	return refcodec.LoginRegisterPAT{Info: ToRefInfo(l.Info), BindSecret: l.BindSecret.Bytes(), Token: l.Token.Bytes(), Context: l.Context}
}

// FromRefPAT converts a reference LoginRegisterPAT to codec's; an empty
// token becomes the empty Secret.
func FromRefPAT(r refcodec.LoginRegisterPAT) codec.LoginRegisterPAT {
	return codec.LoginRegisterPAT{Info: FromRefInfo(r.Info), Revision: revisionOf(r.BindSecret), BindSecret: codec.NewSecret(r.BindSecret),
		Token: codec.NewSecret(r.Token), Context: r.Context}
}

// ToRefReply converts a codec LoginReply to the reference's.
func ToRefReply(l codec.LoginReply) refcodec.LoginReply {
	return refcodec.LoginReply{UserID: l.UserID, Session: l.Session, ServerProtocol: uint32(l.ServerProtocol), ServerVersion: l.ServerVersion}
}

// FromRefReply converts a reference LoginReply to codec's.
func FromRefReply(r refcodec.LoginReply) codec.LoginReply {
	return codec.LoginReply{UserID: r.UserID, Session: r.Session, ServerProtocol: codec.Version(r.ServerProtocol), ServerVersion: r.ServerVersion}
}

// ToRefRequest converts a codec RequestHeader to the reference's.
func ToRefRequest(h codec.RequestHeader) refcodec.RequestHeader {
	return refcodec.RequestHeader{
		Checksum: refcodec.Uint128(h.Checksum), ChecksumBody: refcodec.Uint128(h.ChecksumBody), Cluster: refcodec.Uint128(h.Cluster),
		Size: h.Size, View: h.View, Release: h.Release, Replica: h.Replica,
		Client: refcodec.Uint128(h.Client), RequestChecksum: refcodec.Uint128(h.RequestChecksum),
		Timestamp: h.Timestamp, Request: h.Request, Operation: uint8(h.Operation),
		Session: h.Session, UserID: h.UserID, Code: uint32(h.Code),
	}
}

// FromRefRequest converts a reference RequestHeader to codec's.
func FromRefRequest(r refcodec.RequestHeader) codec.RequestHeader {
	return codec.RequestHeader{
		Checksum: codec.Uint128(r.Checksum), ChecksumBody: codec.Uint128(r.ChecksumBody), Cluster: codec.Uint128(r.Cluster),
		Size: r.Size, View: r.View, Release: r.Release, Replica: r.Replica,
		Client: codec.Uint128(r.Client), RequestChecksum: codec.Uint128(r.RequestChecksum),
		Timestamp: r.Timestamp, Request: r.Request, Operation: codec.Operation(r.Operation),
		Session: r.Session, UserID: r.UserID, Code: codec.Code(r.Code),
	}
}

// ToRefReplyHeader converts a codec ReplyHeader to the reference's.
func ToRefReplyHeader(h codec.ReplyHeader) refcodec.ReplyHeader {
	return refcodec.ReplyHeader{
		Checksum: refcodec.Uint128(h.Checksum), ChecksumBody: refcodec.Uint128(h.ChecksumBody), Cluster: refcodec.Uint128(h.Cluster),
		Size: h.Size, View: h.View, Release: h.Release, Replica: h.Replica,
		RequestChecksum: refcodec.Uint128(h.RequestChecksum), Context: refcodec.Uint128(h.Context), Client: refcodec.Uint128(h.Client),
		Op: h.Op, Commit: h.Commit, Timestamp: h.Timestamp, Request: h.Request,
		Operation: uint8(h.Operation), Status: uint32(h.Status),
	}
}

// FromRefReplyHeader converts a reference ReplyHeader to codec's.
func FromRefReplyHeader(r refcodec.ReplyHeader) codec.ReplyHeader {
	return codec.ReplyHeader{
		Checksum: codec.Uint128(r.Checksum), ChecksumBody: codec.Uint128(r.ChecksumBody), Cluster: codec.Uint128(r.Cluster),
		Size: r.Size, View: r.View, Release: r.Release, Replica: r.Replica,
		RequestChecksum: codec.Uint128(r.RequestChecksum), Context: codec.Uint128(r.Context), Client: codec.Uint128(r.Client),
		Op: r.Op, Commit: r.Commit, Timestamp: r.Timestamp, Request: r.Request,
		Operation: codec.Operation(r.Operation), Status: codec.Status(r.Status),
	}
}

// ToRefEviction converts a codec Eviction to the reference's.
func ToRefEviction(e codec.Eviction) refcodec.Eviction {
	return refcodec.Eviction{
		Checksum: refcodec.Uint128(e.Checksum), ChecksumBody: refcodec.Uint128(e.ChecksumBody), Cluster: refcodec.Uint128(e.Cluster),
		View: e.View, Release: e.Release, Replica: e.Replica,
		Client: refcodec.Uint128(e.Client), Window: ToRefWindow(e.Window), Reason: uint8(e.Reason),
	}
}

// FromRefEviction converts a reference Eviction to codec's.
func FromRefEviction(r refcodec.Eviction) codec.Eviction {
	return codec.Eviction{
		Checksum: codec.Uint128(r.Checksum), ChecksumBody: codec.Uint128(r.ChecksumBody), Cluster: codec.Uint128(r.Cluster),
		View: r.View, Release: r.Release, Replica: r.Replica,
		Client: codec.Uint128(r.Client), Window: FromRefWindow(r.Window),
		Reason: codec.EvictionReason(r.Reason),
	}
}

// ToRefBind converts a codec BindSession to the reference's; an empty
// bind secret becomes nil.
func ToRefBind(b codec.BindSession) refcodec.BindSession {
	return refcodec.BindSession{Info: ToRefInfo(b.Info), ClientID: refcodec.Uint128(b.ClientID), Session: b.Session,
		MetadataWatermark: b.MetadataWatermark, BindSecret: b.BindSecret.Bytes()}
}

// FromRefBind converts a reference BindSession to codec's.
func FromRefBind(r refcodec.BindSession) codec.BindSession {
	return codec.BindSession{Info: FromRefInfo(r.Info), ClientID: codec.Uint128(r.ClientID), Session: r.Session,
		MetadataWatermark: r.MetadataWatermark, BindSecret: codec.NewSecret(r.BindSecret)}
}
