package codec

import "encoding/binary"

// ClientVersionInfo is the prefix of both login bodies:
//
//	[protocol_version u32][sdk_name_len u8][sdk_name][sdk_version_len u8][sdk_version]
//
// SDKName and SDKVersion are UTF-8 of 1..255 bytes. Protocol is any u32 on
// the wire; a server gates it with Window.Accepts. Decoded byte fields alias
// the input; see Clone.
type ClientVersionInfo struct {
	Protocol   Version // the protocol version the client speaks, any u32 on the wire
	SDKName    []byte  // the SDK's name, UTF-8 of 1..255 bytes
	SDKVersion []byte  // the SDK's version text, UTF-8 of 1..255 bytes
}

// EncodedLen returns the number of bytes AppendBinary writes for a valid value.
func (c ClientVersionInfo) EncodedLen() int { return 4 + 1 + len(c.SDKName) + 1 + len(c.SDKVersion) }

// Validate returns the first broken rule of c, or nil.
func (c ClientVersionInfo) Validate() error { return c.validate(0) }

// validate checks c as if encoded at offset base of a larger body.
func (c ClientVersionInfo) validate(base int) error {
	off := base + 4
	if err := checkText(c.SDKName, &fieldSDKName, off); err != nil {
		return err
	}
	off += 1 + len(c.SDKName)
	return checkText(c.SDKVersion, &fieldSDKVersion, off)
}

// AppendBinary validates c and appends its encoding to dst. On error it returns
// dst unchanged.
func (c ClientVersionInfo) AppendBinary(dst []byte) ([]byte, error) {
	if !c.lengthsOK() {
		return dst, c.validate(0)
	}
	out := c.appendTo(dst)
	if !ascii(out[len(dst)+offInfoText:]) {
		if err := c.validate(0); err != nil {
			return dst, err
		}
	}
	return out, nil
}

// lengthsOK is the encoders' fast test of the length rules; the text is
// tested once written (see fast.go), and Validate finds the exact error.
func (c ClientVersionInfo) lengthsOK() bool {
	return uint(len(c.SDKName)-1) < 255 && uint(len(c.SDKVersion)-1) < 255
}

func (c ClientVersionInfo) appendTo(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(c.Protocol))
	dst = appendText8(dst, c.SDKName)
	return appendText8(dst, c.SDKVersion)
}

// Clone returns a copy of c that shares no memory with the input it was
// decoded from.
func (c ClientVersionInfo) Clone() ClientVersionInfo {
	c.SDKName = cloneBytes(c.SDKName)
	c.SDKVersion = cloneBytes(c.SDKVersion)
	return c
}

// DecodeClientVersionInfo decodes a ClientVersionInfo from the start of src
// and returns it with the number of bytes it used; bytes after it are left
// alone, the way a server reads the prefix of a login body.
func DecodeClientVersionInfo(src []byte) (ClientVersionInfo, int, error) {
	if proto, name, version, n, ok := fastClientInfo(src, false); ok {
		return ClientVersionInfo{Protocol: proto, SDKName: name, SDKVersion: version}, n, nil
	}
	r := reader{src: src, truncated: ruleCVITruncated}
	return decoded(r.clientInfo(), &r)
}

// ParseClientVersionInfo decodes src as exactly one ClientVersionInfo;
// trailing bytes are ErrTrailing.
func ParseClientVersionInfo(src []byte) (ClientVersionInfo, error) {
	if proto, name, version, _, ok := fastClientInfo(src, true); ok {
		return ClientVersionInfo{Protocol: proto, SDKName: name, SDKVersion: version}, nil
	}
	r := reader{src: src, truncated: ruleCVITruncated}
	return parsed(r.clientInfo(), &r, ruleBodyTrailing)
}

// fastClientInfo is the fast path of both decoders (see fast.go); whole
// rejects trailing bytes. It returns the fields, not a ClientVersionInfo:
// a struct of that size passes through memory between calls, fields travel
// in registers.
func fastClientInfo(src []byte, whole bool) (Version, []byte, []byte, int, bool) {
	s := scan{src: src, ok: true}
	proto, name, version := s.clientInfo()
	ok := s.done(whole, offInfoText)
	return proto, name, version, s.p, ok
}

// offInfoText is where the text part of a login body starts: sdk_name_len,
// after the protocol version.
const offInfoText = 4

// clientInfo reads a ClientVersionInfo, alone or as the prefix of a login
// body: either way a field of it that is missing breaks cvi.truncated, so
// the message's own truncation rule is set aside while it reads.
func (r *reader) clientInfo() ClientVersionInfo {
	outer := r.truncated
	r.truncated = ruleCVITruncated
	var c ClientVersionInfo
	c.Protocol = Version(r.u32("protocol_version"))
	c.SDKName = r.text8(&fieldSDKName)
	c.SDKVersion = r.text8(&fieldSDKVersion)
	r.truncated = outer
	return c
}
