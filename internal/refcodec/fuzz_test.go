package refcodec

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// checkClass fails unless err is nil or one of this package's classes.
func checkClass(t *testing.T, what string, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if c := ClassOf(err); c <= OK || c > Syntax {
		t.Fatalf("%s: foreign error %v", what, err)
	}
}

// mustHex decodes a hex seed; seeds are constants, so a failure is a bug.
func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// checkBody runs one body decoder, its strict parser and its encoder on src
// and checks that they agree with each other.
func checkBody[T any](t *testing.T, name string, src []byte,
	decode func([]byte) (T, int, error),
	parse func([]byte) (T, error),
	encode func(T) ([]byte, error),
) {
	t.Helper()
	v, n, err := decode(src)
	checkClass(t, name+" decode", err)
	pv, perr := parse(src)
	checkClass(t, name+" parse", perr)
	switch {
	case err != nil:
		if ClassOf(perr) != ClassOf(err) {
			t.Fatalf("%s: parse %v, decode %v", name, perr, err)
		}
		return
	case n < 0 || n > len(src):
		t.Fatalf("%s: consumed %d of %d", name, n, len(src))
	case n < len(src):
		if ClassOf(perr) != Trailing {
			t.Fatalf("%s: parse %v with %d trailing bytes", name, perr, len(src)-n)
		}
	default:
		if perr != nil {
			t.Fatalf("%s: parse %v, decode ok", name, perr)
		}
		_ = pv
	}
	enc, err := encode(v)
	if err != nil {
		t.Fatalf("%s: re-encode: %v", name, err)
	}
	if !bytes.Equal(enc, src[:n]) {
		t.Fatalf("%s: re-encode %x, want %x", name, enc, src[:n])
	}
}

func FuzzBodies(f *testing.F) {
	for _, s := range []string{
		goldenCVI, goldenLogin, goldenLoginCtx, goldenPAT, goldenReply,
		goldenLogin + "ff",                   // trailing byte
		goldenCVI + "00" + "ffffffff",        // context claims 4 GiB
		"002c0000" + "00",                    // empty sdk name
		"01000000" + "0000000000000000",      // login reply session 0
		goldenCVI + "01" + "ff" + "00000000", // bad UTF-8 username / token
	} {
		f.Add(mustHex(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		checkBody(t, "cvi", src, DecodeClientVersionInfo, ParseClientVersionInfo, EncodeClientVersionInfo)
		checkBody(t, "login", src, DecodeLoginRegister, ParseLoginRegister, EncodeLoginRegister)
		checkBody(t, "pat", src, DecodeLoginRegisterPAT, ParseLoginRegisterPAT, EncodeLoginRegisterPAT)
		checkBody(t, "reply", src, DecodeLoginReply, ParseLoginReply, EncodeLoginReply)
		payload, code, err := SplitResult(src)
		checkClass(t, "SplitResult", err)
		if err != nil && (payload != nil || code != 0) {
			t.Fatalf("SplitResult error with results")
		}
		if code != 0 && payload != nil {
			t.Fatalf("SplitResult code %d with payload", code)
		}
	})
}

func FuzzHeaders(f *testing.F) {
	f.Add(pingRequest(f))
	f.Add(logoutRequest(f))
	f.Add(registerRequest(f))
	f.Add(pingReply(f))
	f.Add(loginReplyHeader(f))
	f.Add(incompatibleEviction(f))
	f.Add(malformedEviction(f))
	f.Add(make([]byte, 255))
	f.Fuzz(func(t *testing.T, src []byte) {
		cmd, cerr := PeekCommand(src)
		checkClass(t, "PeekCommand", cerr)
		_, err := FrameSize(src)
		checkClass(t, "FrameSize", err)

		if h, err := DecodeRequestHeader(src); err == nil {
			enc, err := EncodeRequestHeader(h)
			if err != nil || !bytes.Equal(enc, src[:256]) || cmd != 5 {
				t.Fatalf("request re-encode %x, %v", enc, err)
			}
		} else {
			checkClass(t, "request", err)
		}
		if h, err := DecodeReplyHeader(src); err == nil {
			enc, err := EncodeReplyHeader(h)
			if err != nil || !bytes.Equal(enc, src[:256]) || cmd != 8 {
				t.Fatalf("reply re-encode %x, %v", enc, err)
			}
		} else {
			checkClass(t, "reply", err)
		}
		if e, err := DecodeEviction(src); err == nil {
			enc, err := EncodeEviction(e)
			if err != nil || !bytes.Equal(enc, src[:256]) || cmd != 13 {
				t.Fatalf("eviction re-encode %x, %v", enc, err)
			}
		} else {
			checkClass(t, "eviction", err)
		}
	})
}

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"0.11.0", "0.11.0-edge.2", "1.2.3+b", "1024.0.0", "99999999999999999999999", "1.2", "v1.2.3", "1.2.3x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseVersion(s)
		checkClass(t, "ParseVersion", err)
		if err != nil {
			if v != 0 {
				t.Fatalf("value %#x with error", v)
			}
			if c := ClassOf(err); c != Range && c != Syntax {
				t.Fatalf("class %v", c)
			}
			return
		}
		if !ValidVersion(v) {
			t.Fatalf("invalid version %#x", v)
		}
		back, err := ParseVersion(FormatVersion(v))
		if err != nil || back != v {
			t.Fatalf("round trip %q -> %#x -> %q", s, v, FormatVersion(v))
		}
		w := DefaultWindow(v)
		if WindowValid(w) && !Accepts(w, v) {
			t.Fatalf("default window %+v rejects its own max", w)
		}
	})
}
