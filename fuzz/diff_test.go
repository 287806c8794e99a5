package fuzz

import (
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/internal/refcodec/codecclass"
	"github.com/iggywire/iggywire/internal/refconv"
)

// agree fails unless codec and the reference returned the same class and,
// on success, the same value (after converting codec's to the reference's
// types) and the same count of bytes used.
func agree(t *testing.T, what string, got any, gotN int, gotErr error, want any, wantN int, wantErr error) {
	t.Helper()
	gc, wc := codecclass.Of(gotErr), refcodec.ClassOf(wantErr)
	if gc != wc {
		t.Fatalf("%s: codec says %v (%v), reference says %v", what, gc, gotErr, wc)
	}
	if gotErr == nil && (gotN != wantN || !reflect.DeepEqual(got, want)) {
		t.Fatalf("%s: codec decodes %+v (n=%d), reference %+v (n=%d)", what, got, gotN, want, wantN)
	}
}

// FuzzDifferential runs every codec decoder and the reference's on the same
// bytes.
func FuzzDifferential(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, src []byte) {
		diffBodies(t, src)
		diffHeaders(t, src)
		diffFraming(t, src)
		diffVersions(t, src)
	})
}

func diffBodies(t *testing.T, src []byte) {
	diffBody(t, "ClientVersionInfo", src, codec.DecodeClientVersionInfo, codec.ParseClientVersionInfo,
		refcodec.DecodeClientVersionInfo, refcodec.ParseClientVersionInfo, refconv.ToRefInfo)
	diffBody(t, "LoginRegister", src, codec.DecodeLoginRegister, codec.ParseLoginRegister,
		refcodec.DecodeLoginRegister, refcodec.ParseLoginRegister, refconv.ToRefLogin)
	diffBody(t, "LoginRegisterPAT", src, codec.DecodeLoginRegisterPAT, codec.ParseLoginRegisterPAT,
		refcodec.DecodeLoginRegisterPAT, refcodec.ParseLoginRegisterPAT, refconv.ToRefPAT)
	diffBody(t, "LoginReply", src, codec.DecodeLoginReply, codec.ParseLoginReply,
		refcodec.DecodeLoginReply, refcodec.ParseLoginReply, refconv.ToRefReply)
	// Protocol 0.11.1 (WIRE.md section 10): both login bodies in the
	// bind-secret layout, and BIND_SESSION.
	diffBody(t, "LoginRegisterSecret", src, loginSecretAPI.decode, loginSecretAPI.parse,
		refcodec.DecodeLoginRegisterSecret, refcodec.ParseLoginRegisterSecret, refconv.ToRefLogin)
	diffBody(t, "LoginRegisterPATSecret", src, loginPATSecretAPI.decode, loginPATSecretAPI.parse,
		refcodec.DecodeLoginRegisterPATSecret, refcodec.ParseLoginRegisterPATSecret, refconv.ToRefPAT)
	diffBody(t, "BindSession", src, codec.DecodeBindSession, codec.ParseBindSession,
		refcodec.DecodeBindSession, refcodec.ParseBindSession, refconv.ToRefBind)
}

// diffBody runs one body type's prefix decoder and strict parser, codec's
// and the reference's, on src; what names them "Decode<what>" and
// "Parse<what>".
func diffBody[C, R any](t *testing.T, what string, src []byte,
	decode func([]byte) (C, int, error), parse func([]byte) (C, error),
	refDecode func([]byte) (R, int, error), refParse func([]byte) (R, error), conv func(C) R) {
	t.Helper()
	c, n, err := decode(src)
	rc, rn, rerr := refDecode(src)
	agree(t, "Decode"+what, conv(c), n, err, rc, rn, rerr)
	c, err = parse(src)
	rc, rerr = refParse(src)
	agree(t, "Parse"+what, conv(c), 0, err, rc, 0, rerr)
}

func diffHeaders(t *testing.T, src []byte) {
	diffHeader(t, "DecodeRequestHeader", src, codec.DecodeRequestHeader, refcodec.DecodeRequestHeader, refconv.ToRefRequest)
	diffHeader(t, "DecodeReplyHeader", src, codec.DecodeReplyHeader, refcodec.DecodeReplyHeader, refconv.ToRefReplyHeader)
	diffHeader(t, "DecodeEviction", src, codec.DecodeEviction, refcodec.DecodeEviction, refconv.ToRefEviction)
}

// diffHeader runs one header decoder, codec's and the reference's, on src.
func diffHeader[C, R any](t *testing.T, what string, src []byte,
	decode func([]byte) (C, error), refDecode func([]byte) (R, error), conv func(C) R) {
	t.Helper()
	h, err := decode(src)
	rh, rerr := refDecode(src)
	agree(t, what, conv(h), 0, err, rh, 0, rerr)
}

func diffFraming(t *testing.T, src []byte) {
	c, err := codec.PeekCommand(src)
	rc, rerr := refcodec.PeekCommand(src)
	agree(t, "PeekCommand", uint8(c), 0, err, rc, 0, rerr)

	n, err := codec.FrameSize(src)
	rn, rerr := refcodec.FrameSize(src)
	agree(t, "FrameSize", n, 0, err, rn, 0, rerr)

	payload, code, err := codec.SplitResult(src)
	rpayload, rcode, rerr := refcodec.SplitResult(src)
	agree(t, "SplitResult", [2]any{payload, uint32(code)}, 0, err, [2]any{rpayload, rcode}, 0, rerr)
}

func diffVersions(t *testing.T, src []byte) {
	v, err := codec.ParseVersion(string(src))
	rv, rerr := refcodec.ParseVersion(string(src))
	agree(t, "ParseVersion", uint32(v), 0, err, rv, 0, rerr)
	if len(src) < 12 {
		return
	}
	le := binary.LittleEndian
	w := codec.Window{Min: codec.Version(le.Uint32(src)), Max: codec.Version(le.Uint32(src[4:]))}
	rw := refcodec.Window{Min: uint32(w.Min), Max: uint32(w.Max)}
	x := le.Uint32(src[8:])
	got := [...]any{w.IsValid(), w.Accepts(codec.Version(x)), refconv.ToRefWindow(codec.DefaultWindow(codec.Version(x))), codec.Version(x).IsValid()}
	want := [...]any{refcodec.WindowValid(rw), refcodec.Accepts(rw, x), refcodec.DefaultWindow(x), refcodec.ValidVersion(x)}
	if got != want {
		t.Fatalf("window %v, version %#x: codec says %v, reference %v", w, x, got, want)
	}
	if codec.Version(x).IsValid() && codec.Version(x).String() != refcodec.FormatVersion(x) {
		t.Fatalf("version %#x: codec prints %q, reference %q", x, codec.Version(x).String(), refcodec.FormatVersion(x))
	}
}
