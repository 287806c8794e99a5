package codec

import (
	"reflect"
	"testing"
)

// fastCase is one body kind: its fast path and its reader.
type fastCase struct {
	name string
	wire []byte
	fast func(src []byte, whole bool) (any, int, bool)
	read func(r *reader) any
}

// methodFast is the fast field of a body kind whose fast path is a method.
func methodFast[T any, PT interface {
	*T
	fast(src []byte, whole bool) (int, bool)
}](src []byte, whole bool) (any, int, bool) {
	var v T
	n, ok := PT(&v).fast(src, whole)
	return v, n, ok
}

// revFast is the fast field of a login body kind read in revision rev.
func revFast[T any, PT interface {
	*T
	fast(src []byte, whole bool, rev Revision) (int, bool)
}](rev Revision) func(src []byte, whole bool) (any, int, bool) {
	return func(src []byte, whole bool) (any, int, bool) {
		var v T
		n, ok := PT(&v).fast(src, whole, rev)
		return v, n, ok
	}
}

func fastCases(t *testing.T) []fastCase {
	info := ClientVersionInfo{Protocol: 0x2C00, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	infoUTF8 := ClientVersionInfo{Protocol: 0x2C00, SDKName: []byte("gö"), SDKVersion: []byte("1")}
	enc := func(v interface{ AppendBinary([]byte) ([]byte, error) }) []byte {
		b, err := v.AppendBinary(nil)
		if err != nil {
			t.Fatalf("AppendBinary(%+v): err = %v", v, err)
		}
		return b
	}
	var cases []fastCase
	for _, c := range []ClientVersionInfo{info, infoUTF8} {
		cases = append(cases, fastCase{"info", enc(c),
			func(s []byte, w bool) (any, int, bool) {
				p, name, version, n, ok := fastClientInfo(s, w)
				return ClientVersionInfo{Protocol: p, SDKName: name, SDKVersion: version}, n, ok
			},
			func(r *reader) any { return r.clientInfo() }})
	}
	for _, l := range []LoginRegister{
		{Info: info, Username: []byte("iggy"), Password: NewSecret([]byte("iggy")), Context: []byte("ctx")},
		{Info: infoUTF8, Username: []byte("jü"), Context: []byte("日本")},
	} {
		cases = append(cases, fastCase{"login", enc(l), revFast[LoginRegister](RevisionBase),
			func(r *reader) any { return r.loginRegister(RevisionBase) }})
	}
	// A bind secret of bytes above 0x7f, as random ones have: the fast
	// path must skip it in its ASCII test, and take it whatever it holds.
	secret := make([]byte, BindSecretLen)
	for i := range secret {
		secret[i] = byte(0x80 + i)
	}
	info11, info11UTF8 := info, infoUTF8
	info11.Protocol, info11UTF8.Protocol = Protocol0111, Protocol0111
	for _, l := range []LoginRegister{
		{Info: info11, Revision: RevisionBindSecret, BindSecret: NewSecret(secret), Username: []byte("iggy"), Password: NewSecret([]byte("iggy"))},
		{Info: info11UTF8, Revision: RevisionBindSecret, BindSecret: NewSecret(make([]byte, 32)), Username: []byte("jü"), Context: []byte("日本")},
	} {
		cases = append(cases, fastCase{"login-0.11.1", enc(l), revFast[LoginRegister](RevisionBindSecret),
			func(r *reader) any { return r.loginRegister(RevisionBindSecret) }})
	}
	for _, l := range []LoginRegisterPAT{{Info: info, Token: NewSecret([]byte("tok"))}, {Info: infoUTF8, Token: NewSecret([]byte("tök"))}} {
		cases = append(cases, fastCase{"pat", enc(l), revFast[LoginRegisterPAT](RevisionBase),
			func(r *reader) any { return r.loginRegisterPAT(RevisionBase) }})
	}
	for _, l := range []LoginRegisterPAT{
		{Info: info11, Revision: RevisionBindSecret, BindSecret: NewSecret(secret), Token: NewSecret([]byte("tok"))},
	} {
		cases = append(cases, fastCase{"pat-0.11.1", enc(l), revFast[LoginRegisterPAT](RevisionBindSecret),
			func(r *reader) any { return r.loginRegisterPAT(RevisionBindSecret) }})
	}
	for _, b := range []BindSession{
		{Info: info11, ClientID: Uint128{Lo: 1, Hi: 2}, Session: 3, MetadataWatermark: 4, BindSecret: NewSecret(secret)},
		{Info: infoUTF8, BindSecret: NewSecret(secret)},
	} {
		cases = append(cases, fastCase{"bind", enc(b), methodFast[BindSession],
			func(r *reader) any { return r.bindSession() }})
	}
	for _, l := range []LoginReply{
		{UserID: 1, Session: 42, ServerProtocol: 0x2C00, ServerVersion: []byte("0.11.0")},
		{UserID: 0xffffffff, Session: 1 << 63, ServerProtocol: 0xffffffff, ServerVersion: []byte("ü")},
	} {
		cases = append(cases, fastCase{"reply", enc(l),
			func(s []byte, w bool) (any, int, bool) {
				user, session, p, version, n, ok := fastLoginReply(s, w)
				return LoginReply{UserID: user, Session: session, ServerProtocol: p, ServerVersion: version}, n, ok
			},
			func(r *reader) any { return r.loginReply() }})
	}
	return cases
}

// variants returns src, every truncation, src with a byte appended, and
// src with each byte replaced by each of a few telling values.
func variants(src []byte) [][]byte {
	out := [][]byte{src, append(append([]byte{}, src...), 'x')}
	for n := range src {
		out = append(out, src[:n])
	}
	for i := range src {
		for _, v := range []byte{0, 1, 0x7f, 0x80, 0xc3, 0xff, src[i] + 1, src[i] - 1} {
			b := append([]byte{}, src...)
			b[i] = v
			out = append(out, b)
		}
	}
	return out
}

// TestFastPathAgreesWithReader: whenever the fast path accepts an input, the
// reader accepts it too, with the same value and length; and the fast path
// accepts every valid all-ASCII input, so the speed is not lost to a
// needless fallback.
func TestFastPathAgreesWithReader(t *testing.T) {
	for _, c := range fastCases(t) {
		textFrom := offInfoText
		if c.name == "reply" {
			textFrom = offReplyServerVersion + 1
		}
		for _, src := range variants(c.wire) {
			for _, whole := range []bool{false, true} {
				v, n, ok := c.fast(src, whole)
				r := reader{src: src}
				want := c.read(&r)
				if r.err == nil && whole {
					r.err = trailing(src, r.off, ruleBodyTrailing)
				}
				if ok {
					if r.err != nil {
						t.Fatalf("%s %x whole=%v: the fast path accepts what the reader rejects: %v", c.name, src, whole, r.err)
					}
					if !reflect.DeepEqual(v, want) {
						t.Errorf("%s %x: fast path value %+v, want the reader's %+v", c.name, src, v, want)
					}
					if n != r.off {
						t.Errorf("%s %x: fast path used %d bytes, want the reader's %d", c.name, src, n, r.off)
					}
				} else if r.err == nil && ascii(src[min(len(src), textFrom):]) {
					t.Errorf("%s %x whole=%v: valid ASCII body left to the reader", c.name, src, whole)
				}
			}
		}
	}
}

// TestASCII covers the word loop, the overlapping last word and the short
// byte loop with a high bit at every position.
func TestASCII(t *testing.T) {
	for n := 0; n <= 40; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		if !ascii(b) {
			t.Errorf("len %d: ascii(%q) = false, want true", n, b)
		}
		for i := range b {
			c := b[i]
			b[i] = 0x80
			if ascii(b) {
				t.Errorf("len %d, 0x80 at %d: ascii(%q) = true, want false", n, i, b)
			}
			b[i] = c
		}
	}
}

// TestASCIITop puts a high bit at every position of a word and asks about
// its top n bytes: only a high bit among them fails.
func TestASCIITop(t *testing.T) {
	for n := 0; n <= 8; n++ {
		if !asciiTop(0x7f7f7f7f7f7f7f7f, n) {
			t.Errorf("n %d: asciiTop(0x7f7f7f7f7f7f7f7f, %d) = false, want true", n, n)
		}
		for i := range 8 {
			w := uint64(0x80) << (8 * i)
			if fails, want := !asciiTop(w, n), i >= 8-n; fails != want {
				t.Errorf("n %d, high bit in byte %d: asciiTop(%#x, %d) = %v, want %v", n, i, w, n, !fails, !want)
			}
		}
	}
}
