package props

import (
	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/layout"
)

// TextField locates one text field of a body encoding.
type TextField struct {
	Name    string // wire name of the text, e.g. "username"
	LenName string // wire name of its length prefix, e.g. "username_len"
	LenOff  int    // offset of the length prefix
	LenSize int    // 1 (u8) or 4 (u32)
	Off     int    // offset of the first text byte
	Len     int    // number of text bytes
	MinLen  int    // the shortest length the rule allows (0 or 1)
}

// Span is a named byte range of a header.
type Span struct {
	Name     string // the field's wire name
	Off, Len int    // where it starts and how many bytes it spans
}

// LenField is a field that claims how many bytes follow or exist: a text
// length prefix, or a header's size.
type LenField struct {
	Name      string // the length field's wire name
	Off, Size int    // where it starts and its width in bytes (1 or 4)
}

// Layout is where the fields of one encoded value sit, so that mutations
// can aim at them. Bodies are laid out from WIRE.md here, not asked of the
// codec's decoders; headers come from the workbench's table
// (internal/layout), which codec's layout test holds to its offsets and to
// WIRE.md.
type Layout struct {
	Texts    []TextField // the text fields, where invalid UTF-8 can be written
	Reserved []Span      // header bytes that must be zero
	Lengths  []LenField  // the length fields, which claims can be made in
}

// LayoutOf returns the layout of the encoding of v, which must be one of
// the codec's message types (any other value has an empty layout).
func LayoutOf(v any) Layout {
	switch v := v.(type) {
	case codec.ClientVersionInfo:
		return bodyLayout(0, infoTexts(v))
	case codec.LoginRegister:
		return bodyLayout(4, append(infoTexts(v.Info),
			text{"username", v.Username, 1, 1}, text{"password", v.Password.Bytes(), 1, 0}, text{"context", v.Context, 4, 0}))
	case codec.LoginRegisterPAT:
		return bodyLayout(4, append(infoTexts(v.Info),
			text{"token", v.Token.Bytes(), 1, 0}, text{"context", v.Context, 4, 0}))
	case codec.LoginReply:
		return bodyLayout(16, []text{{"server_version", v.ServerVersion, 1, 1}})
	case codec.RequestHeader:
		return headerLayout(codec.CommandRequest, v.Operation == codec.OperationNonReplicated)
	case codec.ReplyHeader:
		return headerLayout(codec.CommandReply, false)
	case codec.Eviction:
		return headerLayout(codec.CommandEviction, false)
	}
	return Layout{}
}

// text is one text field in layout order: name, bytes, prefix width, and
// minimum length.
type text struct {
	name   string
	b      []byte
	prefix int
	minLen int
}

func infoTexts(c codec.ClientVersionInfo) []text {
	return []text{{"sdk_name", c.SDKName, 1, 1}, {"sdk_version", c.SDKVersion, 1, 1}}
}

// bodyLayout lays out texts one after the other. The first text's length
// prefix is at start, except for the ClientVersionInfo prefix, which always
// starts after the 4-byte protocol version.
func bodyLayout(start int, texts []text) Layout {
	var l Layout
	off := start
	if len(texts) > 0 && texts[0].name == "sdk_name" {
		off = 4
	}
	for _, t := range texts {
		f := TextField{t.name, t.name + "_len", off, t.prefix, off + t.prefix, len(t.b), t.minLen}
		l.Texts = append(l.Texts, f)
		l.Lengths = append(l.Lengths, LenField{f.LenName, f.LenOff, f.LenSize})
		off = f.Off + f.Len
	}
	return l
}

// headerLayout lists the reserved areas and the size field of header kind
// c. With code set (a NonReplicated request) the command code takes the
// first bytes of the reserved area it overlays.
func headerLayout(c codec.Command, code bool) Layout {
	var l Layout
	overlay := layout.RequestCode()
	for _, f := range layout.Header(c) {
		switch {
		case f.Reserved && code && f.Offset == overlay.Offset:
			l.Reserved = append(l.Reserved, Span{f.Name, overlay.End(), f.End() - overlay.End()})
		case f.Reserved:
			l.Reserved = append(l.Reserved, Span{f.Name, f.Offset, f.Size})
		case f.Name == "size":
			l.Lengths = append(l.Lengths, LenField{f.Name, f.Offset, f.Size})
		}
	}
	return l
}

// headerField returns the field name of header kind c from the codec's
// table. A name the table lacks is a bug in the caller: it panics.
func headerField(c codec.Command, name string) layout.Field {
	for _, f := range layout.Header(c) {
		if f.Name == name {
			return f
		}
	}
	panic("props: " + c.String() + " header has no field " + name)
}
