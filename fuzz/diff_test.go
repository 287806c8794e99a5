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
	f.Fuzz(func(t *testing.T, src []byte) {
		diffBodies(t, src)
		diffHeaders(t, src)
		diffFraming(t, src)
		diffVersions(t, src)
	})
}

func diffBodies(t *testing.T, src []byte) {
	c, n, err := codec.DecodeClientVersionInfo(src)
	rc, rn, rerr := refcodec.DecodeClientVersionInfo(src)
	agree(t, "DecodeClientVersionInfo", refconv.ToRefInfo(c), n, err, rc, rn, rerr)
	c, err = codec.ParseClientVersionInfo(src)
	rc, rerr = refcodec.ParseClientVersionInfo(src)
	agree(t, "ParseClientVersionInfo", refconv.ToRefInfo(c), 0, err, rc, 0, rerr)

	l, n, err := codec.DecodeLoginRegister(src)
	rl, rn, rerr := refcodec.DecodeLoginRegister(src)
	agree(t, "DecodeLoginRegister", refconv.ToRefLogin(l), n, err, rl, rn, rerr)
	l, err = codec.ParseLoginRegister(src)
	rl, rerr = refcodec.ParseLoginRegister(src)
	agree(t, "ParseLoginRegister", refconv.ToRefLogin(l), 0, err, rl, 0, rerr)

	p, n, err := codec.DecodeLoginRegisterPAT(src)
	rp, rn, rerr := refcodec.DecodeLoginRegisterPAT(src)
	agree(t, "DecodeLoginRegisterPAT", refconv.ToRefPAT(p), n, err, rp, rn, rerr)
	p, err = codec.ParseLoginRegisterPAT(src)
	rp, rerr = refcodec.ParseLoginRegisterPAT(src)
	agree(t, "ParseLoginRegisterPAT", refconv.ToRefPAT(p), 0, err, rp, 0, rerr)

	r, n, err := codec.DecodeLoginReply(src)
	rr, rn, rerr := refcodec.DecodeLoginReply(src)
	agree(t, "DecodeLoginReply", refconv.ToRefReply(r), n, err, rr, rn, rerr)
	r, err = codec.ParseLoginReply(src)
	rr, rerr = refcodec.ParseLoginReply(src)
	agree(t, "ParseLoginReply", refconv.ToRefReply(r), 0, err, rr, 0, rerr)
}

func diffHeaders(t *testing.T, src []byte) {
	h, err := codec.DecodeRequestHeader(src)
	rh, rerr := refcodec.DecodeRequestHeader(src)
	agree(t, "DecodeRequestHeader", refconv.ToRefRequest(h), 0, err, rh, 0, rerr)

	p, err := codec.DecodeReplyHeader(src)
	rp, rerr := refcodec.DecodeReplyHeader(src)
	agree(t, "DecodeReplyHeader", refconv.ToRefReplyHeader(p), 0, err, rp, 0, rerr)

	e, err := codec.DecodeEviction(src)
	re, rerr := refcodec.DecodeEviction(src)
	agree(t, "DecodeEviction", refconv.ToRefEviction(e), 0, err, re, 0, rerr)
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
	got := [...]any{w.Valid(), w.Accepts(codec.Version(x)), refconv.ToRefWindow(codec.DefaultWindow(codec.Version(x))), codec.Version(x).Valid()}
	want := [...]any{refcodec.WindowValid(rw), refcodec.Accepts(rw, x), refcodec.DefaultWindow(x), refcodec.ValidVersion(x)}
	if got != want {
		t.Fatalf("window %v, version %#x: codec says %v, reference %v", w, x, got, want)
	}
	if codec.Version(x).Valid() && codec.Version(x).String() != refcodec.FormatVersion(x) {
		t.Fatalf("version %#x: codec prints %q, reference %q", x, codec.Version(x).String(), refcodec.FormatVersion(x))
	}
}
