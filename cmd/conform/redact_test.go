package main

import (
	"bytes"
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

func TestRedactHidesLoginSecrets(t *testing.T) {
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "sdk", SDKVersion: "1"})
	require.NoError(t, err)
	login, err := cl.Login(nil, []byte("v423"), codec.NewSecret([]byte("hunter2")))
	require.NoError(t, err)
	cl2, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "sdk", SDKVersion: "1"})
	require.NoError(t, err)
	pat, err := cl2.LoginPAT(nil, codec.NewSecret([]byte("tok-xyz")))
	require.NoError(t, err)
	r := &redactor{}
	for _, f := range [][]byte{login, pat} {
		h := r.hex(f)
		assert.Equal(t, 7, strings.Count(h, "**"), h)
		assert.NotContains(t, h, hexOf("hunter2"))
		assert.NotContains(t, h, hexOf("tok-xyz"))
	}
	assert.Contains(t, r.hex(login), hexOf("v423"), "the username names the case and stays")
	// A configured secret is hidden wherever it appears.
	r.secrets = [][]byte{[]byte("s3cret")}
	ping := append(ping(codec.Uint128{Lo: 1}, 1, 0), []byte("..s3cret..")...)
	assert.NotContains(t, r.hex(ping), hexOf("s3cret"))
}

func TestRedactTruncatesLongFrames(t *testing.T) {
	h := (&redactor{}).hex(make([]byte, hexLimit+10))
	assert.True(t, strings.HasSuffix(h, "...(10 more bytes)"), h[len(h)-30:])
}

// A client's password or token is hidden from every report whatever the
// header of the frame carrying it says, and wherever it appears again.
func TestServerModeHidesSecretsUnderBrokenHeaders(t *testing.T) {
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	id := cases[0].ID
	cl, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "sdk", SDKVersion: "1"})
	require.NoError(t, err)
	const password, token = "pw-Leak-9f3", "tok-Leak-7c1"
	login, err := cl.Login(nil, []byte(id), codec.NewSecret([]byte(password)))
	require.NoError(t, err)
	cl2, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "sdk", SDKVersion: "1"})
	require.NoError(t, err)
	pat, err := cl2.LoginPAT(nil, codec.NewSecret([]byte(token)))
	require.NoError(t, err)
	badOperation, badCommand, badPAT := bytes.Clone(login), bytes.Clone(login), bytes.Clone(pat)
	badOperation[176] = 0
	badCommand[60] = 4
	badPAT[60] = 4
	// A frame no layout reads as a login, carrying both secrets raw.
	again := append(ping(cl.ID(), 7, 0), []byte("<"+password+"|"+token+">")...)
	binary.LittleEndian.PutUint32(again[48:], uint32(len(again)))
	again[60] = 4

	addr, done := startServer(t, cases[:1])
	nc, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	for _, f := range [][]byte{badOperation, badCommand, badPAT, again, login} {
		_, err := nc.Write(f)
		require.NoError(t, err)
	}
	_, _ = codec.ReadFrame(nc, nil, codec.MaxFrameSize)
	require.NoError(t, nc.Close())
	r := <-done
	require.Len(t, r.Cases, 1)
	require.GreaterOrEqual(t, len(r.Cases[0].Frames), 5, "every frame is in the report")

	dir := t.TempDir()
	require.NoError(t, r.write(dir))
	for _, ext := range []string{".json", ".md", ".html"} {
		b, err := os.ReadFile(filepath.Join(dir, fileStem(r)+ext))
		require.NoError(t, err)
		for _, s := range []string{password, token} {
			assert.NotContains(t, string(b), s, ext)
			assert.NotContains(t, string(b), hexOf(s), ext)
		}
	}
	assert.Contains(t, r.Cases[0].Frames[0].Hex, hexOf(id), "the username names the case and stays")
}

// tokenAsUsername is a token body whose context is invalid UTF-8 where the
// password shape reads its context_len: it fails as a token body and
// parses as a password login whose username is the token.
func tokenAsUsername(t *testing.T, token string) []byte {
	info := codec.ClientVersionInfo{Protocol: codec.Protocol0110, SDKName: []byte("sdk"), SDKVersion: []byte("1")}
	b, err := info.AppendBinary(nil)
	require.NoError(t, err)
	b = append(b, byte(len(token)))
	b = append(b, token...)
	b = append(b, 8, 0, 0, 0, 'a', 'b', 'c', 'd', 'e', 0x80, 0, 0, 0)
	b = append(b, bytes.Repeat([]byte("x"), 128)...)
	_, _, err = codec.DecodeLoginRegisterPAT(b)
	require.Error(t, err)
	l, _, err := codec.DecodeLoginRegister(b)
	require.NoError(t, err)
	require.Equal(t, token, string(l.Username))
	return b
}

// registerFrame frames body as a Register request.
func registerFrame(t *testing.T, body []byte) []byte {
	f, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: codec.Uint128{Lo: 9}, Operation: codec.OperationRegister}, body)
	require.NoError(t, err)
	return f
}

// The token of a body that fails as a token body and parses as a password
// login is not shown as a username, nor learned as a name.
func TestRedactHidesATokenReadAsAUsername(t *testing.T) {
	const token = "tok-Zq9-as-name"
	h := (&redactor{}).hex(registerFrame(t, tokenAsUsername(t, token)))
	assert.NotContains(t, h, hexOf(token))
	assert.NotContains(t, h, hexOf(token[:4]))
}

// A login cut inside its password, or inside a 0.11.1 bind secret, has
// what is there of the secret hidden though the body does not decode.
func TestRedactHidesSecretsOfBodiesThatDoNotDecode(t *testing.T) {
	const password = "pw-Cut-8Hq2-xyz"
	info := codec.ClientVersionInfo{Protocol: codec.Protocol0110, SDKName: []byte("sdk"), SDKVersion: []byte("1")}
	body, err := codec.LoginRegister{Info: info, Username: []byte("s1"), Password: codec.NewSecret([]byte(password))}.AppendBinary(nil)
	require.NoError(t, err)
	frame := registerFrame(t, body)
	at := bytes.Index(frame, []byte(password))
	for cut := at + 4; cut <= at+len(password); cut++ {
		h := (&redactor{}).hex(frame[:cut])
		assert.NotContains(t, h, hexOf(password[:4]), "cut at %d", cut)
		assert.Contains(t, h, hexOf("s1"), "a case's name stays")
	}
	bind := bytes.Repeat([]byte{0xb7}, codec.BindSecretLen)
	info.Protocol = codec.Protocol0111
	body, err = codec.LoginRegister{Info: info, Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(bind),
		Username: []byte("s1"), Password: codec.NewSecret([]byte(password))}.AppendBinary(nil)
	require.NoError(t, err)
	frame = registerFrame(t, body)
	for _, cut := range []int{len(frame) - 30, len(frame)} {
		h := (&redactor{}).hex(frame[:cut])
		assert.NotContains(t, h, "b7b7", "cut at %d", cut)
		assert.NotContains(t, h, hexOf(password[:4]), "cut at %d", cut)
	}
}

// A learned secret of one or two bytes is hidden wherever it appears.
func TestRedactHidesShortSecretsEverywhere(t *testing.T) {
	r := &redactor{}
	r.add([]byte("Q"))
	r.add([]byte("#%"))
	f := append(ping(codec.Uint128{Lo: 1}, 1, 0), []byte("aQb#%c")...)
	h := r.hex(f)
	assert.NotContains(t, h, hexOf("Q"))
	assert.NotContains(t, h, hexOf("#%"))
	assert.Contains(t, h, hexOf("a")+"**"+hexOf("b")+"****"+hexOf("c"))
}

// A driver's surfaced text holding a learned secret is hidden in the forms
// the kit records it in: with control characters as spaces, and cut at
// its limit in the middle of the secret.
func TestSurfacedTextHidesSecretsInEveryForm(t *testing.T) {
	r := &redactor{}
	r.add([]byte("pw\x01Tab-9Kx"))
	assert.Equal(t, "bad ** here", r.hideInText(canonSurfaced("bad pw\x01Tab-9Kx here")))
	long := canonSurfaced(strings.Repeat("e", maxSurfaced-4) + "pw\x01Tab-9Kx and more")
	got := r.hideInText(long)
	assert.NotContains(t, got, "pw T")
	assert.True(t, strings.HasSuffix(got, "**...(15 more bytes)"), "%q", got[len(got)-40:])
	r.add([]byte("tok-Zq9"))
	assert.Equal(t, "the SDK said: ** is wrong", r.hideInText(canonSurfaced("the SDK said: tok-Zq9 is wrong")))
}

// A 0.11.1 login's password and bind secret, and a BIND_SESSION's bind
// secret, are learned and hidden wherever they appear later.
func TestRedactLearnsOf0111(t *testing.T) {
	const password = "pw-0111-Lrn"
	bind := bytes.Repeat([]byte{0xc5, 0x3a}, codec.BindSecretLen/2)
	info := codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("sdk"), SDKVersion: []byte("1")}
	body, err := codec.LoginRegister{Info: info, Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(bind),
		Username: []byte("s1"), Password: codec.NewSecret([]byte(password))}.AppendBinary(nil)
	require.NoError(t, err)
	r := &redactor{}
	r.learn(registerFrame(t, body))
	other := append(ping(codec.Uint128{Lo: 1}, 1, 0), append([]byte(password), bind...)...)
	h := r.hex(other)
	assert.NotContains(t, h, hexOf(password))
	assert.NotContains(t, h, "c53ac53a")
	assert.Equal(t, "the SDK said ** and **", r.hideInText("the SDK said "+password+" and "+string(bind)))

	bind2 := bytes.Repeat([]byte{0x9e}, codec.BindSecretLen)
	body, err = codec.BindSession{Info: info, ClientID: codec.Uint128{Lo: 1}, Session: 1, BindSecret: codec.NewSecret(bind2)}.AppendBinary(nil)
	require.NoError(t, err)
	f, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: codec.Uint128{Lo: 1}, Request: 1,
		Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession}, body)
	require.NoError(t, err)
	r.learn(f)
	assert.NotContains(t, r.hex(append(ping(codec.Uint128{Lo: 1}, 2, 0), bind2...)), "9e9e9e9e")
}
