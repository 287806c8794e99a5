package main

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// The body walkers read src[start:end] as one body layout (WIRE.md sections
// 2 to 4) and return its fields with absolute offsets, plus the offset just
// past the last field read.

// walkClientInfo records ClientVersionInfo, the prefix of both login bodies.
func walkClientInfo(w *walker) {
	w.u32("protocol_version", showVersion)
	w.text8("sdk_name_len", "sdk_name")
	w.text8("sdk_version_len", "sdk_version")
}

// walkLogin records a LOGIN_REGISTER body (code 40).
func walkLogin(w *walker) {
	walkClientInfo(w)
	w.text8("username_len", "username")
	w.secret8("password_len", "password")
	w.text32("context_len", "context")
}

// walkLoginPAT records a LOGIN_REGISTER_WITH_PAT body (code 45).
func walkLoginPAT(w *walker) {
	walkClientInfo(w)
	w.secret8("token_len", "token")
	w.text32("context_len", "context")
}

// walkLoginReply records a login reply body (after the result section).
func walkLoginReply(w *walker) {
	w.u32("user_id", showDec32)
	w.u64("session")
	w.u32("server_protocol_version", showVersion)
	w.text8("server_version_len", "server_version")
}

// maxEntries bounds how many result entries are listed one by one.
const maxEntries = 16

// walkResult records a result section [count u32][count x {index u32,
// result u32}]. It reports the first entry's result (0 when count is 0) and
// whether the whole section was present.
func walkResult(w *walker) (code uint32, ok bool) {
	count, ok := w.u32("result_count", showDec32)
	if !ok {
		return 0, false
	}
	entries := 8 * int64(count)
	if entries > int64(w.end-w.off) {
		w.take("result_entries", entries, false)
		return 0, false
	}
	for i := range int(min(count, maxEntries)) {
		w.u32(fmt.Sprintf("result[%d].index", i), showDec32)
		r, _ := w.u32(fmt.Sprintf("result[%d].result", i), showDec32)
		if i == 0 {
			code = r
		}
	}
	if count > maxEntries {
		w.raw(fmt.Sprintf("result[%d..%d]", maxEntries, count-1), int(count-maxEntries)*8)
	}
	return code, true
}

// bodyDecoder pairs a body layout walk with the codec's prefix decoder for
// the same layout: the walk names the fields, the codec decides validity.
type bodyDecoder struct {
	title  string
	walk   func(*walker)
	decode func([]byte) (int, error)
}

// bodyDecoderFor returns the decoder of a body kind with a plain layout.
func bodyDecoderFor(kind string) (bodyDecoder, bool) {
	switch kind {
	case kindClientInfo:
		return bodyDecoder{"ClientVersionInfo", walkClientInfo, func(b []byte) (int, error) {
			_, n, err := codec.DecodeClientVersionInfo(b)
			return n, err
		}}, true
	case kindLogin:
		return bodyDecoder{"LoginRegister body (code 40)", walkLogin, func(b []byte) (int, error) {
			_, n, err := codec.DecodeLoginRegister(b)
			return n, err
		}}, true
	case kindLoginPAT:
		return bodyDecoder{"LoginRegisterPAT body (code 45)", walkLoginPAT, func(b []byte) (int, error) {
			_, n, err := codec.DecodeLoginRegisterPAT(b)
			return n, err
		}}, true
	case kindLoginReply:
		return bodyDecoder{"LoginReply body", walkLoginReply, func(b []byte) (int, error) {
			_, n, err := codec.DecodeLoginReply(b)
			return n, err
		}}, true
	}
	return bodyDecoder{}, false
}

// decodeBody reads src[start:end] as d. Like the server it decodes a
// prefix; bytes after the last field are reported in a note, since a strict
// Parse would reject them.
func decodeBody(src []byte, start, end int, d bodyDecoder) Section {
	w := newWalker(src, start, end)
	d.walk(w)
	s := Section{Title: d.title, Fields: w.fields, Base: start}
	n, err := d.decode(src[start:end])
	s.settle(err)
	if err != nil {
		return s
	}
	s.Notes = append(s.Notes, fmt.Sprintf("prefix decode used %d of %d bytes", n, end-start))
	if rest := end - start - n; rest > 0 {
		s.Notes = append(s.Notes, fmt.Sprintf(
			"%d bytes after the last field at offset %d: the server ignores them; a strict Parse rejects them (ErrTrailing)",
			rest, start+n))
	}
	if w.off != start+n {
		// The walk and the codec read the same layout; if they ever part,
		// the field list above is wrong and this says so.
		s.Notes = append(s.Notes, fmt.Sprintf(
			"LAYOUT MISMATCH: the field walk ended at offset %d, the codec at %d", w.off, start+n))
	}
	return s
}

// decodeResult reads a result section at src[start:end]. It returns the
// section, the offset where the payload starts and the first result.
func decodeResult(src []byte, start, end int) (s Section, payload int, code uint32) {
	w := newWalker(src, start, end)
	walkResult(w)
	s = Section{Title: "result section", Fields: w.fields, Base: start}
	rest, code, err := codec.SplitResult(src[start:end])
	s.settle(err)
	if err != nil {
		return s, end, 0
	}
	if code != 0 {
		s.Notes = append(s.Notes, fmt.Sprintf(
			"first result is %s: the server reported an error and there is no payload", showStatus(code)))
	}
	return s, end - len(rest), code
}

// decodeLoginReplyFrame reads the body of a committed Register reply: a
// result section, then (when it reports success) a login reply.
func decodeLoginReplyFrame(src []byte, start, end int) []Section {
	res, payload, code := decodeResult(src, start, end)
	if res.Status != statusOK || code != 0 {
		return []Section{res}
	}
	d, _ := bodyDecoderFor(kindLoginReply)
	return []Section{res, decodeBody(src, payload, end, d)}
}

// decodeResultKind reads a result section and shows its payload as bytes.
func decodeResultKind(src []byte) []Section {
	res, payload, code := decodeResult(src, 0, len(src))
	if res.Status != statusOK || code != 0 || payload == len(src) {
		return []Section{res}
	}
	return []Section{res, rawBody(src, payload, len(src), "a result payload")}
}
