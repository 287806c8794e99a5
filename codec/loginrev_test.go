package codec_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// loginSecretHex is LOGIN_REGISTER {0.11.1, "go-sdk", "0.1.0"} with the bind
// secret a0..bf, username "iggy", password "iggy", no context, written out
// by hand from WIRE.md section 10.2: the secret at 17..49, username_len at
// 49, password_len at 54, context_len at 59.
var loginSecretHex = info0111Hex + "|" + bindSecretHex + "| 04 69 67 67 79 | 04 69 67 67 79 | 00 00 00 00"

// patSecretHex is LOGIN_REGISTER_WITH_PAT with the same secret and token
// "tok": token_len at 49.
var patSecretHex = info0111Hex + "|" + bindSecretHex + "| 03 74 6f 6b | 00 00 00 00"

func loginSecretValue() codec.LoginRegister {
	return codec.LoginRegister{Info: bindValue().Info, Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(hx(bindSecretHex)),
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
}

// TestLoginRegisterRevisions: each revision's layout is written and read
// exactly; the revision is the caller's, never guessed; the 0.11.0 entry
// points are RevisionBase.
func TestLoginRegisterRevisions(t *testing.T) {
	want := hx(loginSecretHex)
	v := loginSecretValue()
	assert.Equal(t, len(want), v.EncodedLen())
	got, err := v.AppendBinary(nil)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	p, err := codec.ParseLoginRegisterRev(want, codec.RevisionBindSecret)
	require.NoError(t, err)
	assert.True(t, sameValue(v, p), "ParseLoginRegisterRev = %v", p)
	assert.True(t, p.BindSecret.Equal(codec.NewSecret(hx(bindSecretHex))))
	d, n, err := codec.DecodeLoginRegisterRev(cat(want, []byte("tail")), codec.RevisionBindSecret)
	require.NoError(t, err)
	assert.Equal(t, len(want), n)
	assert.True(t, sameValue(v, d))

	// The same bytes in the 0.11.0 layout read the secret's first byte as
	// username_len (0xa0 = 160, more than the body holds): an error, never
	// a silent switch of layout.
	_, err = codec.ParseLoginRegister(want)
	wantErr(t, err, codec.ErrTruncated, "username", 18)
	_, err = codec.ParseLoginRegisterRev(want, codec.RevisionBase)
	wantErr(t, err, codec.ErrTruncated, "username", 18)

	// A 0.11.0 body read as 0.11.1 loses its first 32 bytes after the
	// prefix to the secret, and is what is left.
	base := loginIggy
	baseBytes, err := base.AppendBinary(nil)
	require.NoError(t, err)
	_, err = codec.ParseLoginRegisterRev(baseBytes, codec.RevisionBindSecret)
	require.Error(t, err)

	// The zero Revision is the 0.11.0 layout: 0.11.0 code is unchanged.
	b0, _, err := codec.DecodeLoginRegisterRev(baseBytes, codec.RevisionBase)
	require.NoError(t, err)
	assert.Equal(t, codec.RevisionBase, b0.Revision)
	assert.True(t, b0.BindSecret.IsZero())
}

// TestLoginRegisterPATRevisions: the token body likewise.
func TestLoginRegisterPATRevisions(t *testing.T) {
	want := hx(patSecretHex)
	v := codec.LoginRegisterPAT{Info: bindValue().Info, Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(hx(bindSecretHex)),
		Token: codec.NewSecret([]byte("tok"))}
	got, err := v.AppendBinary(nil)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	assert.Equal(t, len(want), v.EncodedLen())
	p, err := codec.ParseLoginRegisterPATRev(want, codec.RevisionBindSecret)
	require.NoError(t, err)
	assert.True(t, sameValue(v, p))
	_, n, err := codec.DecodeLoginRegisterPATRev(cat(want, []byte{1}), codec.RevisionBindSecret)
	require.NoError(t, err)
	assert.Equal(t, len(want), n)
	_, err = codec.ParseLoginRegisterPATRev(cat(want, []byte{1}), codec.RevisionBindSecret)
	wantErr(t, err, codec.ErrTrailing, "body", len(want))
}

// TestLoginRevisionErrors: an error in a 0.11.1 body names its revision,
// at the offsets of that layout; a 0.11.0 error names none and reads as it
// always did.
func TestLoginRevisionErrors(t *testing.T) {
	bad := hx(info0111Hex + "|" + bindSecretHex + "| 02 ff ff | 00 | 00 00 00 00")
	_, err := codec.ParseLoginRegisterRev(bad, codec.RevisionBindSecret)
	wantErr(t, err, codec.ErrUTF8, "username", 50)
	ce := codecError(t, err)
	assert.Equal(t, codec.RevisionBindSecret, ce.Revision)
	assert.True(t, strings.HasSuffix(err.Error(), "in the 0.11.1 layout"), err.Error())

	cut := hx(info0111Hex + "|" + bindSecretHex)[:40]
	_, _, err = codec.DecodeLoginRegisterRev(cut, codec.RevisionBindSecret)
	wantErr(t, err, codec.ErrTruncated, "bind_secret", 17)
	assert.Equal(t, "login.truncated", codecError(t, err).Rule)

	_, _, err = codec.DecodeLoginRegisterRev(hx(loginSecretHex), codec.Revision(5))
	wantErr(t, err, codec.ErrField, "revision", 17)
	assert.Equal(t, "body.revision", codecError(t, err).Rule)

	_, err = codec.ParseLoginRegister(hx(infoGoSDKHex + "| 02 ff ff | 00 | 00 00 00 00"))
	assert.Equal(t, codec.RevisionBase, codecError(t, err).Revision)
	assert.NotContains(t, err.Error(), "layout")
	assert.True(t, errors.Is(err, codec.ErrUTF8))
}

// TestLoginRevisionEncodeErrors: an encoder writes the layout its value's
// Revision says and refuses a value whose secret does not fit it.
func TestLoginRevisionEncodeErrors(t *testing.T) {
	with := func(edit func(*codec.LoginRegister)) codec.LoginRegister { l := loginSecretValue(); edit(&l); return l }
	cases := []struct {
		name  string
		v     codec.LoginRegister
		kind  error
		field string
		off   int
		rule  string
	}{
		{"0.11.1 without a secret", with(func(l *codec.LoginRegister) { l.BindSecret = codec.Secret{} }), codec.ErrLength, "bind_secret", 17, "login.bind_secret.length"},
		{"0.11.1 with 31 bytes", with(func(l *codec.LoginRegister) { l.BindSecret = codec.NewSecret(make([]byte, 31)) }), codec.ErrLength, "bind_secret", 17, "login.bind_secret.length"},
		{"0.11.0 with a secret", with(func(l *codec.LoginRegister) { l.Info.Protocol, l.Revision = codec.Protocol0110, codec.RevisionBase }), codec.ErrLength, "bind_secret", 17, "login.bind_secret.length"},
		{"0.11.1 info, revision left at its zero value", with(func(l *codec.LoginRegister) { l.Revision, l.BindSecret = codec.RevisionBase, codec.Secret{} }), codec.ErrField, "revision", 17, "body.revision.version"},
		{"0.11.0 info, bind-secret revision", with(func(l *codec.LoginRegister) { l.Info.Protocol = codec.Protocol0110 }), codec.ErrField, "revision", 17, "body.revision.version"},
		{"0.11.2 info, bind-secret revision", with(func(l *codec.LoginRegister) { l.Info.Protocol = codec.Protocol0111 + 1 }), codec.ErrField, "revision", 17, "body.revision.version"},
		{"unknown revision", with(func(l *codec.LoginRegister) { l.Revision = 3 }), codec.ErrField, "revision", 17, "body.revision"},
		{"0.11.1, bad username after the secret", with(func(l *codec.LoginRegister) { l.Username = []byte("\xff") }), codec.ErrUTF8, "username", 50, "login.username.utf8"},
		{"0.11.1, bad info first", with(func(l *codec.LoginRegister) { l.Info.SDKName, l.BindSecret = nil, codec.Secret{} }), codec.ErrLength, "sdk_name_len", 4, "cvi.sdk_name.length"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.v.Validate(), c.kind, c.field, c.off)
			out, err := c.v.AppendBinary([]byte{1})
			wantErr(t, err, c.kind, c.field, c.off)
			assert.Equal(t, []byte{1}, out)
			assert.Equal(t, c.rule, codecError(t, err).Rule)
			if c.field == "bind_secret" { // the length the revision wants
				want := map[bool]string{true: "len == 32", false: "len == 0 (0.11.0 layout)"}[c.v.Revision == codec.RevisionBindSecret]
				assert.Equal(t, want, codecError(t, err).Want)
			}
		})
	}
	pat := codec.LoginRegisterPAT{Info: bindValue().Info, Revision: codec.RevisionBindSecret, Token: codec.NewSecret([]byte("t"))}
	wantErr(t, pat.Validate(), codec.ErrLength, "bind_secret", 17)
	assert.Equal(t, "pat.bind_secret.length", codecError(t, pat.Validate()).Rule)
}

// TestLoginRevisionPrinting: a 0.11.1 body prints its revision and only a
// redaction of its secret; a 0.11.0 body prints as it always did.
func TestLoginRevisionPrinting(t *testing.T) {
	v := loginSecretValue()
	s := v.String()
	assert.Contains(t, s, "revision: 0.11.1")
	assert.Contains(t, s, "bind_secret: [REDACTED]")
	assert.NotContains(t, s, "a0a1")
	assert.NotContains(t, loginIggy.String(), "bind_secret")
	assert.NotContains(t, loginIggy.String(), "revision")
	c := v.Clone()
	assert.True(t, v.Equal(c))
	c.BindSecret = codec.NewSecret(make([]byte, 32))
	assert.False(t, v.Equal(c), "bodies whose secrets differ are not equal")
	c = v.Clone()
	c.Revision = codec.RevisionBase
	assert.False(t, v.Equal(c), "bodies of different revisions are not equal")
}

// TestWindowCountPatch: protocol 0.11.1's gate counts patch; 0.11.0's
// ignores it at the top; ServeWindow builds each as upstream does.
func TestWindowCountPatch(t *testing.T) {
	w0111 := codec.InclusiveWindow(codec.Protocol0111, codec.Protocol0111)
	assert.True(t, w0111.CountPatch)
	assert.True(t, w0111.Accepts(codec.Protocol0111))
	assert.False(t, w0111.Accepts(codec.Protocol0110), "0.11.0 has no secret: incompatible")
	assert.False(t, w0111.Accepts(codec.MustPack(0, 11, 2)), "a newer patch is not compatible")
	assert.False(t, w0111.Accepts(0xC000_2C01))
	both := codec.InclusiveWindow(codec.Protocol0110, codec.Protocol0111)
	assert.True(t, both.Accepts(codec.Protocol0110))
	assert.True(t, both.Accepts(codec.Protocol0111))
	assert.False(t, both.Accepts(codec.MustPack(0, 11, 2)))
	one := codec.InclusiveWindow(codec.MustPack(1, 0, 0), codec.MustPack(1, 2, 0))
	assert.True(t, one.Accepts(codec.MustPack(1, 1, 9)))
	assert.False(t, one.Accepts(codec.MustPack(1, 2, 1)), "from 1.0 too, counting patch is the inclusive range")
	assert.False(t, codec.InclusiveWindow(5, 4).Accepts(5), "ill-formed accepts nothing")

	seed := codec.DefaultWindow(codec.Protocol0110)
	assert.False(t, seed.CountPatch)
	assert.True(t, seed.Accepts(codec.Protocol0111), "the 0.11.0 gate ignores patch at the top")
	assert.Equal(t, seed, codec.ServeWindow(codec.Protocol0110))
	assert.Equal(t, w0111, codec.ServeWindow(codec.Protocol0111))
	assert.Equal(t, codec.DefaultWindow(codec.MustPack(0, 12, 0)), codec.ServeWindow(codec.MustPack(0, 12, 0)))

	// The eviction carries the bounds only.
	e := codec.NewIncompatibleProtocolEviction(codec.Uint128From(5), w0111)
	assert.Equal(t, codec.Window{Min: codec.Protocol0111, Max: codec.Protocol0111}, e.Window)
	b, err := e.AppendBinary(nil)
	require.NoError(t, err)
	back, err := codec.DecodeEviction(b)
	require.NoError(t, err)
	assert.Equal(t, e, back)
}

// TestLoginRevisionFollowsVersion: the encoders write a login body only in
// the revision its version selects (WIRE.md section 10.1). An SDK that set
// Info.Protocol to 0.11.1 and left Revision at its zero value gets an error
// naming the field to fix and both values, not a body that every 0.11.1
// server reads with the bind secret swallowing the username; and a 0.11.0
// body in the bind-secret layout (what upstream development builds send)
// is refused too.
func TestLoginRevisionFollowsVersion(t *testing.T) {
	info11 := bindValue().Info
	info10 := info11
	info10.Protocol = codec.Protocol0110
	secret := codec.NewSecret(hx(bindSecretHex))
	forgot := codec.LoginRegister{Info: info11, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	devLogin := codec.LoginRegister{Info: info10, Revision: codec.RevisionBindSecret, BindSecret: secret, Username: []byte("iggy")}
	forgotPAT := codec.LoginRegisterPAT{Info: info11, Token: codec.NewSecret([]byte("tok"))}
	devPAT := codec.LoginRegisterPAT{Info: info10, Revision: codec.RevisionBindSecret, BindSecret: secret}
	cases := []struct {
		name     string
		validate func() error
		appendTo func([]byte) ([]byte, error)
		want     []string
	}{
		{"login 0.11.1 base", forgot.Validate, forgot.AppendBinary, []string{"RevisionOf(protocol_version 0.11.1) == 0.11.1, not 0.11.0"}},
		{"login 0.11.0 bind secret", devLogin.Validate, devLogin.AppendBinary, []string{"RevisionOf(protocol_version 0.11.0) == 0.11.0, not 0.11.1", "in the 0.11.1 layout"}},
		{"pat 0.11.1 base", forgotPAT.Validate, forgotPAT.AppendBinary, []string{"RevisionOf(protocol_version 0.11.1) == 0.11.1, not 0.11.0"}},
		{"pat 0.11.0 bind secret", devPAT.Validate, devPAT.AppendBinary, []string{"RevisionOf(protocol_version 0.11.0) == 0.11.0, not 0.11.1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := c.appendTo([]byte{7})
			assert.Equal(t, []byte{7}, out)
			for _, e := range []error{c.validate(), err} {
				wantErr(t, e, codec.ErrField, "revision", 17)
				assert.Equal(t, "body.revision.version", codecError(t, e).Rule)
				for _, w := range c.want {
					assert.Contains(t, e.Error(), w)
				}
			}
		})
	}
	// With the revision the version selects, each encodes.
	forgot.Revision, forgot.BindSecret = codec.RevisionOf(forgot.Info.Protocol), secret
	_, err := forgot.AppendBinary(nil)
	assert.NoError(t, err)
	devLogin.Revision, devLogin.BindSecret = codec.RevisionOf(devLogin.Info.Protocol), codec.Secret{}
	_, err = devLogin.AppendBinary(nil)
	assert.NoError(t, err)
	// A version the window may accept that selects the 0.11.0 layout
	// (0.11.2) is written in that layout, as a server reads it.
	l := codec.LoginRegister{Info: info11, Username: []byte("iggy")}
	l.Info.Protocol = codec.Protocol0111 + 1
	_, err = l.AppendBinary(nil)
	assert.NoError(t, err)
}
