package props

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// Describe renders a codec message readably for a failure report: texts
// quoted, versions and client ids in their own notation, and secrets only
// by their length, never their bytes.
func Describe(v any) string {
	switch v := v.(type) {
	case codec.ClientVersionInfo:
		return fmt.Sprintf("ClientVersionInfo{protocol=%v sdk_name=%q sdk_version=%q}", v.Protocol, v.SDKName, v.SDKVersion)
	case codec.LoginRegister:
		return fmt.Sprintf("LoginRegister{%s username=%q password=<%d bytes> context=%s}",
			Describe(v.Info), v.Username, v.Password.Len(), describeContext(v.Context))
	case codec.LoginRegisterPAT:
		return fmt.Sprintf("LoginRegisterPAT{%s token=<%d bytes> context=%s}",
			Describe(v.Info), v.Token.Len(), describeContext(v.Context))
	case codec.LoginReply:
		return fmt.Sprintf("LoginReply{user=%d session=%d protocol=%v server_version=%q}",
			v.UserID, v.Session, v.ServerProtocol, v.ServerVersion)
	case codec.RequestHeader:
		return fmt.Sprintf("Request{size=%d client=%v op=%v session=%d request=%d code=%v user=%d carried=%v}",
			v.Size, v.Client, v.Operation, v.Session, v.Request, v.Code, v.UserID,
			prologue{v.Checksum, v.ChecksumBody, v.Cluster, v.View, v.Release, v.Replica})
	case codec.ReplyHeader:
		return fmt.Sprintf("Reply{size=%d client=%v op=%v request=%d status=%v carried=%v}",
			v.Size, v.Client, v.Operation, v.Request, v.Status,
			prologue{v.Checksum, v.ChecksumBody, v.Cluster, v.View, v.Release, v.Replica})
	case codec.Eviction:
		return fmt.Sprintf("Eviction{client=%v reason=%v window=%v carried=%v}", v.Client, v.Reason, v.Window,
			prologue{v.Checksum, v.ChecksumBody, v.Cluster, v.View, v.Release, v.Replica})
	}
	return fmt.Sprintf("%T", v)
}

// describeContext quotes a short context and summarises a long one.
func describeContext(b []byte) string {
	if len(b) <= 32 {
		return fmt.Sprintf("%q", b)
	}
	return fmt.Sprintf("%q...<%d bytes>", b[:32], len(b))
}

// String prints the carried fields compactly; all zero prints as "0".
func (p prologue) String() string {
	if p == (prologue{}) {
		return "0"
	}
	return fmt.Sprintf("{checksum=%v body=%v cluster=%v view=%d release=%d replica=%d}",
		p.Checksum, p.ChecksumBody, p.Cluster, p.View, p.Release, p.Replica)
}
