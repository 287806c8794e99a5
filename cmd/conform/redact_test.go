package main

import (
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
	pat, err := cl2.LoginWithToken(nil, codec.NewSecret([]byte("tok-xyz")))
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
