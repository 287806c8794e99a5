package fuzz

import (
	"encoding/binary"

	"github.com/iggywire/iggywire/codec"
)

// The raw* encoders write a value's fields exactly where the wire reference
// puts them and check nothing, so a test can ask a decoder what it says
// about a value that AppendBinary refuses. A u8 length of a field longer than
// 255 bytes wraps: such a value has no wire form.

var le = binary.LittleEndian

func rawText8(dst, b []byte) []byte { return append(append(dst, byte(len(b))), b...) }

func rawText32(dst, b []byte) []byte { return append(le.AppendUint32(dst, uint32(len(b))), b...) }

func rawInfo(dst []byte, c codec.ClientVersionInfo) []byte {
	dst = le.AppendUint32(dst, uint32(c.Protocol))
	return rawText8(rawText8(dst, c.SDKName), c.SDKVersion)
}

// rawLogin and rawPAT write the bind secret after the ClientVersionInfo
// whatever the revision: an empty one is the 0.11.0 layout.
func rawLogin(l codec.LoginRegister) []byte {
	dst := append(rawInfo(nil, l.Info), l.BindSecret.Bytes()...)
	return rawText32(rawText8(rawText8(dst, l.Username), l.Password.Bytes()), l.Context)
}

func rawPAT(l codec.LoginRegisterPAT) []byte {
	dst := append(rawInfo(nil, l.Info), l.BindSecret.Bytes()...)
	return rawText32(rawText8(dst, l.Token.Bytes()), l.Context)
}

func rawReply(l codec.LoginReply) []byte {
	dst := le.AppendUint32(nil, l.UserID)
	dst = le.AppendUint64(dst, l.Session)
	dst = le.AppendUint32(dst, uint32(l.ServerProtocol))
	return rawText8(dst, l.ServerVersion)
}

func putU128(b []byte, u codec.Uint128) {
	le.PutUint64(b, u.Lo)
	le.PutUint64(b[8:], u.Hi)
}

// rawPrologue writes bytes 0..128 of a header.
func rawPrologue(cmd codec.Command, checksum, body, cluster codec.Uint128, size, view, release uint32, replica uint8) []byte {
	b := make([]byte, codec.HeaderSize)
	putU128(b[0:], checksum)
	putU128(b[16:], body)
	putU128(b[32:], cluster)
	le.PutUint32(b[48:], size)
	le.PutUint32(b[52:], view)
	le.PutUint32(b[56:], release)
	b[60] = byte(cmd)
	b[61] = replica
	return b
}

func rawRequest(h codec.RequestHeader) []byte {
	b := rawPrologue(codec.CommandRequest, h.Checksum, h.ChecksumBody, h.Cluster, h.Size, h.View, h.Release, h.Replica)
	putU128(b[128:], h.Client)
	putU128(b[144:], h.RequestChecksum)
	le.PutUint64(b[160:], h.Timestamp)
	le.PutUint64(b[168:], h.Request)
	b[176] = byte(h.Operation)
	le.PutUint64(b[184:], h.Session)
	le.PutUint32(b[192:], h.UserID)
	le.PutUint32(b[196:], uint32(h.Code))
	return b
}

func rawReplyHeader(h codec.ReplyHeader) []byte {
	b := rawPrologue(codec.CommandReply, h.Checksum, h.ChecksumBody, h.Cluster, h.Size, h.View, h.Release, h.Replica)
	putU128(b[128:], h.RequestChecksum)
	putU128(b[144:], h.Context)
	putU128(b[160:], h.Client)
	le.PutUint64(b[176:], h.Op)
	le.PutUint64(b[184:], h.Commit)
	le.PutUint64(b[192:], h.Timestamp)
	le.PutUint64(b[200:], h.Request)
	b[208] = byte(h.Operation)
	le.PutUint32(b[216:], uint32(h.Status))
	return b
}

func rawEviction(e codec.Eviction) []byte {
	b := rawPrologue(codec.CommandEviction, e.Checksum, e.ChecksumBody, e.Cluster, codec.HeaderSize, e.View, e.Release, e.Replica)
	putU128(b[128:], e.Client)
	le.PutUint32(b[144:], uint32(e.Window.Max))
	le.PutUint32(b[148:], uint32(e.Window.Min))
	b[255] = byte(e.Reason)
	return b
}
