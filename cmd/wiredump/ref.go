package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/internal/refcodec/codecclass"
)

// -ref: every header, body, result section and version text wiredump
// decodes with the codec is also decoded with internal/refcodec, the
// independent reference, and the section says whether the two agree: the
// same verdict (decoded, or the same error class) and, when both decode,
// the same field values. A crasher found through a codec bug is decoded
// by that same codec, so without -ref the dump repeats the bug.
//
// A difference never shows what wiredump would not show anyway: error
// classes without offsets, byte fields as their lengths only (a secret as
// [REDACTED n=N]), checksums as zero or non-zero.

// reference holds the reference decoders -ref calls; tests replace one to
// make the two codecs disagree.
var reference = struct {
	requestHeader    func([]byte) (refcodec.RequestHeader, error)
	replyHeader      func([]byte) (refcodec.ReplyHeader, error)
	eviction         func([]byte) (refcodec.Eviction, error)
	clientInfo       func([]byte) (refcodec.ClientVersionInfo, int, error)
	loginRegister    func([]byte) (refcodec.LoginRegister, int, error)
	loginRegisterPAT func([]byte) (refcodec.LoginRegisterPAT, int, error)
	loginReply       func([]byte) (refcodec.LoginReply, int, error)
	splitResult      func([]byte) ([]byte, uint32, error)
	parseVersion     func(string) (uint32, error)
	peekCommand      func([]byte) (uint8, error)
	loginSecret      func([]byte) (refcodec.LoginRegister, int, error)
	patSecret        func([]byte) (refcodec.LoginRegisterPAT, int, error)
	bindSession      func([]byte) (refcodec.BindSession, int, error)
}{
	refcodec.DecodeRequestHeader, refcodec.DecodeReplyHeader, refcodec.DecodeEviction,
	refcodec.DecodeClientVersionInfo, refcodec.DecodeLoginRegister, refcodec.DecodeLoginRegisterPAT,
	refcodec.DecodeLoginReply, refcodec.SplitResult, refcodec.ParseVersion,
	refcodec.PeekCommand, refcodec.DecodeLoginRegisterSecret, refcodec.DecodeLoginRegisterPATSecret,
	refcodec.DecodeBindSession,
}

// refAgree is the Reference of a section on which the two codecs agree.
const refAgree = "agrees"

// checkReference fills in the Reference of every section that has a
// reference reading and returns how many disagree.
func (r *Report) checkReference() int {
	n := 0
	for i := range r.Sections {
		s := &r.Sections[i]
		if s.ref == nil {
			continue
		}
		if s.Reference = s.ref.run(); s.Reference != refAgree {
			n++
		}
	}
	if n > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("-ref: the codec and internal/refcodec disagree on %d section(s): "+
			"the fields below are the codec's reading", n))
	}
	return n
}

// refReading is what a section's reference reading needs: which reading
// and its bytes. (Data, not a closure, so that equal reports stay equal.)
type refReading struct {
	what string // "header", "peek", "split", "version" or a body kind
	src  []byte
	cmd  codec.Command
}

// run compares the codec's reading with the reference's.
func (r *refReading) run() string {
	switch r.what {
	case "header":
		return compareHeader(r.src, r.cmd)
	case "peek":
		return comparePeek(r.src)
	case "split":
		return compareSplit(r.src)
	case "version":
		return compareVersion(r.src)
	}
	return compareBody(r.src, r.what)
}

func refHeader(src []byte, c codec.Command) *refReading {
	return &refReading{what: "header", src: src, cmd: c}
}
func refPeek(src []byte) *refReading            { return &refReading{what: "peek", src: src} }
func refSplit(body []byte) *refReading          { return &refReading{what: "split", src: body} }
func refVersion(src []byte) *refReading         { return &refReading{what: "version", src: src} }
func refBody(b []byte, kind string) *refReading { return &refReading{what: kind, src: b} }

// compareHeader compares the codec's reading of a header of command c with
// the reference's.
func compareHeader(src []byte, c codec.Command) string {
	switch c {
	case codec.CommandRequest:
		h, err := codec.DecodeRequestHeader(src)
		rh, rerr := reference.requestHeader(src)
		return compare(h, err, rh, rerr)
	case codec.CommandReply:
		h, err := codec.DecodeReplyHeader(src)
		rh, rerr := reference.replyHeader(src)
		return compare(h, err, rh, rerr)
	case codec.CommandEviction:
		h, err := codec.DecodeEviction(src)
		rh, rerr := reference.eviction(src)
		return compare(h, err, rh, rerr)
	}
	return "no reference reading of " + c.String()
}

// decoded is a body reading and how many bytes it used.
type decoded[T any] struct {
	Body T
	Used int
}

// compareBody compares the codec's reading of body b as kind with the
// reference's.
func compareBody(b []byte, kind string) string {
	switch kind {
	case kindClientInfo:
		v, n, err := codec.DecodeClientVersionInfo(b)
		rv, rn, rerr := reference.clientInfo(b)
		return compare(decoded[codec.ClientVersionInfo]{v, n}, err, decoded[refcodec.ClientVersionInfo]{rv, rn}, rerr)
	case kindLogin:
		v, n, err := codec.DecodeLoginRegister(b)
		rv, rn, rerr := reference.loginRegister(b)
		return compare(decoded[codec.LoginRegister]{v, n}, err, decoded[refcodec.LoginRegister]{rv, rn}, rerr)
	case kindLoginPAT:
		v, n, err := codec.DecodeLoginRegisterPAT(b)
		rv, rn, rerr := reference.loginRegisterPAT(b)
		return compare(decoded[codec.LoginRegisterPAT]{v, n}, err, decoded[refcodec.LoginRegisterPAT]{rv, rn}, rerr)
	case kindLoginReply:
		v, n, err := codec.DecodeLoginReply(b)
		rv, rn, rerr := reference.loginReply(b)
		return compare(decoded[codec.LoginReply]{v, n}, err, decoded[refcodec.LoginReply]{rv, rn}, rerr)
	case kindLoginSecret:
		v, n, err := codec.DecodeLoginRegisterRev(b, codec.RevisionBindSecret)
		rv, rn, rerr := reference.loginSecret(b)
		return compare(decoded[codec.LoginRegister]{v, n}, err, decoded[refcodec.LoginRegister]{rv, rn}, rerr)
	case kindLoginPATSecret:
		v, n, err := codec.DecodeLoginRegisterPATRev(b, codec.RevisionBindSecret)
		rv, rn, rerr := reference.patSecret(b)
		return compare(decoded[codec.LoginRegisterPAT]{v, n}, err, decoded[refcodec.LoginRegisterPAT]{rv, rn}, rerr)
	case kindBind:
		v, n, err := codec.DecodeBindSession(b)
		rv, rn, rerr := reference.bindSession(b)
		return compare(decoded[codec.BindSession]{v, n}, err, decoded[refcodec.BindSession]{rv, rn}, rerr)
	}
	return "no reference reading of " + kind
}

// split is a result section's reading.
type split struct {
	PayloadLen int
	Code       uint32
}

// compareSplit compares the codec's reading of a result section with the
// reference's.
func compareSplit(body []byte) string {
	p, code, err := codec.SplitResult(body)
	rp, rcode, rerr := reference.splitResult(body)
	return compare(split{len(p), uint32(code)}, err, split{len(rp), rcode}, rerr)
}

// compareVersion compares the codec's reading of version text with the
// reference's.
func compareVersion(src []byte) string {
	v, err := codec.ParseVersion(string(src))
	rv, rerr := reference.parseVersion(string(src))
	return compare(struct{ Version uint32 }{uint32(v)}, err, struct{ Version uint32 }{rv}, rerr)
}

// compare returns refAgree, or what the codec says and what the reference
// says where they differ. Values are compared only when both decode.
func compare(got any, err error, want any, rerr error) string {
	gc, rc := codecclass.Of(err), refcodec.ClassOf(rerr)
	if gc != rc {
		return fmt.Sprintf("DIFFERS: codec says %s, reference says %s", showClass(gc), showClass(rc))
	}
	if err != nil {
		return refAgree
	}
	g, w := leaves(got), leaves(want)
	names := make([]string, 0, len(g))
	for name := range g {
		if _, ok := w[name]; ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	var diffs []string
	for _, name := range names {
		if gl, wl := g[name], w[name]; gl.raw != wl.raw {
			if gl.show == wl.show {
				wl.show += " (other bytes)"
			}
			diffs = append(diffs, fmt.Sprintf("codec says %s=%s, reference says %s=%s", name, gl.show, name, wl.show))
		}
	}
	if len(diffs) == 0 {
		return refAgree
	}
	return "DIFFERS: both decode, but " + strings.Join(diffs, "; ")
}

func showClass(c refcodec.Class) string {
	if c == refcodec.OK {
		return "decoded"
	}
	return "error (" + c.String() + ")"
}

// leaf is one field value: raw to compare, show to print.
type leaf struct{ raw, show string }

// leaves flattens a reading into its field values by dotted Go field
// name (Info.SDKName, Client.Lo, Body.Password, Used). The codec and the
// reference name their fields alike; a field only one of them has is not
// compared.
func leaves(v any) map[string]leaf {
	out := map[string]leaf{}
	flatten("", reflect.ValueOf(v), false, out)
	return out
}

// bytesOf is what a codec.Secret has.
type bytesOf interface{ Bytes() []byte }

func flatten(name string, v reflect.Value, secret bool, out map[string]leaf) {
	secret = secret || strings.HasSuffix(name, "Password") || strings.HasSuffix(name, "Token")
	hidden := strings.Contains(name, "Checksum")
	if v.CanInterface() {
		if b, ok := v.Interface().(bytesOf); ok && v.Kind() == reflect.Struct {
			out[name] = showBytes(b.Bytes(), secret)
			return
		}
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if !f.IsExported() {
				continue
			}
			n := f.Name
			if name != "" && !f.Anonymous {
				n = name + "." + f.Name
			} else if f.Anonymous {
				n = name
			}
			flatten(n, v.Field(i), secret, out)
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			out[name] = showBytes(v.Bytes(), secret)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		raw := fmt.Sprint(v.Interface())
		if v.CanUint() {
			raw = fmt.Sprint(v.Uint())
		} else if v.CanInt() {
			raw = fmt.Sprint(v.Int())
		}
		show := raw
		if hidden {
			show = map[bool]string{true: "0", false: "non-zero"}[raw == "0"]
		}
		out[name] = leaf{raw: raw, show: show}
	case reflect.Bool:
		out[name] = leaf{raw: fmt.Sprint(v.Bool()), show: fmt.Sprint(v.Bool())}
	}
}

// showBytes shows a byte field by its length only: its bytes are never
// printed (a secret is redacted as elsewhere in wiredump).
func showBytes(b []byte, secret bool) leaf {
	show := fmt.Sprintf("[%d bytes]", len(b))
	if secret {
		show = fmt.Sprintf("[REDACTED n=%d]", len(b))
	}
	if len(b) == 0 {
		show = "[empty]"
	}
	return leaf{raw: string(b), show: show}
}

// comparePeek compares the codec's reading of a frame's command byte with the
// reference's.
func comparePeek(src []byte) string {
	c, err := codec.PeekCommand(src)
	rc, rerr := reference.peekCommand(src)
	return compare(struct{ Command uint8 }{uint8(c)}, err, struct{ Command uint8 }{rc}, rerr)
}
