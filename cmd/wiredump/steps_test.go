package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/fuzzload"
)

func TestEveryReadsTheInputAsEachKind(t *testing.T) {
	r, out := dumpTrusting(t, loginBody(t, marker), kindEvery)
	assert.NotContains(t, out, marker)
	assert.Equal(t, statusOK, section(t, r, "as login_register: LoginRegister").Status)
	for _, title := range []string{"as frame:", "as login_register_pat:", "as login_reply:", "as version:"} {
		assert.Equal(t, statusNoMatch, section(t, r, title).Status, title)
	}
	assert.True(t, r.OK, "one reading decodes")
	assert.Equal(t, redacted(len(marker)), value(t, section(t, r, "as login_register:"), "password").Value,
		"the password of one reading is redacted in all")
}

func TestEveryFailsWhenNoReadingDecodes(t *testing.T) {
	r, _ := dumpText(t, []byte{0xff, 0xff}, kindEvery)
	assert.False(t, r.OK)
	assert.Equal(t, statusFailed, section(t, r, "as client_version_info:").Status)
}

func TestClientStepsPairActionsWithAnswers(t *testing.T) {
	reply := replyFrame(t)
	src := append([]byte{0}, appendChunkForTest(nil, reply, 2)...)
	src = append(src, 3) // a logout with no answer after it
	r, out := dumpText(t, src, kindClient)
	assert.Contains(t, out, "== step 1 at input offset 0: action 0x00, the client sends a password login\n")
	assert.Contains(t, out, "flags bit 1: the target writes the ids")
	assert.Contains(t, out, "== step 2 at input offset 286: action 0x03, the client sends a logout\n")
	assert.Contains(t, out, "no answer follows")
	assert.Equal(t, statusOK, section(t, r, "Reply header").Status)
	assert.Equal(t, 4, section(t, r, "Reply header").Base, "offsets count from the answer")
}

func TestClientActionsNameWhatTheTargetSends(t *testing.T) {
	assert.Equal(t, "a ping", clientAction(2))
	assert.Equal(t, "a GetClusterMetadata request", clientAction(10))
	assert.Contains(t, clientAction(5), "replicated request")
	assert.Contains(t, clientAction(24<<3|5), "by command code")
}

func TestStructuredInputsAreNotRead(t *testing.T) {
	for target := range structuredTargets {
		code, out, _ := runWith(nil, writeFile(t, target, "x", loginBody(t, marker)))
		assert.Equal(t, exitDecode, code, target)
		assert.Contains(t, out, "not wire bytes", target)
		assert.Contains(t, out, "go test ./fuzz -run '^"+target+"$' -v", target)
		assert.NotContains(t, out, marker, target)
		assert.NotContains(t, out, "iggy", target)
		code, out, _ = runWith(nil, "-trust-version", "-kind", kindLogin, writeFile(t, target, "x", loginBody(t, marker)))
		assert.Equal(t, exitOK, code, "-kind still reads it: %s", out)
	}
}

// TestEveryCorpusFolderIsKnown holds wiredump to the fuzz targets: each
// folder of corpus/ is read as its target's input or said to be no wire
// bytes, so a new target cannot fall back to "not determined" unnoticed.
func TestEveryCorpusFolderIsKnown(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("..", "..", fuzzload.CorpusDir))
	require.NoError(t, err)
	require.NotEmpty(t, entries)
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		_, byKind := targetKinds[e.Name()]
		_, isStructured := structuredTargets[e.Name()]
		assert.True(t, byKind != isStructured, "corpus/%s: add it to targetKinds or structuredTargets", e.Name())
	}
}

// appendChunkForTest writes frame as the lifecycle targets read a chunk.
func appendChunkForTest(dst, frame []byte, flags byte) []byte {
	dst = append(dst, flags, byte(len(frame)), byte(len(frame)>>8))
	return append(dst, frame...)
}

// TestOneKindRedactsTheOtherReadingsSecrets: a login body read as a
// single other kind prints neither its password (as a login reply's
// server_version) nor a token (as a password body's username). The bodies
// are shaped so that the other kind decodes them.
func TestOneKindRedactsTheOtherReadingsSecrets(t *testing.T) {
	v11 := codec.MustParseVersion("0.11.0")
	asReply, err := codec.LoginRegister{Info: codec.ClientVersionInfo{Protocol: v11, SDKName: []byte("abc"), SDKVersion: []byte("1.0")},
		Username: []byte("\x00\x00\x00"), Password: secret(marker)}.AppendBinary(nil)
	require.NoError(t, err)
	ctx := bytes.Repeat([]byte("a"), 261)
	copy(ctx[2:6], []byte{0, 0, 0, 0})
	asLogin, err := codec.LoginRegisterPAT{Info: codec.ClientVersionInfo{Protocol: v11, SDKName: []byte("s"), SDKVersion: []byte("1")},
		Token: secret(marker), Context: ctx}.AppendBinary(nil)
	require.NoError(t, err)
	for _, c := range []struct {
		src        []byte
		kind, what string
	}{
		{asReply, kindLoginReply, "server_version"},
		{asLogin, kindLogin, "username"},
	} {
		r, out := dumpText(t, c.src, c.kind)
		if r.Sections[0].Status == statusOK {
			assert.Equal(t, redacted(len(marker)), value(t, r.Sections[0], c.what).Value, c.kind)
		} else { // the masked bytes read as filler claim more than is there
			assert.Contains(t, r.Sections[0].Error, "fails inside bytes that may hold a password", c.kind)
		}
		assert.NotContains(t, out, marker[:8], c.kind)
		var js strings.Builder
		require.NoError(t, r.WriteJSON(&js))
		assert.NotContains(t, js.String(), marker[:8], c.kind)
	}
	code, out, _ := runWith(nil, writeFile(t, "FuzzLoginRegister", "pat", asLogin))
	assert.NotEqual(t, exitUsage, code, out)
	assert.NotContains(t, out, marker[:8], "a token body in a password target's folder")
}
