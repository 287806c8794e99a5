package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/fuzzload"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runWith runs the command on args and returns its exit status and output.
func runWith(stdin []byte, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// writeFile writes b to dir/name under a new temporary directory.
func writeFile(t *testing.T, dir, name string, b []byte) string {
	path := filepath.Join(t.TempDir(), dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, b, 0o600))
	return path
}

// TestGolden pins the text output of the cases met most. Run
// go -C cmd test ./wiredump -run Golden -update after a deliberate change,
// and read the diff.
func TestGolden(t *testing.T) {
	login := requestFrame(t, codec.OperationRegister, loginBody(t, marker))
	bad := requestFrame(t, codec.OperationRegister, patBody(t, marker))
	bad[256+11] = 0xf8
	token := patBody(t, strings.Repeat(marker, 11)[:255])
	token[60] = '\r' // a token byte where a header has its command: 13, Eviction
	// The bind-secret layout labelled 0.11.0, as upstream development
	// builds send it: masked as the 0.11.1 body it is.
	devBuild := requestFrame(t, codec.OperationRegister, relabel0110(loginSecretBody(t, marker)))
	for _, tc := range []struct {
		name  string
		input []byte
		code  int
		args  []string
	}{
		{"register_login", login, exitDecode, nil},
		{"register_undecoded", bad, exitDecode, nil},
		{"eviction_14", eviction14(t), exitOK, nil},
		{"reply_login", replyFrame(t), exitOK, nil},
		{"register_cut", login[:len(login)-1], exitDecode, nil},
		{"register_cut_as_request", login[:len(login)-1], exitDecode, []string{"-kind", "request"}},
		{"token_body", token, exitDecode, nil},
		{"token_body_as_pat", token, exitDecode, []string{"-kind", "login_register_pat"}},
		{"stream", append(bytes.Clone(login), eviction14(t)...), exitDecode, nil},
		{"register_login_trust_version", login, exitOK, []string{"-trust-version"}},
		{"register_dev_build", devBuild, exitDecode, nil},
	} {
		code, out, stderr := runWith(nil, append(tc.args, writeFile(t, "in", tc.name, tc.input))...)
		require.Equal(t, tc.code, code, stderr)
		golden := filepath.Join("testdata", tc.name+".golden")
		if *update {
			require.NoError(t, os.MkdirAll("testdata", 0o755))
			require.NoError(t, os.WriteFile(golden, []byte(out), 0o644))
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err)
		assert.Equal(t, string(want), out, tc.name)
	}
}

// TestRawAloneShowsSecrets: -raw adds every byte, and its help says it
// prints secrets; nothing else does.
func TestRawAloneShowsSecrets(t *testing.T) {
	path := writeFile(t, "in", "login", requestFrame(t, codec.OperationRegister, loginBody(t, marker)))
	for _, args := range [][]string{{path}, {"-json", path}, {"-as", "request", path}} {
		_, out, _ := runWith(nil, args...)
		assert.NotContains(t, out, marker[:8], "%v", args)
		code, out, _ := runWith(nil, append(args, "-raw", "-trust-version")...)
		assert.Equal(t, exitOK, code)
		assert.True(t, bytes.Contains([]byte(out), []byte(marker[:8])) ||
			bytes.Contains([]byte(out), []byte(hex.EncodeToString([]byte(marker)))), "%v -raw", args)
	}
	_, _, help := runWith(nil, "-h")
	assert.Contains(t, help, "-raw")
	assert.Contains(t, help, "PRINTS PASSWORDS AND TOKENS")
}

func TestInputs(t *testing.T) {
	body := loginBody(t, marker)
	_, fromFile, _ := runWith(nil, "-trust-version", "-as", "login", writeFile(t, "in", "raw", body))
	_, fromHex, _ := runWith(nil, "-trust-version", "-as", "login", "-hex", "0x"+hex.EncodeToString(body[:4])+" "+hex.EncodeToString(body[4:]))
	_, fromStdin, _ := runWith(body, "-", "-trust-version", "-as", "login")
	assert.Equal(t, fromFile, fromHex)
	assert.Equal(t, fromFile, fromStdin)

	code, fromTarget, _ := runWith(nil, "-trust-version", writeFile(t, "FuzzLoginRegister", "crash", fuzzload.Encode(body)))
	assert.Equal(t, exitOK, code)
	assert.Contains(t, fromTarget, "read as login_register: the input of FuzzLoginRegister")
	assert.Contains(t, fromTarget, "== LoginRegister body (code 40): decoded")
	assert.NotContains(t, fromTarget, marker[:8])
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"-as", "nope", "-hex", "00"}, {"-hex", "0"}, {"-hex", "zz"},
		{"a", "b"}, {"-hex", "00", "a"}, {filepath.Join(t.TempDir(), "missing")}} {
		code, out, stderr := runWith(nil, args...)
		assert.Equal(t, exitUsage, code, "%v", args)
		assert.Empty(t, out, "%v", args)
		assert.Contains(t, stderr, "wiredump: ", "%v", args)
	}
	code, _, stderr := runWith(nil, "-hex", "00 zz"+hex.EncodeToString([]byte(marker)))
	assert.Equal(t, exitUsage, code)
	assert.Equal(t, "wiredump: -hex group 2 (50 characters) is not whole bytes of hex digits\n", stderr)
}

func TestJSON(t *testing.T) {
	code, out, _ := runWith(nil, "-trust-version", "-json", writeFile(t, "in", "f", requestFrame(t, codec.OperationRegister, loginBody(t, marker))))
	require.Equal(t, exitOK, code)
	var r Report
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.True(t, r.OK)
	assert.Equal(t, "[REDACTED n=24]", value(t, section(t, r, "LoginRegister"), "password").Value)
	assert.NotContains(t, out, marker[:8])
}
