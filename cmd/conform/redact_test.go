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
