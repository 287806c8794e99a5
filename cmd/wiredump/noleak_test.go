package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/fuzzload"
)

// FuzzNoLeak builds a login or token frame or body, a 0.11.1 one, a
// BIND_SESSION, a conn stream or a stream of frames, mutates it (bytes set,
// inserted, deleted, length claims, cuts), then finds where its secrets
// are now: where the length fields of the shape it was built as, read in
// the mutated bytes, put each (a secret cut by the end runs to the end).
// It fills those places once with one marker and once with another of the
// same length (and once more with two secrets of small bytes, which a
// reading could take for lengths), reads them as every kind and prints
// them as text and JSON.
// The outputs must be the same, and no 8-byte run of a marker may show,
// as text or hex. Nothing is exempt: a run that some other reading
// decodes as a non-secret field, or a header integer read from a secret's
// bytes, is a leak (the equality catches numbers).
func FuzzNoLeak(f *testing.F) {
	for _, seed := range noLeakSeeds {
		f.Add(seed.shape, seed.edits)
	}
	f.Fuzz(func(t *testing.T, shape uint8, edits []byte) {
		if err := noLeak(t, shape, edits); err != nil {
			t.Fatal(err)
		}
	})
}

// noLeakSeeds are FuzzNoLeak's seeds: each shape whole, cut inside its
// secret and after it, and with a length before the secret changed.
var noLeakSeeds = []struct {
	shape uint8
	edits []byte
}{
	{0, nil}, {1, nil}, {2, nil}, {3, nil}, {4, nil}, {5, nil}, {6, nil}, {7, nil}, {8, nil}, {9, nil}, {10, nil},
	{9, []byte{4, 0x10, 1, 0}},  // a long password cut at 272
	{10, []byte{4, 0x00, 1, 0}}, // a long token cut at 256
	{0, []byte{4, 0x20, 1, 0}},  // cut inside the password (frame offset 288)
	{2, []byte{4, 40, 0, 0}},    // cut inside the password (body offset 40)
	{2, []byte{4, 52, 0, 0}},    // cut inside context_len
	{3, []byte{4, 30, 0, 0}},    // cut inside the token
	{4, []byte{4, 30, 0, 0}},    // cut inside the bind secret
	{7, []byte{4, 60, 0, 0}},    // cut inside BIND_SESSION's bind secret
	{2, []byte{0, 17, 0, 9}},    // username_len 4 -> 9
	{2, []byte{0, 22, 0, 3}},    // password_len 24 -> 3: the rest is context_len and context
	{3, []byte{0, 11, 0, 0xf8}}, // sdk_version_len 5 -> 248
	{2, []byte{2, 16, 0, 0, 4, 44, 0, 0}},
	{5, []byte{1, 0, 0, 7}},
	{6, []byte{3, 48, 0, 200}}, // the first size unusable: not a stream
	// The bind-secret layout labelled 0.11.0 (a development build): the
	// version's first byte 0x01 -> 0x00.
	{4, []byte{0, 0, 0, 0}},
	{5, []byte{0, 0, 1, 0}},
	{7, []byte{0, 0, 0, 0}},
}

// The shapes FuzzNoLeak builds, and where a body starts in each.
const noLeakShapes = 11

// noLeak runs FuzzNoLeak's check on one input and returns what leaked.
func noLeak(t testing.TB, shape uint8, edits []byte) error {
	src, places := plant(t, shape%noLeakShapes)
	src, places = mutate(src, places, edits)
	var spans [][2]int
	for _, p := range places {
		spans = append(spans, p.secrets(src)...)
	}
	if len(spans) == 0 {
		return nil // the mutations moved every secret out of the input
	}
	markA, markB := fill(src, spans, marker), fill(src, spans, otherMarker)
	smallA, smallB := fill(src, spans, smallMarker), fill(src, spans, otherSmallMarker)
	for _, kind := range kinds() {
		outA, outB := printed(t, markA, kind), printed(t, markB, kind)
		if outA != outB {
			return fmt.Errorf("as %s, the output depends on the secret:\n%s\n---- the other secret:\n%s", kind, outA, outB)
		}
		if sa, sb := printed(t, smallA, kind), printed(t, smallB, kind); sa != sb {
			return fmt.Errorf("as %s, the output depends on a secret of small bytes:\n%s\n---- the other secret:\n%s", kind, sa, sb)
		}
		for _, m := range []string{marker, otherMarker} {
			if run, ok := leaked(outA, m); ok {
				return fmt.Errorf("as %s: %q of the secret shows:\n%s", kind, run, outA)
			}
		}
		if strings.Contains(outA, "sha256") {
			return fmt.Errorf("as %s: a digest shows:\n%s", kind, outA)
		}
	}
	return nil
}

// otherMarker is marker's length, and differs from it in every byte.
const otherMarker = "zq3+other+W8yk+SECRETS?#"

// smallMarker and otherSmallMarker are secrets whose bytes, read as a
// length, fit in a body: small bytes, as random secrets have some, which
// a reading that takes a secret for a username_len or a chunk's length
// would follow to different places (printable markers claim more than
// any body holds, so they all fail alike).
const (
	smallMarker      = "\x04abcd\x02pq\x03\x00\x00\x00xyz\x01\x05\x07\x09\x0b\x0d\x0f\x11"
	otherSmallMarker = "\x05bcdef\x03qr\x00\x01\x00\x00\x02\x03\x04\x06\x08\x0a\x0c\x0e\x10\x12"
)

// printed returns the text and the JSON output of src read as kind.
func printed(t testing.TB, src []byte, kind string) string {
	r, err := Dump(src, kind)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if r.WriteText(&out) != nil || r.WriteJSON(&out) != nil {
		t.Fatal("write failed")
	}
	return out.String()
}

// fill returns src with the bytes of spans set to m, repeated.
func fill(src []byte, spans [][2]int, m string) []byte {
	out := bytes.Clone(src)
	for _, s := range spans {
		for i := s[0]; i < s[1]; i++ {
			out[i] = m[(i-s[0])%len(m)]
		}
	}
	return out
}

// bodyPlace is where a body was planted: its start and its shape. A body
// is read where the framing puts one: at the input's start, at offset 256
// of a frame whose size field is a frame size, in the frame or chunk its
// predecessor's size field delimits. A body that an insertion or deletion
// before it moved (moved), or whose framing no longer holds (framed: its
// frame's size is not a frame size, its predecessor's size or chunk length
// no longer ends where it starts), is read by nobody where it now lies.
type bodyPlace struct {
	at     int
	shape  []step
	moved  bool
	framed func(src []byte) bool
	frame  int  // where the body's frame starts, whose size ends the body; -1 for a body alone or a conn chunk's
	chunk  bool // the body is in the conn chunk at offset 0, whose length ends it
}

// secrets returns where the length fields of p's shape, read in src, put
// its secrets, each cut at the end of src. As for the server, which
// refuses a body before its secret when the prefix breaks a rule, the
// text fields before a secret must be non-empty UTF-8. The version does
// not change the shape: a 0.11.1 body whose version became 0.11.0 still
// carries its bind secret, as upstream development builds send it (WIRE.md
// section 10.1). The secrets themselves may hold any bytes.
func (p bodyPlace) secrets(src []byte) [][2]int {
	var out [][2]int
	at, n := p.at, len(src)
	if p.moved || at < 0 || at+4 > n || p.framed != nil && !p.framed(src) {
		return nil
	}
	if p.frame >= 0 {
		// The frame's size ends the body: bytes after it are the next
		// frame's, whatever a length in the body claims.
		size, err := codec.FrameSize(src[p.frame:])
		if err != nil {
			return nil
		}
		n = min(n, p.frame+size)
	}
	if p.chunk {
		n = min(n, 3+int(binary.LittleEndian.Uint16(src[1:])))
	}
	shape := p.shape
	u8 := func() (int, bool) {
		if at >= n {
			return 0, false
		}
		at++
		return int(src[at-1]), true
	}
	text := func() bool {
		l, ok := u8()
		if !ok || l == 0 || at+l > n || !utf8.Valid(src[at:at+l]) {
			return false
		}
		at += l
		return true
	}
	for _, st := range shape {
		switch st {
		case stepInfo:
			at += 4
			for range 2 { // sdk_name, sdk_version
				if !text() {
					return out
				}
			}
		case stepText8:
			if !text() {
				return out
			}
		case stepSecret8:
			l, ok := u8()
			if !ok {
				return out
			}
			if at < n && l > 0 {
				out = append(out, [2]int{at, min(at+l, n)})
			}
			at += l
		case stepSecret32:
			if at < n {
				out = append(out, [2]int{at, min(at+codec.BindSecretLen, n)})
			}
			at += codec.BindSecretLen
		case stepSkip32:
			at += 32
		}
	}
	return out
}

// neutral is the secret plant builds with: noLeak writes the markers only
// where the mutated bytes put a secret, so that a secret's bytes that
// the mutations moved out of a secret's place are not taken for one.
const neutral = "neutral,not-a-marker,24b"

// plant builds shape (see FuzzNoLeak) with neutral as its secrets and
// says where its bodies start.
func plant(t testing.TB, shape uint8) ([]byte, []bodyPlace) {
	login, pat := loginBody(t, neutral), patBody(t, neutral)
	loginShape, patShape := shapesBase[0], shapesBase[1]
	// A frame's body is read only when its size field is a frame size.
	sized := func(at int) func([]byte) bool {
		return func(src []byte) bool { _, err := codec.FrameSize(src[at:]); return err == nil }
	}
	switch shape {
	case 0:
		return requestFrame(t, codec.OperationRegister, login), []bodyPlace{{at: codec.HeaderSize, shape: loginShape, framed: sized(0)}}
	case 1:
		return requestFrame(t, codec.OperationRegister, pat), []bodyPlace{{at: codec.HeaderSize, shape: patShape, framed: sized(0)}}
	case 2:
		return login, []bodyPlace{{at: 0, shape: loginShape, frame: -1}}
	case 3:
		return pat, []bodyPlace{{at: 0, shape: patShape, frame: -1}}
	case 4, 5: // protocol 0.11.1: a bind secret, then the password or token
		in := info
		in.Protocol = codec.Protocol0111
		bind := secret(strings.Repeat(neutral, 2)[:codec.BindSecretLen])
		if shape == 4 {
			b, err := codec.LoginRegister{Info: in, Revision: codec.RevisionBindSecret, BindSecret: bind,
				Username: []byte("iggy"), Password: secret(neutral), Context: []byte("ctx")}.AppendBinary(nil)
			if err != nil {
				t.Fatal(err)
			}
			return b, []bodyPlace{{at: 0, shape: shapesBindSecret[0], frame: -1}}
		}
		b, err := codec.LoginRegisterPAT{Info: in, Revision: codec.RevisionBindSecret, BindSecret: bind,
			Token: secret(neutral), Context: []byte("ctx")}.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		frame := requestFrame(t, codec.OperationRegister, b)
		return frame, []bodyPlace{{at: codec.HeaderSize, shape: shapesBindSecret[1], framed: sized(0)}}
	case 6:
		first := requestFrame(t, codec.OperationRegister, login)
		framed := func(src []byte) bool {
			return binary.LittleEndian.Uint32(src[48:]) == uint32(len(first)) && sized(len(first))(src)
		}
		return append(first, requestFrame(t, codec.OperationRegister, pat)...),
			[]bodyPlace{{at: codec.HeaderSize, shape: loginShape, framed: sized(0)}, {at: len(first) + codec.HeaderSize, shape: patShape, framed: framed, frame: len(first)}}
	case 9: // a body of 256 bytes or more: a header reading reads its password
		return loginBody(t, strings.Repeat(neutral, 11)[:255]), []bodyPlace{{at: 0, shape: loginShape, frame: -1}}
	case 10:
		return patBody(t, strings.Repeat(neutral, 11)[:255]), []bodyPlace{{at: 0, shape: patShape, frame: -1}}
	case 7:
		b, err := codec.BindSession{Info: codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"),
			SDKVersion: []byte("0.1.0")}, ClientID: codec.Uint128From(7), Session: 9,
			BindSecret: secret(strings.Repeat(neutral, 2)[:codec.BindSecretLen])}.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b, []bodyPlace{{at: 0, shape: shapesBindSecret[2], frame: -1}}
	}
	frame := requestFrame(t, codec.OperationRegister, pat)
	conn := append([]byte{0}, byte(len(frame)), byte(len(frame)>>8))
	framed := func(src []byte) bool { return int(binary.LittleEndian.Uint16(src[1:])) == len(frame) }
	return append(conn, frame...), []bodyPlace{{at: 3 + codec.HeaderSize, shape: patShape, framed: framed, frame: -1, chunk: true}}
}

// mutate applies edits, 4 bytes each: [op][pos u16][value], and moves the
// body starts with the bytes inserted or deleted before them. Ops: set a
// byte, insert a byte, delete a byte, set a u32 to value (a length
// claim), cut the input at pos.
func mutate(src []byte, places []bodyPlace, edits []byte) ([]byte, []bodyPlace) {
	src, places = bytes.Clone(src), slices.Clone(places)
	shift := func(pos, d int) {
		for i := range places {
			if pos < places[i].at || d > 0 && pos == places[i].at {
				places[i].moved = true
			}
		}
	}
	for ; len(edits) >= 4; edits = edits[4:] {
		pos, v := int(binary.LittleEndian.Uint16(edits[1:]))%(len(src)+1), edits[3]
		switch edits[0] % 5 {
		case 0:
			if pos < len(src) {
				src[pos] = v
			}
		case 1:
			src = append(src[:pos], append([]byte{v}, src[pos:]...)...)
			shift(pos, 1)
		case 2:
			if pos < len(src) {
				src = append(src[:pos], src[pos+1:]...)
				shift(pos, -1)
			}
		case 3:
			if pos+4 <= len(src) {
				binary.LittleEndian.PutUint32(src[pos:], uint32(v))
			}
		case 4:
			src = src[:pos]
		}
	}
	return src, places
}

// leaked returns the first 8-byte run of m that out holds as text or as
// hex.
func leaked(out, m string) (string, bool) {
	lower := strings.ToLower(out)
	for i := 0; i+8 <= len(m); i++ {
		run := m[i : i+8]
		if strings.Contains(out, run) || strings.Contains(lower, hex.EncodeToString([]byte(run))) {
			return run, true
		}
	}
	return "", false
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
	// Without -trust-version few login bodies decode (every body is masked
	// in both layouts), so most secrets are found with it, which must hold
	// the same promise for the bodies it decodes.
	for _, mode := range [][]string{nil, {"-trust-version"}} {
		withSecrets := corpusSecretsAreIndependent(t, files, mode)
		t.Logf("%v: %d files, %d with a password or token", mode, len(files), withSecrets)
		if mode != nil {
			assert.Greater(t, withSecrets, 20, "files with a password or token")
		}
	}
}

// corpusSecretsAreIndependent is TestCorpusAndCrashers in one mode: it
// returns how many files had a password or token field.
func corpusSecretsAreIndependent(t *testing.T, files, mode []string) int {
	withSecrets := 0
	for _, path := range files {
		outs := dumpFile(t, path, mode...)
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
		assert.Equal(t, outs, dumpFile(t, other, mode...), "%s %v: the output depends on a secret's bytes", path, mode)
	}
	return withSecrets
}

// dumpFile returns the text and JSON outputs of wiredump on path, with
// the flags mode.
func dumpFile(t *testing.T, path string, mode ...string) [2]string {
	var outs [2]string
	for i, args := range [][]string{append(slices.Clone(mode), path), append(slices.Clone(mode), "-json", path)} {
		code, out, stderr := runWith(nil, args...)
		require.Contains(t, []int{exitOK, exitDecode}, code, "%v: %s", args, stderr)
		require.Empty(t, stderr, "%v", args)
		require.NotEmpty(t, out, "%v", args)
		outs[i] = out
	}
	return outs
}

// TestNoLeakFindsPlantedBugs plants redaction bugs in Dump's mask and
// runs FuzzNoLeak's check on its seeds: each bug must be found. The bugs
// are the three ways the mask was once wrong (a secret cut by the end of
// the input is not masked; only a body that decodes is masked; a body
// labelled 0.11.0 laid out in 0.11.0's shapes alone, -trust-version's
// mask), a body alone left unmasked (only a frame's body masked), and an
// off-by-one.
func TestNoLeakFindsPlantedBugs(t *testing.T) {
	bugs := map[string]func([]byte) []bool{
		"a body alone unmasked": func(src []byte) []bool {
			mask := secretMask(src)
			for i := range min(len(mask), codec.HeaderSize) {
				mask[i] = false
			}
			return mask
		},
		"each run one byte short": func(src []byte) []bool {
			mask := secretMask(src)
			for i := len(mask) - 1; i >= 0; i-- {
				if mask[i] && (i+1 == len(mask) || !mask[i+1]) {
					mask[i] = false
				}
			}
			return mask
		},
		"cut secrets unmasked": func(src []byte) []bool {
			mask := secretMask(src)
			for i := len(mask) - 1; i >= 0 && mask[i]; i-- {
				mask[i] = false
			}
			return mask
		},
		"a 0.11.0 body laid out in 0.11.0's shapes alone": versionMask,
		"only decoded bodies masked": func(src []byte) []bool {
			for _, at := range []int{0, codec.HeaderSize} {
				if at <= len(src) {
					_, _, err1 := codec.DecodeLoginRegister(src[at:])
					_, _, err2 := codec.DecodeLoginRegisterPAT(src[at:])
					if err1 == nil || err2 == nil {
						return secretMask(src)
					}
				}
			}
			return make([]bool, len(src))
		},
	}
	t.Cleanup(func() { maskOf = secretMask })
	for name, bug := range bugs {
		maskOf = bug
		found := 0
		for _, seed := range noLeakSeeds {
			if noLeak(t, seed.shape, seed.edits) != nil {
				found++
			}
		}
		assert.Positive(t, found, "%s: no seed of FuzzNoLeak finds it", name)
		t.Logf("%s: found by %d of %d seeds", name, found, len(noLeakSeeds))
	}
	maskOf = secretMask
	for _, seed := range noLeakSeeds {
		require.NoError(t, noLeak(t, seed.shape, seed.edits))
	}
}
