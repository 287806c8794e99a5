package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

func TestFrameStarts(t *testing.T) {
	src := make([]byte, 1024)
	src = withSize(src, 0, 300)
	// From 0: the header-only reading (256, 512, 768) and the size chain
	// (300, then 556 by the header-only reading of the frame at 300; 812
	// has no whole header before the end). Every other size is zero.
	if got, want := sorted(frameStarts(src)), []int{0, 256, 300, 512, 556, 768}; !slices.Equal(got, want) {
		t.Errorf("frameStarts = %v, want %v", got, want)
	}
	if got := frameStarts(src[:codec.HeaderSize-1]); got != nil {
		t.Errorf("frameStarts of a short input = %v, want none", got)
	}
	// A size pointing back at its own frame would loop; each start is
	// listed once.
	loop := withSize(withSize(make([]byte, 600), 0, 300), 300, 256)
	if got, want := sorted(frameStarts(loop)), []int{0, 256, 300}; !slices.Equal(got, want) {
		t.Errorf("frameStarts = %v, want %v", got, want)
	}
}

func sorted(s []int) []int {
	slices.Sort(s)
	return s
}

func TestSecretAt(t *testing.T) {
	body := loginBody(t, testPassword)
	pw := bytes.Index(body, []byte(testPassword))
	garbage := []byte{0xff, 0xfe, 7}
	in := concat(garbage, body, garbage)
	longCtx, err := codec.LoginRegister{Info: testInfo(), Username: []byte("iggy"), Password: codec.Secret(testPassword),
		Context: bytes.Repeat([]byte("c"), 2*loginWindow)}.AppendTo(nil)
	must(t, err)
	badCtx := concat(body[:len(body)-4], []byte{2, 0, 0, 0, 0xff, 0xff})
	for _, tc := range []struct {
		name          string
		src           []byte
		at            int
		kind          string
		want          span
		decodes, cuts bool
	}{
		{"login amid garbage", in, len(garbage), kindLogin, span{len(garbage) + pw, len(garbage) + pw + len(testPassword)}, true, false},
		{"username is no token", in, len(garbage), kindLoginPAT, span{}, false, false},
		{"cut inside the password", body[:pw+3], 0, kindLogin, span{pw, pw + 3}, false, true},
		{"cut before the context claim", body[:pw+len(testPassword)+2], 0, kindLogin, span{}, false, false},
		{"context past the window", longCtx, 0, kindLogin, span{pw, pw + len(testPassword)}, true, false},
		{"context past the input", longCtx[:len(longCtx)-1], 0, kindLogin, span{}, false, false},
		{"context not UTF-8", badCtx, 0, kindLogin, span{}, false, false},
		{"token", patBody(t, testPassword), 0, kindLoginPAT, tokenSpan(t), true, false},
	} {
		s, decodes, cuts := secretAt(tc.src, tc.at, tc.kind)
		if decodes != tc.decodes || cuts != tc.cuts || (decodes || cuts) && s != tc.want {
			t.Errorf("%s: secretAt = %v, decodes %v, cut %v; want %v, %v, %v", tc.name, s, decodes, cuts, tc.want, tc.decodes, tc.cuts)
		}
	}
}

func tokenSpan(t *testing.T) span {
	at := bytes.Index(patBody(t, testPassword), []byte(testPassword))
	return span{at, at + len(testPassword)}
}

// The fast exits of the scan are optimisations, never decisions: wherever
// they reject an offset, the codec rejects it too (and the input does not
// end inside a secret). Inputs are login bodies and frames with random
// bytes changed, and random bytes.
func TestFastExitsRejectOnlyWhatTheCodecRejects(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	seeds := [][]byte{loginBody(t, "pw"), patBody(t, "tok"), registerFrame(t, loginBody(t, "pw")), make([]byte, 64)}
	for range 3000 {
		src := bytes.Clone(seeds[rng.IntN(len(seeds))])
		for range rng.IntN(4) {
			src[rng.IntN(len(src))] = byte(rng.Uint32())
		}
		src = src[:rng.IntN(len(src)+1)]
		for i := range src {
			for _, kind := range loginKinds() {
				if mayStartLogin(src, i) && claimMayFit(src, i, kind) {
					continue
				}
				if accepted, cut := codecAccepts(src[i:], kind); accepted || cut {
					t.Fatalf("%s at %d of %x: a fast exit rejects what the codec accepts", kind, i, src)
				}
			}
		}
	}
}

// codecAccepts runs the codec's prefix decoder on the whole of b.
func codecAccepts(b []byte, kind string) (accepted, cut bool) {
	_, _, _, err := decodeLogin(b, kind)
	var ce *codec.Error
	return err == nil, errors.As(err, &ce) && errors.Is(err, codec.ErrTruncated) && ce.Field == secretField(kind)
}

// The scan does not blank what no reading takes for a secret: an honest
// stream shows everything but its password and its token, and, at most,
// the tail that a reading cut inside a secret claims (see tailSpans).
func TestHonestStreamBlanksOnlySecrets(t *testing.T) {
	reg := registerFrame(t, loginBody(t, testPassword))
	tok := registerFrame(t, patBody(t, testPassword))
	pw, tk := bytes.Index(reg, []byte(testPassword)), bytes.Index(tok, []byte(testPassword))
	n := len(testPassword)
	for name, tc := range map[string]struct {
		src  []byte
		want []span
	}{
		"register then token": {concat(reg, tok), []span{{pw, pw + n}, {len(reg) + tk, len(reg) + tk + n}}},
		"two register frames": {concat(reg, reg), []span{{pw, pw + n}, {len(reg) + pw, len(reg) + pw + n}}},
		"size 270":            {withSize(reg, 0, 270), []span{{pw, pw + n}}},
		"command 7":           {withCommand(reg, 0, 7), []span{{pw, pw + n}}},
	} {
		r := mustDump(t, tc.src, kindAuto)
		if got := withoutTail(r.Blank, len(tc.src)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: blank = %v, want %v and a tail", name, r.Blank, tc.want)
		}
	}
}

// withoutTail drops the span a reading cut inside a secret may claim at
// the end of an input of n bytes: one that ends there and starts at most
// 255 bytes (a u8-prefixed secret) before it.
func withoutTail(blank []span, n int) []span {
	if k := len(blank); k > 0 && blank[k-1].end == n && blank[k-1].start >= n-255 {
		return blank[:k-1]
	}
	return blank
}

// The tail over-redaction is real and bounded: in this stream the token
// shape read at the token's length byte takes the token for an sdk name,
// the context claim for a version and "c" for a token length, so the input
// ends inside that "token", and the context's last two bytes are blanked.
func TestCutReadingBlanksOnlyTheTail(t *testing.T) {
	src := concat(registerFrame(t, loginBody(t, testPassword)), registerFrame(t, patBody(t, testPassword)))
	r := mustDump(t, src, kindAuto)
	if last := r.Blank[len(r.Blank)-1]; last != (span{len(src) - 2, len(src)}) {
		t.Errorf("last blank = %v, want the context's last two bytes {%d %d}", last, len(src)-2, len(src))
	}
}

// A legacy login's body is withheld past a size field that claims less
// than the body holds, up to legacyReach bytes.
func TestWithheldBodyIgnoresALyingSize(t *testing.T) {
	src := concat(withSize(legacyLoginFrame(t, testPassword), 0, codec.HeaderSize), make([]byte, 2*legacyReach))
	r := mustDump(t, src, kindAuto)
	want := []span{{codec.HeaderSize, codec.HeaderSize + legacyReach}}
	if fmt.Sprint(r.Blank) != fmt.Sprint(want) {
		t.Errorf("blank = %v, want %v", r.Blank, want)
	}
}

// BenchmarkBlankSpans measures the scan of every offset on 1 MiB inputs:
// zero (a header's usual bytes), random binary and text, which the fast
// exits end early, and a crafted run of token-shaped bodies, which reach
// the codec at most offsets.
func BenchmarkBlankSpans(b *testing.B) {
	const n = 1 << 20
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, n)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	text := []byte(strings.Repeat("0.1.2 the quick brown fox jumps over the lazy dog 0123456789 ", n/61))
	unit := []byte{1, 2, 3, 4, 1, 'a', 1, 'b', 3, 'x', 'y', 'z', 0, 0, 0, 0, 'q'}
	for _, in := range []struct {
		name string
		src  []byte
	}{{"zero", make([]byte, n)}, {"random", random}, {"text", text}, {"tokens", bytes.Repeat(unit, n/len(unit))}} {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.src)))
			for b.Loop() {
				blankSpans(in.src, kindAuto, nil, true)
			}
		})
	}
}
