package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// The tests of this file use only run and the helpers of helpers_test.go
// and main_test.go, so that they also build against the wiredump before
// them, and fail there: see each test's comment.

// hexRuns matches the runs of 8 or more hex digits in an output.
var hexRuns = regexp.MustCompile(`(?i)[0-9a-f]{8,}`)

// TestUndecodedBytesAreNoPasswordOracle is the attack found in review: a
// login frame missing its last byte. Everything in its body but the
// password is predictable (sdk name and version, username, context), so
// the "sha256:" prefix the old wiredump printed for the undecoded run let
// a script test guesses offline, and it recovered a 10-character password.
// Now undecoded bytes print as their offset and length only: whatever the
// kind, two inputs that differ only in the password print the same, and
// no hex run of the output is a prefix of the SHA-256 of any window of the
// input that holds the password (the undecoded run among them). Only -raw
// tells them apart.
//
// On the old wiredump it fails: read as a frame (256 bytes or more), the
// body is one undecoded run printed as "256 39 bytes sha256:" and the
// first 8 bytes of sha256(frame[256:]), which differ between the two
// passwords and are a prefix of that window's digest; -kind did not exist
// (exit 2).
func TestUndecodedBytesAreNoPasswordOracle(t *testing.T) {
	const pwA, pwB = "Tr0ub4dor&", "hunter2!Zq" // 10 characters each
	cut := func(pw string) []byte {
		frame := requestFrame(t, codec.OperationRegister, loginBody(t, pw))
		return frame[:len(frame)-1]
	}
	a, b := cut(pwA), cut(pwB)
	require.Len(t, b, len(a))
	at := bytes.Index(a, []byte(pwA))
	require.Equal(t, at, bytes.Index(b, []byte(pwB)))

	// The digests a guesser could check: every window of the input that
	// holds the password, frame[256:] (the undecoded run) among them.
	var digests []string
	for i := 0; i <= at; i++ {
		for j := at + len(pwA); j <= len(a); j++ {
			sum := sha256.Sum256(a[i:j])
			digests = append(digests, hex.EncodeToString(sum[:]))
		}
	}
	pathA, pathB := writeFile(t, "in", "a", a), writeFile(t, "in", "b", b)
	for _, args := range [][]string{{}, {"-json"}, {"-as", "request"}, {"-as", "request", "-json"},
		{"-kind", "frame"}, {"-kind", "frames"}, {"-kind", "request"}, {"-kind", "login_register"},
		{"-kind", "login_register_pat"}, {"-kind", "conn"}} {
		codeA, outA, errA := runWith(nil, append(args, pathA)...)
		codeB, outB, _ := runWith(nil, append(args, pathB)...)
		require.NotEqual(t, exitUsage, codeA, "%v: %s", args, errA)
		assert.Equal(t, codeA, codeB, "%v", args)
		assert.Equal(t, outA, outB, "%v: the output depends on the password", args)
		for _, run := range hexRuns.FindAllString(outA, -1) {
			for _, d := range digests {
				if len(run) <= len(d) && strings.EqualFold(run, d[:len(run)]) {
					t.Errorf("%v: %q is a prefix of the SHA-256 of a window holding the password:\n%s", args, run, outA)
				}
			}
		}
	}
	_, outA, _ := runWith(nil, "-as", "request", pathA)
	require.Len(t, a, 256+39)
	assert.Contains(t, outA, "\n   256   39  bytes  not shown\n", "the undecoded run: offset and length only")

	_, rawA, _ := runWith(nil, "-raw", "-as", "request", pathA)
	_, rawB, _ := runWith(nil, "-raw", "-as", "request", pathB)
	assert.NotEqual(t, rawA, rawB, "-raw prints every byte")
}

// TestTokenBodyIsNotReadAsAHeader is the second finding: a token body of
// 256 bytes or more whose byte 60 is 0x0d (13, Eviction) was read as an
// Eviction frame, and the token bytes under the header (checksum_body,
// cluster, size, view, ...) printed as header numbers and hex. A body's
// bytes 48..52 are not a size equal to its length, so without -kind it is
// not read at all: the kind could not be determined, its length alone
// shows. With -kind login_register_pat it is read, the token masked.
//
// On the old wiredump it fails: the output shows "Eviction header
// (command 13)", differs between two tokens, and -kind did not exist.
func TestTokenBodyIsNotReadAsAHeader(t *testing.T) {
	body := func(fill string) ([]byte, []byte) {
		token := []byte(strings.Repeat(fill, 255/len(fill)+1)[:255])
		b := patBody(t, string(token))
		at := bytes.Index(b, token)
		b[60] = '\r' // in the token: token[60-at]
		return b, b[at : at+255]
	}
	a, tokenA := body("Zq7-tok")
	b, tokenB := body("mW3+KEY")
	require.Len(t, a, 280)
	require.Equal(t, byte(0x0d), a[60])
	require.NotEqual(t, uint32(len(a)), binary.LittleEndian.Uint32(a[48:]), "bytes 48..52 are not the length")
	pathA, pathB := writeFile(t, "in", "a", a), writeFile(t, "in", "b", b)

	for _, args := range [][]string{{}, {"-json"}} {
		codeA, outA, _ := runWith(nil, append(args, pathA)...)
		_, outB, _ := runWith(nil, append(args, pathB)...)
		assert.Equal(t, exitDecode, codeA, "%v", args)
		assert.Equal(t, outA, outB, "%v: the output depends on the token", args)
		assert.NotContains(t, outA, "header", "%v", args)
		assert.NotContains(t, outA, "command", "%v", args)
		assert.Contains(t, outA, "could not be determined", "%v", args)
		assert.Contains(t, outA, "-kind", "%v", args)
		assertNoRun(t, outA, tokenA)
	}
	_, text, _ := runWith(nil, pathA)
	assert.Contains(t, text, "\n     0  280  bytes  not shown\n", "the length, not the bytes")

	for _, args := range [][]string{{"-kind", "login_register_pat"}, {"-as", "loginpat"}} {
		code, outA, stderr := runWith(nil, append(args, pathA)...)
		_, outB, _ := runWith(nil, append(args, pathB)...)
		// Offset 256, where a frame's body starts, is inside the token:
		// read from there, everything after may be a secret, the token's
		// context too, so the reading fails there, the same way for both.
		require.Equal(t, exitDecode, code, "%v: %s", args, stderr)
		assert.Equal(t, outA, outB, "%v: the output depends on the token", args)
		assert.Contains(t, outA, "== LoginRegisterPAT body (code 45): error\n", "%v", args)
		assert.Contains(t, outA, "context: fails inside bytes that may hold a password, token or bind secret", "%v", args)
		assert.NotContains(t, outA, "header", "%v", args)
		assertNoRun(t, outA, tokenA)
		assertNoRun(t, outA, tokenB)
	}
}

// assertNoRun fails if out holds any 6-byte run of secret as text or hex.
func assertNoRun(t *testing.T, out string, secret []byte) {
	t.Helper()
	lower := strings.ToLower(out)
	for i := 0; i+6 <= len(secret); i++ {
		run := secret[i : i+6]
		if strings.Contains(out, string(run)) || strings.Contains(lower, hex.EncodeToString(run)) {
			t.Fatalf("%q of the secret shows:\n%s", run, out)
		}
	}
}
