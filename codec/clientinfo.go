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
	Protocol   Version
	SDKName    []byte
	SDKVersion []byte
}

// EncodedLen returns the number of bytes AppendTo writes for a valid value.
func (c ClientVersionInfo) EncodedLen() int { return 4 + 1 + len(c.SDKName) + 1 + len(c.SDKVersion) }

// Validate returns the first broken rule of c, or nil.
func (c ClientVersionInfo) Validate() error { return c.validate(0) }

// validate checks c as if encoded at offset base of a larger body.
func (c ClientVersionInfo) validate(base int) error {
	off := base + 4
	if err := checkText(c.SDKName, "sdk_name_len", "sdk_name", off, 1, 1); err != nil {
		return err
	}
	off += 1 + len(c.SDKName)
	return checkText(c.SDKVersion, "sdk_version_len", "sdk_version", off, 1, 1)
}

// AppendTo validates c and appends its encoding to dst. On error it returns
// dst unchanged.
func (c ClientVersionInfo) AppendTo(dst []byte) ([]byte, error) {
	if err := c.validate(0); err != nil {
		return dst, err
	}
	return c.appendTo(dst), nil
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
	r := reader{src: src}
	c := r.clientInfo()
	if r.err != nil {
		return ClientVersionInfo{}, 0, r.err
	}
	return c, r.off, nil
}

// ParseClientVersionInfo decodes src as exactly one ClientVersionInfo;
// trailing bytes are ErrTrailing.
func ParseClientVersionInfo(src []byte) (ClientVersionInfo, error) {
	c, n, err := DecodeClientVersionInfo(src)
	if err == nil {
		err = trailing(src, n)
	}
	if err != nil {
		return ClientVersionInfo{}, err
	}
	return c, nil
}

func (r *reader) clientInfo() ClientVersionInfo {
	var c ClientVersionInfo
	c.Protocol = Version(r.u32("protocol_version"))
	c.SDKName = r.text8("sdk_name_len", "sdk_name", 1)
	c.SDKVersion = r.text8("sdk_version_len", "sdk_version", 1)
	return c
}
