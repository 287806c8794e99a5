package refcodec

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unhex turns a hex string (spaces allowed) into bytes, for golden values
// written by hand from WIRE.md.
func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err, "bad hex %q", s)
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

func TestClassNames(t *testing.T) {
	want := map[Class]string{
		OK: "ok", Truncated: "truncated", Command: "command", Size: "size",
		Reserved: "reserved", Field: "field", Reason: "reason", BadWindow: "window",
		Length: "length", UTF8: "utf8", Trailing: "trailing", Range: "range",
		Syntax: "syntax",
	}
	require.Len(t, want, int(Syntax)+1, "the table covers every class")
	for c, s := range want {
		assert.Equal(t, s, c.String())
		assert.Equal(t, "refcodec: "+s, c.Error())
	}
	assert.Equal(t, "Class(99)", Class(99).String())
	assert.Equal(t, "Class(-3)", Class(-3).String())
}

func TestClassValues(t *testing.T) {
	// The order is part of the contract with the fast codec's table.
	order := []Class{OK, Truncated, Command, Size, Reserved, Field, Reason,
		BadWindow, Length, UTF8, Trailing, Range, Syntax}
	for i, c := range order {
		assert.Equal(t, i, int(c), "class %v", c)
	}
}

func TestClassOf(t *testing.T) {
	assert.Equal(t, OK, ClassOf(nil))
	assert.Equal(t, Reserved, ClassOf(Reserved))
	assert.Equal(t, UTF8, ClassOf(fmt.Errorf("context: %w", UTF8)))
	assert.Equal(t, Class(-1), ClassOf(errors.New("other")))
	var err error = Truncated
	assert.ErrorIs(t, err, Truncated)
	assert.NotErrorIs(t, err, Size)
}

// TestHeaderFieldLists: each header's field list, the command byte and the
// reserved areas included, is 256 bytes, its prologue the first 128.
func TestHeaderFieldLists(t *testing.T) {
	size := func(fields []any) int {
		n := 0
		for _, f := range fields {
			n += binary.Size(f)
		}
		return n
	}
	var u unnamed
	var s uint32
	var x Uint128
	assert.Equal(t, 128, size(prologue(&x, &x, &x, &s, &s, &s, new(uint8), &u)), "prologue")
	assert.Equal(t, 256, size(request.fields(&RequestHeader{}, &u)), "request")
	assert.Equal(t, 256, size(reply.fields(&ReplyHeader{}, &u)), "reply")
	assert.Equal(t, 256, size(eviction.fields(&Eviction{}, &u)), "eviction")
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
					assert.NotContains(t, out, form, "%s shows a secret", verb)
				}
			}
		}
	}
	out := fmt.Sprint(lr)
	assert.Contains(t, out, "iggy")
	assert.Contains(t, out, "[redacted]")
}
