package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/fuzzload"
)

// FuzzNoLeak plants marker as the password or token of a valid login frame
// or body, a stream of frames (or anywhere in random bytes), mutates the
// result, reads it as
// every kind and prints it as text and JSON. No 8-byte run of the marker may
// appear, as text or hex, unless a body the codec decodes from some offset of
// the input holds that run in a field that is not a secret: then those bytes
// are that field, not a secret, in this input. Header integers, printed as
// numbers, are fields whatever bytes they hold; they are not searched.
func FuzzNoLeak(f *testing.F) {
	f.Add(uint8(0), []byte{}, []byte{})
	f.Add(uint8(1), []byte{0, 11, 0, 0xf8}, []byte{})
	f.Add(uint8(1), []byte{1, 0xff, 0xff, 0}, []byte{})
	f.Add(uint8(2), []byte{0, 3, 0, 0x7f, 0, 9, 0, 40}, []byte{})
	f.Add(uint8(4), []byte{}, bytes.Repeat([]byte{5}, 300))
	f.Add(uint8(5), []byte{3, 0x10, 1, 0}, []byte{})
	f.Add(uint8(6), []byte{}, []byte{})
	f.Add(uint8(6), []byte{3, 48, 0, 200}, []byte{}) // the first size unusable: not a stream
	f.Fuzz(func(t *testing.T, shape uint8, edits, junk []byte) {
		src := mutate(plant(t, shape, junk), edits)
		for _, kind := range kinds() {
			r, err := Dump(src, kind)
			if err != nil {
				t.Fatal(err)
			}
			var text, js bytes.Buffer
			if r.WriteText(&text) != nil || r.WriteJSON(&js) != nil {
				t.Fatal("write failed")
			}
			for _, out := range []string{text.String(), js.String()} {
				if run, ok := leaked(out); ok && !shownAsText(src, run) {
					t.Fatalf("as %s: %q of the secret shows:\n%s", kind, run, out)
				}
				if strings.Contains(out, "sha256") {
					t.Fatalf("as %s: a digest shows:\n%s", kind, out)
				}
			}
		}
	})
}

// plant returns a login frame or body, a conn stream holding a login frame,
// a stream of a login frame then a token frame, or junk, with marker as
// its secret.
func plant(t *testing.T, shape uint8, junk []byte) []byte {
	login, pat := loginBody(t, marker), patBody(t, marker)
	switch shape % 7 {
	case 0:
		return requestFrame(t, codec.OperationRegister, login)
	case 1:
		return requestFrame(t, codec.OperationRegister, pat)
	case 2:
		return login
	case 3:
		return pat
	case 4: // junk, with the marker at an offset the junk picks
		at := 0
		if len(junk) > 1 {
			at = int(binary.LittleEndian.Uint16(append(junk[:2:2], 0))) % len(junk)
		}
		return append(append(bytes.Clone(junk[:at]), marker...), junk[at:]...)
	case 6:
		return append(requestFrame(t, codec.OperationRegister, login), requestFrame(t, codec.OperationRegister, pat)...)
	}
	frame := requestFrame(t, codec.OperationRegister, pat)
	return append(append([]byte{0}, byte(len(frame)), byte(len(frame)>>8)), frame...)
}

// mutate applies edits, 4 bytes each: [op][pos u16][value]. Ops: set a
// byte, insert a byte, delete a byte, set a u32 to value (a length claim).
func mutate(src, edits []byte) []byte {
	src = bytes.Clone(src)
	for ; len(edits) >= 4; edits = edits[4:] {
		pos, v := int(binary.LittleEndian.Uint16(edits[1:]))%(len(src)+1), edits[3]
		switch edits[0] % 4 {
		case 0:
			if pos < len(src) {
				src[pos] = v
			}
		case 1:
			src = append(src[:pos], append([]byte{v}, src[pos:]...)...)
		case 2:
			if pos < len(src) {
				src = append(src[:pos], src[pos+1:]...)
			}
		case 3:
			if pos+4 <= len(src) {
				binary.LittleEndian.PutUint32(src[pos:], uint32(v))
			}
		}
	}
	return src
}

// leaked returns the first 8-byte run of marker that out holds as text or
// as hex.
func leaked(out string) (string, bool) {
	lower := strings.ToLower(out)
	for i := 0; i+8 <= len(marker); i++ {
		run := marker[i : i+8]
		if strings.Contains(out, run) || strings.Contains(lower, hex.EncodeToString([]byte(run))) {
			return run, true
		}
	}
	return "", false
}

// shownAsText reports whether a body the codec decodes where wiredump
// reads one (at the start of the input or of a frame's body, a login reply
// after a result section, the same in each frame of a conn stream or of a
// stream of frames) has a non-secret text field holding run.
func shownAsText(src []byte, run string) bool {
	has := func(fields ...[]byte) bool {
		return slices.ContainsFunc(fields, func(f []byte) bool { return bytes.Contains(f, []byte(run)) })
	}
	bases := []int{0}
	for off := 0; len(src)-off >= 3; off += 3 + min(int(binary.LittleEndian.Uint16(src[off+1:])), len(src)-off-3) {
		bases = append(bases, off+3)
	}
	for off := 0; off < len(src); {
		size, err := codec.FrameSize(src[off:])
		if err != nil || size > len(src)-off {
			break
		}
		off += size
		bases = append(bases, off)
	}
	// Bytes that a login reading decodes as a password or token are a
	// secret whatever another reading takes them for.
	for _, base := range bases {
		for _, at := range []int{base, base + codec.HeaderSize} {
			if at > len(src) {
				continue
			}
			l, _, err2 := codec.DecodeLoginRegister(src[at:])
			p, _, err3 := codec.DecodeLoginRegisterPAT(src[at:])
			if err2 == nil && bytes.Contains(l.Password.Bytes(), []byte(run)) || err3 == nil && bytes.Contains(p.Token.Bytes(), []byte(run)) {
				return false
			}
		}
	}
	for _, base := range bases {
		for _, at := range []int{base, base + codec.HeaderSize} {
			if at > len(src) {
				continue
			}
			b := src[at:]
			c, _, err1 := codec.DecodeClientVersionInfo(b)
			l, _, err2 := codec.DecodeLoginRegister(b)
			p, _, err3 := codec.DecodeLoginRegisterPAT(b)
			if err1 == nil && has(c.SDKName, c.SDKVersion) || err2 == nil && has(l.Username, l.Context) ||
				err3 == nil && has(p.Context) {
				return true
			}
			if r, _, err := codec.DecodeLoginReply(b); err == nil && has(r.ServerVersion) {
				return true
			}
			payload, _, err := codec.SplitResult(b)
			if r, _, err4 := codec.DecodeLoginReply(payload); err == nil && err4 == nil && has(r.ServerVersion) {
				return true
			}
		}
	}
	return false
}

// TestCorpusAndCrashers runs wiredump, as text and as JSON, on every file
// of the repository's corpus/ and crashers/ the way make triage does (so a
// file in a target's directory is read as that target's input). Each must
// decode or fail to (never a usage error), print nothing computed from
// bytes it does not decode, and print the same whatever the bytes of the
// passwords and tokens it finds: each is replaced by other letters of the
// same length, and the output must not change.
func TestCorpusAndCrashers(t *testing.T) {
	var files []string
	for _, dir := range []string{fuzzload.CorpusDir, fuzzload.CrashersDir} {
		err := filepath.WalkDir(filepath.Join("..", "..", dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".md") {
				files = append(files, path)
			}
			return err
		})
		require.NoError(t, err)
	}
	require.Greater(t, len(files), 100, "corpus/ and crashers/ of the repository root")
	withSecrets := 0
	for _, path := range files {
		outs := dumpFile(t, path)
		var r Report
		require.NoError(t, json.Unmarshal([]byte(outs[1]), &r), path)
		for _, out := range outs {
			require.NotContains(t, out, "sha256", path)
		}
		content, err := os.ReadFile(path)
		require.NoError(t, err)
		src, err := fuzzload.Decode(content)
		require.NoError(t, err)
		changed := bytes.Clone(src)
		for _, s := range r.Sections {
			for _, f := range s.Fields {
				if secretNames[f.Name] {
					for i := s.Base + f.Offset; i < s.Base+f.Offset+f.Size; i++ {
						changed[i] = 'a' + (src[i]+1)%26 // another letter: the secret stays UTF-8
					}
				}
			}
		}
		if bytes.Equal(changed, src) {
			continue
		}
		withSecrets++
		// Same directory name, so the same kind.
		other := writeFile(t, filepath.Base(filepath.Dir(path)), filepath.Base(path), changed)
		assert.Equal(t, outs, dumpFile(t, other), "%s: the output depends on a secret's bytes", path)
	}
	t.Logf("%d files, %d with a password or token", len(files), withSecrets)
	assert.Greater(t, withSecrets, 20, "files with a password or token")
}

// dumpFile returns the text and JSON outputs of wiredump on path.
func dumpFile(t *testing.T, path string) [2]string {
	var outs [2]string
	for i, args := range [][]string{{path}, {"-json", path}} {
		code, out, stderr := runWith(nil, args...)
		require.Contains(t, []int{exitOK, exitDecode}, code, "%v: %s", args, stderr)
		require.Empty(t, stderr, "%v", args)
		require.NotEmpty(t, out, "%v", args)
		outs[i] = out
	}
	return outs
}
