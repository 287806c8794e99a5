package codec_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// TestErrorText checks the format of *Error and that it unwraps to its
// sentinel.
func TestErrorText(t *testing.T) {
	_, err := codec.ParseClientVersionInfo(hx("00 2c 00 00 | 02 61 ff | 01 31"))
	if got, want := err.Error(), "codec: sdk_name at offset 6: invalid UTF-8, want valid UTF-8 (rule cvi.sdk_name.utf8)"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	ce := codecError(t, err)
	if ce.Unwrap() != codec.ErrUTF8 || errors.Unwrap(err) != codec.ErrUTF8 {
		t.Fatalf("Unwrap = %v, errors.Unwrap = %v; want ErrUTF8", ce.Unwrap(), errors.Unwrap(err))
	}
}

// TestSentinelsDistinct: no sentinel matches another, so "exactly one"
// in codecError means something.
func TestSentinelsDistinct(t *testing.T) {
	sentinels := codectest.Classes()
	seen := map[string]bool{}
	for i, c := range sentinels {
		a := c.Err
		if seen[a.Error()] {
			t.Errorf("two sentinels read %q", a.Error())
		}
		seen[a.Error()] = true
		for j, d := range sentinels {
			if b := d.Err; errors.Is(a, b) != (i == j) {
				t.Fatalf("errors.Is(%v, %v) = %t, want %t", a, b, !(i == j), i == j)
			}
		}
	}
	if len(sentinels) != 12 {
		t.Fatalf("%d sentinels, want 12", len(sentinels))
	}
}

// anyDecoders is every decoder of the package, results boxed; n is the
// number of bytes the value's encoding should give back.
var anyDecoders = map[string]func([]byte) (encoder, int, error){
	"ClientVersionInfo": func(b []byte) (encoder, int, error) { return codec.DecodeClientVersionInfo(b) },
	"LoginRegister":     func(b []byte) (encoder, int, error) { return codec.DecodeLoginRegister(b) },
	"LoginRegisterPAT":  func(b []byte) (encoder, int, error) { return codec.DecodeLoginRegisterPAT(b) },
	"LoginReply":        func(b []byte) (encoder, int, error) { return codec.DecodeLoginReply(b) },
	"RequestHeader":     func(b []byte) (encoder, int, error) { v, err := codec.DecodeRequestHeader(b); return &v, 256, err },
	"ReplyHeader":       func(b []byte) (encoder, int, error) { v, err := codec.DecodeReplyHeader(b); return &v, 256, err },
	"Eviction":          func(b []byte) (encoder, int, error) { v, err := codec.DecodeEviction(b); return &v, 256, err },
}

// TestMutatedInputs changes each byte of each golden in four ways and
// feeds the result to every decoder: nothing panics, every error is a
// *codec.Error of exactly one class, and every success re-encodes to
// exactly the bytes it was decoded from (the codec is strict); a login
// body decoded in a revision its version does not select (a mutated
// version byte) is the one exception: the encoders refuse it with rule
// body.revision.version, and re-encode it once the version is its
// revision's again.
func TestMutatedInputs(t *testing.T) {
	decoded := 0
	for _, g := range goldens {
		for i := range g.wire {
			for _, mutate := range []func(byte) byte{
				func(byte) byte { return 0 }, func(byte) byte { return 0xFF },
				func(c byte) byte { return c ^ 1 }, func(c byte) byte { return c ^ 0x80 },
			} {
				src := append([]byte{}, g.wire...)
				src[i] = mutate(src[i])
				for name, decode := range anyDecoders {
					v, n, err := decode(src)
					if err != nil {
						codecError(t, err)
						continue
					}
					decoded++
					out, err := v.AppendBinary(nil)
					want := src[:n]
					if v, relabelledSrc, ok := relabelled(v, want); ok {
						if ce, isCE := err.(*codec.Error); !isCE || ce.Rule != "body.revision.version" || ce.Offset != 4+2+int(src[4])+int(src[5+int(src[4])]) {
							t.Fatalf("%s, byte %d of %s: decoded %+v in the other revision than its version's: AppendBinary says %v", name, i, g.name, v, err)
						}
						out, err = v.AppendBinary(nil)
						want = relabelledSrc
					}
					if err != nil || !bytes.Equal(out, want) {
						t.Fatalf("%s, byte %d of %s: decoded %+v re-encodes to %x (%v), want %x", name, i, g.name, v, out, err, want)
					}
				}
			}
		}
	}
	if decoded == 0 {
		t.Fatal("no mutated input decoded; the re-encoding check never ran")
	}
}

// relabelled reports whether v is a login body whose Revision is not the
// one its version selects; if so it returns v and its encoding src with the
// version the revision's.
func relabelled(v encoder, src []byte) (encoder, []byte, bool) {
	var rev codec.Revision
	var proto codec.Version
	switch l := v.(type) {
	case codec.LoginRegister:
		rev, proto = l.Revision, l.Info.Protocol
		l.Info.Protocol = rev.Protocol()
		v = l
	case codec.LoginRegisterPAT:
		rev, proto = l.Revision, l.Info.Protocol
		l.Info.Protocol = rev.Protocol()
		v = l
	default:
		return v, src, false
	}
	if codec.RevisionOf(proto) == rev {
		return v, src, false
	}
	out := append([]byte{}, src...)
	binary.LittleEndian.PutUint32(out, uint32(rev.Protocol()))
	return v, out, true
}
