package refcodec

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// unhex turns a hex string (spaces allowed) into bytes, for golden values
// written by hand from WIRE.md.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// header256 builds a 256-byte header: zero everywhere except the hex bytes
// given at each offset.
func header256(t testing.TB, at map[int]string) []byte {
	t.Helper()
	b := make([]byte, 256)
	for off, h := range at {
		copy(b[off:], unhex(t, h))
	}
	return b
}

// wantClass fails the test unless err has class want.
func wantClass(t *testing.T, name string, err error, want Class) {
	t.Helper()
	if got := ClassOf(err); got != want {
		t.Errorf("%s: class %v (err %v), want %v", name, got, err, want)
	}
}

func TestClassNames(t *testing.T) {
	want := map[Class]string{
		OK: "ok", Truncated: "truncated", Command: "command", Size: "size",
		Reserved: "reserved", Field: "field", Reason: "reason", BadWindow: "window",
		Length: "length", UTF8: "utf8", Trailing: "trailing", Range: "range",
		Syntax: "syntax",
	}
	if len(want) != int(Syntax)+1 {
		t.Fatalf("table covers %d classes", len(want))
	}
	for c, s := range want {
		if c.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(c), c.String(), s)
		}
		if c.Error() != "refcodec: "+s {
			t.Errorf("%d.Error() = %q", int(c), c.Error())
		}
	}
	if got := Class(99).String(); got != "Class(99)" {
		t.Errorf("unknown class String = %q", got)
	}
	if got := Class(-3).String(); got != "Class(-3)" {
		t.Errorf("negative class String = %q", got)
	}
}

func TestClassValues(t *testing.T) {
	// The order is part of the contract with the fast codec's table.
	order := []Class{OK, Truncated, Command, Size, Reserved, Field, Reason,
		BadWindow, Length, UTF8, Trailing, Range, Syntax}
	for i, c := range order {
		if int(c) != i {
			t.Errorf("class %v = %d, want %d", c, int(c), i)
		}
	}
}

func TestClassOf(t *testing.T) {
	if ClassOf(nil) != OK {
		t.Error("ClassOf(nil) != OK")
	}
	if ClassOf(Reserved) != Reserved {
		t.Error("ClassOf(Reserved) != Reserved")
	}
	wrapped := fmt.Errorf("context: %w", UTF8)
	if ClassOf(wrapped) != UTF8 {
		t.Error("ClassOf(wrapped UTF8) != UTF8")
	}
	if ClassOf(errors.New("other")) != Class(-1) {
		t.Error("ClassOf(foreign) != -1")
	}
	var err error = Truncated
	if !errors.Is(err, Truncated) || errors.Is(err, Size) {
		t.Error("errors.Is does not compare classes")
	}
}

func TestRawHeaderSizes(t *testing.T) {
	for name, v := range map[string]any{
		"prologue": prologue{}, "request": rawRequest{}, "reply": rawReply{}, "eviction": rawEviction{},
	} {
		want := 256
		if name == "prologue" {
			want = 128
		}
		if got := binary.Size(v); got != want {
			t.Errorf("binary.Size(%s) = %d, want %d", name, got, want)
		}
	}
}

func TestSecretsNotFormatted(t *testing.T) {
	info := ClientVersionInfo{Protocol: 0x2C00, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	lr := LoginRegister{Info: info, Username: []byte("iggy"), Password: []byte("hunter2secret")}
	pat := LoginRegisterPAT{Info: info, Token: []byte("tok-SECRET-value")}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
		for _, v := range []any{lr, &lr, pat, &pat, []any{lr, pat}} {
			out := fmt.Sprintf(verb, v)
			for _, secret := range []string{"hunter2secret", "tok-SECRET-value"} {
				for _, form := range []string{secret, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret))), fmt.Sprint([]byte(secret))} {
					if strings.Contains(out, form) {
						t.Errorf("%s shows a secret: %s", verb, out)
					}
				}
			}
		}
	}
	if out := fmt.Sprint(lr); !strings.Contains(out, "iggy") || !strings.Contains(out, "[redacted]") {
		t.Errorf("formatted login = %s", out)
	}
}
