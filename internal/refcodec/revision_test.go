package refcodec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Golden bodies of protocol 0.11.1 (WIRE.md sections 10.2 and 10.3), byte
// by byte.
const (
	// protocol 0.11.1, sdk_name "go-sdk", sdk_version "0.1.0"
	goldenCVI0111 = "012c0000" + "06" + "676f2d73646b" + "05" + "302e312e30"
	goldenSecret  = "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	// username "iggy", password "iggy", no context, after the secret
	goldenLoginSecret = goldenCVI0111 + goldenSecret + "04" + "69676779" + "04" + "69676779" + "00000000"
	// token "tok", no context, after the secret
	goldenPATSecret = goldenCVI0111 + goldenSecret + "03" + "746f6b" + "00000000"
	// client_id Lo 0x0807060504030201 Hi 0x1817161514131211, session 42,
	// watermark 7, the secret
	goldenBind = goldenCVI0111 + "0102030405060708" + "1112131415161718" +
		"2a00000000000000" + "0700000000000000" + goldenSecret
)

var goldenInfo0111 = ClientVersionInfo{Protocol: 0x2C01, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}

func TestLoginRegisterSecretGolden(t *testing.T) {
	src := unhex(t, goldenLoginSecret)
	want := LoginRegister{Info: goldenInfo0111, BindSecret: unhex(t, goldenSecret), Username: []byte("iggy"), Password: []byte("iggy")}
	v, n, err := DecodeLoginRegisterSecret(append(append([]byte{}, src...), 0xAA))
	require.NoError(t, err)
	assert.Equal(t, len(src), n)
	assert.Equal(t, want, v)
	_, err = ParseLoginRegisterSecret(append(append([]byte{}, src...), 0xAA))
	assert.Equal(t, Trailing, ClassOf(err))
	enc, err := EncodeLoginRegisterSecret(want)
	require.NoError(t, err)
	assert.Equal(t, src, enc)
	// The same bytes read in the 0.11.0 layout take the secret's first
	// byte (0xa0 = 160) for the username's length: a different body.
	_, err = ParseLoginRegister(src)
	assert.Error(t, err)
	// The 0.11.0 layout's encoder refuses a version that selects the
	// other layout (WIRE.md section 10.1), before the secret.
	_, err = EncodeLoginRegister(want)
	assert.Equal(t, Field, ClassOf(err))
	// The layouts' encoders refuse a secret that does not fit them.
	base := want
	base.Info.Protocol = 0x2C00
	_, err = EncodeLoginRegister(base)
	assert.Equal(t, Length, ClassOf(err))
	_, err = EncodeLoginRegisterSecret(base)
	assert.Equal(t, Field, ClassOf(err), "a 0.11.0 body in the bind-secret layout")
	noSecret := want
	noSecret.BindSecret = nil
	_, err = EncodeLoginRegisterSecret(noSecret)
	assert.Equal(t, Length, ClassOf(err))
	// Each cut of the body is Truncated, the secret's included.
	for i := range src {
		_, _, err := DecodeLoginRegisterSecret(src[:i])
		assert.Equal(t, Truncated, ClassOf(err), "cut at %d", i)
	}
}

func TestLoginRegisterPATSecretGolden(t *testing.T) {
	src := unhex(t, goldenPATSecret)
	want := LoginRegisterPAT{Info: goldenInfo0111, BindSecret: unhex(t, goldenSecret), Token: []byte("tok")}
	v, err := ParseLoginRegisterPATSecret(src)
	require.NoError(t, err)
	assert.Equal(t, want, v)
	enc, err := EncodeLoginRegisterPATSecret(want)
	require.NoError(t, err)
	assert.Equal(t, src, enc)
	_, err = EncodeLoginRegisterPAT(want)
	assert.Equal(t, Field, ClassOf(err))
	base := want
	base.Info.Protocol = 0x2C00
	_, err = EncodeLoginRegisterPAT(base)
	assert.Equal(t, Length, ClassOf(err))
	_, err = EncodeLoginRegisterPATSecret(base)
	assert.Equal(t, Field, ClassOf(err))
}

func TestBindSessionGolden(t *testing.T) {
	src := unhex(t, goldenBind)
	require.Len(t, src, 17+64)
	want := BindSession{Info: goldenInfo0111, ClientID: Uint128{Lo: 0x0807060504030201, Hi: 0x1817161514131211},
		Session: 42, MetadataWatermark: 7, BindSecret: unhex(t, goldenSecret)}
	v, n, err := DecodeBindSession(append(append([]byte{}, src...), 1, 2))
	require.NoError(t, err)
	assert.Equal(t, len(src), n)
	assert.Equal(t, want, v)
	_, err = ParseBindSession(append(append([]byte{}, src...), 1))
	assert.Equal(t, Trailing, ClassOf(err))
	enc, err := EncodeBindSession(want)
	require.NoError(t, err)
	assert.Equal(t, src, enc)
	for i := range src {
		_, _, err := DecodeBindSession(src[:i])
		assert.Equal(t, Truncated, ClassOf(err), "cut at %d", i)
	}
	short := want
	short.BindSecret = short.BindSecret[:31]
	_, err = EncodeBindSession(short)
	assert.Equal(t, Length, ClassOf(err))
	bad := want
	bad.Info.SDKName = nil
	_, err = EncodeBindSession(bad)
	assert.Equal(t, Length, ClassOf(err))
}

// TestSecretsNotPrinted: fmt shows no byte of a bind secret.
func TestSecretsNotPrinted(t *testing.T) {
	secret := unhex(t, goldenSecret)
	for _, v := range []any{
		LoginRegister{BindSecret: secret}, LoginRegisterPAT{BindSecret: secret}, BindSession{BindSecret: secret},
	} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%x", "%s"} {
			s := sprintf(verb, v)
			assert.NotContains(t, s, "a0a1a2", verb)
			assert.NotContains(t, s, "160 161", verb)
			assert.True(t, strings.Contains(s, "[redacted]"), "%s: %s", verb, s)
		}
	}
}

func TestSecretLayoutAndPatchWindow(t *testing.T) {
	assert.False(t, SecretLayout(0x2C00))
	assert.True(t, SecretLayout(0x2C01))
	assert.False(t, SecretLayout(0x2C02))
	w := Window{Min: 0x2C01, Max: 0x2C01, CountPatch: true}
	assert.False(t, Accepts(w, 0x2C00))
	assert.True(t, Accepts(w, 0x2C01))
	assert.False(t, Accepts(w, 0x2C02), "a window that counts patch refuses a newer patch")
	assert.True(t, Accepts(Window{Min: 0x2C00, Max: 0x2C00}, 0x2C02), "the 0.x window ignores patch at the top")
	assert.False(t, Accepts(Window{Min: 0x2C00, Max: 0x2C01, CountPatch: true}, 0x2C02))
	assert.True(t, Accepts(Window{Min: 0x2C00, Max: 0x2C01, CountPatch: true}, 0x2C00))
}

func sprintf(format string, v any) string { return fmt.Sprintf(format, v) }
