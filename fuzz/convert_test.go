package fuzz

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
)

// The ref* functions convert codec values to the reference's types, so
// the two can be compared with reflect.DeepEqual. Both decode an empty
// field as nil.

func refU128(u codec.Uint128) refcodec.Uint128 { return refcodec.Uint128{Lo: u.Lo, Hi: u.Hi} }

func refWindow(w codec.Window) refcodec.Window {
	return refcodec.Window{Min: uint32(w.Min), Max: uint32(w.Max)}
}

func refInfo(c codec.ClientVersionInfo) refcodec.ClientVersionInfo {
	return refcodec.ClientVersionInfo{Protocol: uint32(c.Protocol), SDKName: c.SDKName, SDKVersion: c.SDKVersion}
}

func refLogin(l codec.LoginRegister) refcodec.LoginRegister {
	return refcodec.LoginRegister{Info: refInfo(l.Info), Username: l.Username, Password: l.Password.Bytes(), Context: l.Context}
}

func refPAT(l codec.LoginRegisterPAT) refcodec.LoginRegisterPAT {
	return refcodec.LoginRegisterPAT{Info: refInfo(l.Info), Token: l.Token.Bytes(), Context: l.Context}
}

func refReply(l codec.LoginReply) refcodec.LoginReply {
	return refcodec.LoginReply{UserID: l.UserID, Session: l.Session, ServerProtocol: uint32(l.ServerProtocol), ServerVersion: l.ServerVersion}
}

func refRequest(h codec.RequestHeader) refcodec.RequestHeader {
	return refcodec.RequestHeader{
		Checksum: refU128(h.Checksum), ChecksumBody: refU128(h.ChecksumBody), Cluster: refU128(h.Cluster),
		Size: h.Size, View: h.View, Release: h.Release, Replica: h.Replica,
		Client: refU128(h.Client), RequestChecksum: refU128(h.RequestChecksum),
		Timestamp: h.Timestamp, Request: h.Request, Operation: uint8(h.Operation),
		Session: h.Session, UserID: h.UserID, Code: uint32(h.Code),
	}
}

func refReplyHeader(h codec.ReplyHeader) refcodec.ReplyHeader {
	return refcodec.ReplyHeader{
		Checksum: refU128(h.Checksum), ChecksumBody: refU128(h.ChecksumBody), Cluster: refU128(h.Cluster),
		Size: h.Size, View: h.View, Release: h.Release, Replica: h.Replica,
		RequestChecksum: refU128(h.RequestChecksum), Context: refU128(h.Context), Client: refU128(h.Client),
		Op: h.Op, Commit: h.Commit, Timestamp: h.Timestamp, Request: h.Request,
		Operation: uint8(h.Operation), Status: uint32(h.Status),
	}
}

func refEviction(e codec.Eviction) refcodec.Eviction {
	return refcodec.Eviction{
		Checksum: refU128(e.Checksum), ChecksumBody: refU128(e.ChecksumBody), Cluster: refU128(e.Cluster),
		View: e.View, Release: e.Release, Replica: e.Replica,
		Client: refU128(e.Client), Window: refWindow(e.Window), Reason: uint8(e.Reason),
	}
}
