package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/iggywire/iggywire/codec"
	hdrlayout "github.com/iggywire/iggywire/internal/layout"
)

// The kinds -kind accepts. kindAuto reads an input as frames only when
// their size fields delimit it exactly; anything else is not determined.
const (
	kindAuto            = "auto"
	kindFrame           = "frame"
	kindFrames          = "frames"
	kindRequest         = "request"
	kindReply           = "reply"
	kindEviction        = "eviction"
	kindClientInfo      = "client_version_info"
	kindLogin           = "login_register"
	kindLoginPAT        = "login_register_pat"
	kindLoginReply      = "login_reply"
	kindLoginReplyFrame = "register_reply_body"
	kindVersion         = "version"
	kindConn            = "conn"
	kindClient          = "client"
	kindEvery           = "every"
	// Protocol 0.11.1's bodies (WIRE.md section 10).
	kindLoginSecret    = "login_register_bind_secret"
	kindLoginPATSecret = "login_register_pat_bind_secret"
	kindBind           = "bind_session"
)

// kinds lists the kinds in the order the usage text shows them.
func kinds() []string {
	return []string{kindAuto, kindFrame, kindFrames, kindRequest, kindReply, kindEviction, kindClientInfo,
		kindLogin, kindLoginPAT, kindLoginReply, kindLoginReplyFrame, kindVersion, kindConn, kindClient, kindEvery,
		kindLoginSecret, kindLoginPATSecret, kindBind}
}

// kindAliases are the names the kinds had before they were named after the
// codec's types; they still work.
var kindAliases = map[string]string{"clientinfo": kindClientInfo, "login": kindLogin,
	"loginpat": kindLoginPAT, "loginreply": kindLoginReply, "loginreplyframe": kindLoginReplyFrame}

// frameKinds maps the frame kinds to their command.
var frameKinds = map[string]codec.Command{
	kindRequest: codec.CommandRequest, kindReply: codec.CommandReply, kindEviction: codec.CommandEviction}

// Section statuses. A reading that fails while another reading of the same
// bytes decodes is "no match" rather than an error.
const (
	statusOK           = "decoded"
	statusFailed       = "error"
	statusNoMatch      = "no match"
	statusUndetermined = "could not be determined"
	statusStructured   = "not wire bytes"
)

// errUnknownKind is the usage error of a -kind value Dump does not know.
var errUnknownKind = errors.New("unknown kind")

// Dump reads src as kind. Only a header read as a frame and the readings
// the codec decodes show fields; every other byte is listed as its offset
// and length only. As kindAuto, src is read as frames only when their size
// fields delimit it exactly (see tiling); otherwise the kind is not
// determined and only the length is shown. The only error is an unknown
// kind: decode failures are part of the report (OK false).
func Dump(src []byte, kind string) (Report, error) { return dumpWith(src, kind, maskOf, false) }

// DumpTrustingVersion is Dump with -trust-version: a body whose version
// is 0.11.0 is taken to have 0.11.0's layout, as a released build sends
// it, so its username and lengths are read and shown. A development build
// that sends a bind secret under 0.11.0 would have it read as those
// fields (WIRE.md section 10.1): Dump masks every body in both layouts.
func DumpTrustingVersion(src []byte, kind string) (Report, error) {
	return dumpWith(src, kind, versionMask, true)
}

// dumpWith is Dump with the mask maskOf gives; trusting is -trust-version.
func dumpWith(src []byte, kind string, maskOf func([]byte) []bool, trusting bool) (Report, error) {
	if k, ok := kindAliases[kind]; ok {
		kind = k
	}
	r := Report{Kind: kind, Len: len(src)}
	if !slices.Contains(kinds(), kind) {
		return Report{}, fmt.Errorf("%w %q (want one of %v)", errUnknownKind, kind, kinds())
	}
	// From here on, only the masked copy is read (mask.go).
	mask := maskOf(src)
	if !trusting {
		if note := labelledNote(labelled0110(src, mask)); note != "" {
			r.Notes = append(r.Notes, note)
		}
	}
	src = masked(src, mask)
	switch {
	case kind == kindConn:
		r.Sections = dumpConn(src, mask)
	case kind == kindClient:
		r.Sections = dumpClient(src, mask)
	case kind == kindEvery:
		r.Sections = dumpEvery(src, mask)
	case kind == kindFrames:
		r.Sections = dumpFrames(src, mask)
	case kind == kindAuto:
		n := tiling(src)
		switch {
		case n == 0:
			r.Sections = []Section{undetermined(src)}
		case n == 1:
			r.Notes = append(r.Notes, "a frame: 256 bytes or more, and its size field (bytes 48..52) is its length")
		default:
			r.Notes = append(r.Notes, fmt.Sprintf("a stream of %d frames: each size field (bytes 48..52 of its "+
				"header) ends its frame where the next begins, the last at the end of the input", n))
		}
		if n > 0 {
			r.Sections = dumpFrames(src, mask)
		}
	default:
		r.Sections = finish(src, mask, dumpAs(src, kind))
	}
	if note := maskNote(mask); note != "" {
		r.Notes = append(r.Notes, note)
	}
	r.OK = !slices.ContainsFunc(r.Sections, func(s Section) bool {
		return s.Status == statusFailed || s.Status == statusUndetermined
	})
	return r, nil
}

// tiling returns how many frames src is when their size fields delimit it
// exactly: each header's size is a valid frame size (256..64 MiB) and ends
// its frame where the next begins, and the last ends at the end of src. It
// returns 0 when they do not, and for an empty src. Only such an input is
// read as frames without -kind: a body's bytes 48..52 are part of its
// fields, and reading them as a size would print the body as a header.
func tiling(src []byte) int {
	n := 0
	for off := 0; off < len(src); n++ {
		size, err := codec.FrameSize(src[off:])
		if err != nil || size > len(src)-off {
			return 0
		}
		off += size
	}
	return n
}

// undetermined is the report of an input whose kind neither -kind nor its
// size fields give: its length, never its bytes.
func undetermined(src []byte) Section {
	why := "fewer than 256 bytes, so not a frame"
	if len(src) >= codec.HeaderSize {
		why = "bytes 48..52 are not a frame size (256..64 MiB) equal to the input's length, " +
			"and no stream of frames delimited by their sizes fills it"
	}
	s := Section{Title: "kind", Status: statusUndetermined, Notes: []string{
		why + ": nothing is decoded and no byte is shown",
		"give -kind KIND to read it as one kind: " + strings.Join(kinds()[1:], ", "),
	}}
	if len(src) > 0 {
		s.Fields = []Field{{Name: "bytes", Size: len(src), Value: notShown}}
	}
	return s
}

// dumpFrames reads src as a stream of frames, each as long as its size
// field says. A frame whose size field cannot be used, or says more than is
// left, is the rest of the input. One frame filling src is shown with the
// input's offsets; in a stream, each frame's offsets count from its start.
func dumpFrames(src []byte, mask []bool) []Section {
	if size, err := codec.FrameSize(src); err == nil && size == len(src) {
		return finish(src, mask, frameByCommand(src))
	}
	var secs []Section
	for off, i := 0, 1; off < len(src); i++ {
		frame := src[off:]
		if size, err := codec.FrameSize(frame); err == nil && size <= len(frame) {
			frame = frame[:size]
		}
		title := Section{Title: fmt.Sprintf("frame %d at input offset %d (%d bytes; offsets below count from it)",
			i, off, len(frame))}
		secs = append(secs, based(off, append([]Section{title}, finish(frame, mask[off:off+len(frame)], frameByCommand(frame))...))...)
		off += len(frame)
	}
	return secs
}

// based records in secs that their offsets count from input offset base.
func based(base int, secs []Section) []Section {
	for i := range secs {
		secs[i].Base = base
	}
	return secs
}

// frameByCommand reads src as a frame of the kind its command byte names.
func frameByCommand(src []byte) []Section {
	c, err := codec.PeekCommand(src)
	if err != nil {
		s := Section{Title: "frame", ref: refPeek(src)}
		s.settle(err, 0)
		return []Section{s}
	}
	return dumpFrame(src, c)
}

func dumpAs(src []byte, kind string) []Section {
	if c, ok := frameKinds[kind]; ok {
		return dumpFrame(src, c)
	}
	switch kind {
	case kindFrame:
		return frameByCommand(src)
	case kindLoginReplyFrame:
		return loginReplyFrame(src, 0, len(src))
	case kindVersion:
		return []Section{decodeVersion(src)}
	}
	return []Section{readBody(src, 0, len(src), kind)}
}

// finish redacts, in every section, each field over a byte of mask
// (mask.go) or over a secret of any reading (the same bytes may be a
// username in one shape and a token in the other), withholds each error
// located in such bytes (the readings read filler there, so where and why
// one fails there says nothing about the input), then lists the bytes no
// field shows, by offset and length only. mask is the input's mask for the
// bytes of src.
func finish(src []byte, mask []bool, secs []Section) []Section {
	var shown, secrets []Field
	for _, r := range maskRuns(mask) {
		secrets = append(secrets, Field{Name: "secret", Offset: r[0], Size: r[1] - r[0]})
	}
	for _, s := range secs {
		for _, f := range s.Fields {
			shown = append(shown, f)
			if f.secret {
				secrets = append(secrets, f)
			}
		}
	}
	for i := range secs {
		for j, f := range secs[i].Fields {
			if !f.secret && slices.ContainsFunc(secrets, f.overlaps) {
				secs[i].Fields[j].Value = redacted(f.Size)
			}
		}
		if fault := secs[i].fault; fault != nil {
			if slices.ContainsFunc(secrets, func(f Field) bool { return f.overlaps(Field{Offset: fault.at, Size: 1}) }) {
				secs[i].Error = fmt.Sprintf("%s: fails inside bytes that may hold a password, token or bind secret; "+
					"its offset and rule are not shown", fault.field)
			}
		}
	}
	if gaps := unshown(src, shown); len(gaps) > 0 {
		secs = append(secs, Section{Title: "bytes not decoded", Status: "offset and length only", Fields: gaps})
	}
	return secs
}

// dumpFrame reads src as a frame whose header is of kind c, and its body
// as the header says: a Register request as both login shapes (the way the
// server tries them), a committed Register reply as a result section and a
// login reply. Every other body is not decoded.
func dumpFrame(src []byte, c codec.Command) []Section {
	hdr := decodeHeader(src, c)
	if len(src) < codec.HeaderSize || hdrlayout.Header(c) == nil {
		return []Section{hdr}
	}
	if got := codec.Command(src[field(codec.CommandRequest, "command").Offset]); got != c {
		hdr.Notes = append(hdr.Notes, fmt.Sprintf("command is %s, not %s: body not decoded", showEnum(uint64(got), got), c))
		return []Section{hdr}
	}
	size, err := codec.FrameSize(src)
	if err != nil {
		hdr.Notes = append(hdr.Notes, "the size field cannot be used: body not decoded")
		return []Section{hdr}
	}
	secs, end := []Section{hdr}, min(size, len(src))
	if end < size {
		secs = append(secs, Section{Title: "frame", Status: statusFailed,
			Error: fmt.Sprintf("body at offset %d: len(frame) >= size %d (truncated)", len(src), size)})
	}
	if c == codec.CommandEviction {
		return secs // header-only
	}
	switch op := codec.Operation(src[field(c, "operation").Offset]); {
	case c == codec.CommandRequest && op == codec.OperationRegister:
		// Read in the layout the body's version selects, as the server does
		// (WIRE.md section 10.1).
		login, pat := kindLogin, kindLoginPAT
		if info, _, err := codec.DecodeClientVersionInfo(src[codec.HeaderSize:end]); err == nil &&
			codec.RevisionOf(info.Protocol) == codec.RevisionBindSecret {
			login, pat = kindLoginSecret, kindLoginPATSecret
		}
		return append(secs, alternatives(readBody(src, codec.HeaderSize, end, login),
			readBody(src, codec.HeaderSize, end, pat))...)
	case c == codec.CommandRequest && op == codec.OperationNonReplicated &&
		codec.Code(binary.LittleEndian.Uint32(src[hdrlayout.RequestCode().Offset:])) == codec.CodeBindSession:
		return append(secs, readBody(src, codec.HeaderSize, end, kindBind))
	case c == codec.CommandReply && op == codec.OperationRegister &&
		binary.LittleEndian.Uint32(src[field(c, "status").Offset:]) == 0:
		return append(secs, loginReplyFrame(src, codec.HeaderSize, end)...)
	}
	return secs
}

// field returns the field name of header kind c from the codec's table.
// Names are constants of this file, so a name the table lacks is a bug
// that every test run finds: it panics.
func field(c codec.Command, name string) hdrlayout.Field {
	for _, f := range hdrlayout.Header(c) {
		if f.Name == name {
			return f
		}
	}
	panic("wiredump: " + c.String() + " header has no field " + name)
}

// decodeHeader shows the first 256 bytes of src as the named fields of
// header kind c, whether or not the codec accepts them, and the codec's
// verdict. A NonReplicated request's reserved area starts with its code.
func decodeHeader(src []byte, c codec.Command) Section {
	s := Section{Title: fmt.Sprintf("%s header (command %d)", c, c)}
	var err error
	switch c {
	case codec.CommandRequest:
		_, err = codec.DecodeRequestHeader(src)
	case codec.CommandReply:
		_, err = codec.DecodeReplyHeader(src)
	case codec.CommandEviction:
		_, err = codec.DecodeEviction(src)
	default: // not client-facing: only the command byte is shown
		cmd := field(codec.CommandRequest, "command")
		s.Fields = []Field{headerField(src, cmd)}
		s.Status, s.Error = statusFailed, fmt.Sprintf("%s at offset %d: not a client-facing frame, want 5, 8 or 13", cmd.Name, cmd.Offset)
		return s
	}
	s.ref = refHeader(src, c)
	if s.settle(err, 0); len(src) < codec.HeaderSize {
		return s
	}
	code := hdrlayout.RequestCode()
	nonReplicated := c == codec.CommandRequest && codec.Operation(src[field(c, "operation").Offset]) == codec.OperationNonReplicated
	for _, f := range hdrlayout.Header(c) {
		if nonReplicated && f.Offset == code.Offset {
			s.Fields = append(s.Fields, headerField(src, code))
			f.Offset, f.Size = code.End(), f.End()-code.End()
		}
		s.Fields = append(s.Fields, headerField(src, f))
	}
	return s
}

// readBody reads src[start:end] as a body kind with the codec's prefix
// decoder, the way the server reads login bodies. On success the fields are
// laid out from the decoded value; on failure there are none.
func readBody(src []byte, start, end int, kind string) Section {
	b, l := src[start:end], &layout{off: start}
	var n int
	var err error
	switch kind {
	case kindClientInfo:
		var v codec.ClientVersionInfo
		v, n, err = codec.DecodeClientVersionInfo(b)
		l.info(v)
	case kindLogin:
		var v codec.LoginRegister
		v, n, err = codec.DecodeLoginRegister(b)
		l.info(v.Info)
		l.text("username", 1, v.Username)
		l.secret("password", v.Password)
		l.text("context", 4, v.Context)
	case kindLoginPAT:
		var v codec.LoginRegisterPAT
		v, n, err = codec.DecodeLoginRegisterPAT(b)
		l.info(v.Info)
		l.secret("token", v.Token)
		l.text("context", 4, v.Context)
	case kindLoginReply:
		var v codec.LoginReply
		v, n, err = codec.DecodeLoginReply(b)
		l.uint("user_id", 4, uint64(v.UserID))
		l.uint("session", 8, v.Session)
		l.version("server_protocol_version", v.ServerProtocol)
		l.text("server_version", 1, v.ServerVersion)
	case kindLoginSecret:
		var v codec.LoginRegister
		v, n, err = codec.DecodeLoginRegisterRev(b, codec.RevisionBindSecret)
		l.info(v.Info)
		l.raw("bind_secret", v.BindSecret)
		l.text("username", 1, v.Username)
		l.secret("password", v.Password)
		l.text("context", 4, v.Context)
	case kindLoginPATSecret:
		var v codec.LoginRegisterPAT
		v, n, err = codec.DecodeLoginRegisterPATRev(b, codec.RevisionBindSecret)
		l.info(v.Info)
		l.raw("bind_secret", v.BindSecret)
		l.secret("token", v.Token)
		l.text("context", 4, v.Context)
	case kindBind:
		var v codec.BindSession
		v, n, err = codec.DecodeBindSession(b)
		l.info(v.Info)
		l.add("client_id", 16, v.ClientID.String(), false)
		l.uint("session", 8, v.Session)
		l.uint("metadata_watermark", 8, v.MetadataWatermark)
		l.raw("bind_secret", v.BindSecret)
	}
	s := Section{Title: map[string]string{kindClientInfo: "ClientVersionInfo", kindLogin: "LoginRegister body (code 40)",
		kindLoginPAT: "LoginRegisterPAT body (code 45)", kindLoginReply: "LoginReply body",
		kindLoginSecret: "LoginRegister body of protocol 0.11.1 (code 40)", kindLoginPATSecret: "LoginRegisterPAT body of protocol 0.11.1 (code 45)",
		kindBind: "BindSession body (code 15)"}[kind], ref: refBody(b, kind)}
	if s.settle(err, start); err == nil {
		s.Fields = l.fields
		if n < len(b) {
			s.Notes = append(s.Notes, fmt.Sprintf("%d bytes after the last field: the server ignores them", len(b)-n))
		}
	}
	return s
}

// maxEntries bounds how many result entries are listed.
const maxEntries = 8

// loginReplyFrame reads the body of a committed Register reply: a result
// section, then, when its first result is 0, a login reply.
func loginReplyFrame(src []byte, start, end int) []Section {
	payload, code, err := codec.SplitResult(src[start:end])
	s := Section{Title: "result section", ref: refSplit(src[start:end])}
	if s.settle(err, start); err != nil {
		return []Section{s}
	}
	l := &layout{off: start}
	count := binary.LittleEndian.Uint32(src[start:])
	l.uint("result_count", 4, uint64(count))
	for i := range min(count, maxEntries) {
		l.uint(fmt.Sprintf("result[%d].index", i), 4, uint64(binary.LittleEndian.Uint32(src[l.off:])))
		l.uint(fmt.Sprintf("result[%d].result", i), 4, uint64(binary.LittleEndian.Uint32(src[l.off:])))
	}
	s.Fields = l.fields
	if code != 0 {
		s.Notes = append(s.Notes, fmt.Sprintf("first result is %s: no payload", showEnum(uint64(code), codec.Status(code))))
		return []Section{s}
	}
	return []Section{s, readBody(src, end-len(payload), end, kindLoginReply)}
}

// decodeVersion reads src as version text. Only the version itself is
// shown: the suffix the grammar ignores is any bytes at all.
func decodeVersion(src []byte) Section {
	s := Section{Title: "version text", ref: refVersion(src)}
	v, err := codec.ParseVersion(string(src))
	if s.settle(err, 0); err == nil {
		end := len(src)
		if i := bytes.IndexAny(src, "-+"); i >= 0 {
			end = i
		}
		s.Fields = []Field{{Name: "version", Size: end, Value: showVersion(v)}}
	}
	return s
}

// alternatives settles readings of the same bytes: when one decodes, the
// failures of the others are no match, not errors.
func alternatives(secs ...Section) []Section {
	if slices.ContainsFunc(secs, func(s Section) bool { return s.Status == statusOK }) {
		for i := range secs {
			if secs[i].Status == statusFailed {
				secs[i].Status = statusNoMatch
			}
		}
	}
	return secs
}

// dumpConn reads src as the input of the lifecycle fuzz targets: frames
// written as [flags u8][len u16 LE][len bytes], each read as a frame by its
// command byte (the target hands each chunk to the connection as one frame)
// with its size field set as the target sets it (flags bit 0 clear).
// Offsets are from the start of each frame.
func dumpConn(src []byte, mask []bool) []Section {
	var secs []Section
	off := 0
	for len(src)-off >= 3 {
		flags, n := src[off], int(binary.LittleEndian.Uint16(src[off+1:]))
		frame := slices.Clone(src[off+3 : off+3+min(n, len(src)-off-3)])
		if flags&1 == 0 && len(frame) >= codec.HeaderSize {
			binary.LittleEndian.PutUint32(frame[field(codec.CommandRequest, "size").Offset:], uint32(len(frame)))
		}
		title := Section{Title: fmt.Sprintf("frame at input offset %d (flags 0x%02x, %d bytes; offsets below count from it)",
			off+3, flags, len(frame))}
		if slices.Contains(mask[off:off+3], true) {
			title.Title = fmt.Sprintf("frame at input offset %d (flags and length %s)", off+3, maskedByte)
		}
		secs = append(secs, based(off+3, append([]Section{title}, finish(frame, mask[off+3:off+3+len(frame)], frameByCommand(frame))...))...)
		off += 3 + len(frame)
	}
	if off < len(src) {
		secs = append(secs, Section{Title: fmt.Sprintf("%d bytes at input offset %d, too few for [flags][len]: not shown",
			len(src)-off, off)})
	}
	return secs
}
