package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// leakInputs are inputs holding testPassword as a password or a token, in
// full and cut at every length, so that partial secrets are covered too:
// single frames and bodies, and streams of two frames back to back, as a
// capture holds them.
func leakInputs(t *testing.T) map[string][]byte {
	reg := registerFrame(t, loginBody(t, testPassword))
	tok := registerFrame(t, patBody(t, testPassword))
	legacy := legacyLoginFrame(t, testPassword)
	return map[string][]byte{
		"register frame":         reg,
		"login body":             loginBody(t, testPassword),
		"token frame":            tok,
		"token body":             patBody(t, testPassword),
		"legacy frame":           legacy,
		"two register frames":    concat(reg, reg),
		"register then token":    concat(reg, tok),
		"legacy then register":   concat(legacy, reg),
		"eviction then register": concat(eviction14(t), reg),
		"reply then token frame": concat(loginReplyFrame(t), tok),
		"register then legacy":   concat(reg, legacy),
	}
}

// concat returns the frames of a stream, back to back.
func concat(frames ...[]byte) []byte {
	var out []byte
	for _, f := range frames {
		out = append(out, f...)
	}
	return out
}

// withSize returns a copy of src whose frame at offset at claims size.
func withSize(src []byte, at int, size uint32) []byte {
	out := bytes.Clone(src)
	binary.LittleEndian.PutUint32(out[at+offSize:], size)
	return out
}

// withCommand returns a copy of src whose frame at offset at has command
// byte cmd.
func withCommand(src []byte, at int, cmd byte) []byte {
	out := bytes.Clone(src)
	out[at+offCommand] = cmd
	return out
}

// secretWindows returns the pieces of testPassword no output may contain.
func secretWindows(src []byte) (text, hexes []string) {
	return secretWindowsOf(src, testPassword)
}

// secretWindowsOf returns the pieces of secret no output may contain:
// every run of 5 of its characters, and the hex of every run of 3 of its
// bytes, as far as src holds them. A longer run shown contains one of
// these, so they are all a check needs.
func secretWindowsOf(src []byte, secret string) (text, hexes []string) {
	at := bytes.Index(src, []byte(secret))
	present := secret
	if at < 0 {
		// src was cut inside the secret: find how much of it is there.
		for n := len(secret) - 1; n > 0; n-- {
			if bytes.HasSuffix(src, []byte(secret[:n])) {
				present = secret[:n]
				break
			}
			present = ""
		}
	}
	for i := range len(present) {
		if i+3 <= len(present) {
			hexes = append(hexes, hex.EncodeToString([]byte(present[i:i+3])))
		}
		if i+5 <= len(present) {
			text = append(text, present[i:i+5])
		}
	}
	return text, hexes
}

// render returns both printed forms of r.
func render(t *testing.T, r Report) string {
	var b strings.Builder
	must(t, r.WriteText(&b))
	must(t, r.WriteJSON(&b))
	return b.String()
}

// leakIn returns the first piece of secret that out shows, as text or as
// hex (the hex dump spaces its bytes; the JSON hex does not), or "".
func leakIn(out string, src []byte, secret string) string {
	text, hexes := secretWindowsOf(src, secret)
	for _, w := range text {
		if strings.Contains(out, w) {
			return w
		}
	}
	flat := strings.NewReplacer(" ", "", "\n", "").Replace(out)
	for _, w := range hexes {
		if strings.Contains(flat, w) {
			return "hex " + w
		}
	}
	return ""
}

// checkNoLeak dumps src as every kind and fails if any output shows a
// piece of testPassword or a field over a secret shows its value.
func checkNoLeak(t *testing.T, what string, src []byte) {
	t.Helper()
	checkNoLeakAs(t, what, src, append(kinds(), kindAuto))
}

// frameKinds are the kinds that read a header, and so its size field.
func frameKinds() []string { return []string{kindAuto, kindRequest, kindReply, kindEviction} }

// checkNoLeakAs is checkNoLeak for the given kinds.
func checkNoLeakAs(t *testing.T, what string, src []byte, kinds []string) {
	t.Helper()
	if _, hexes := secretWindows(src); len(hexes) == 0 {
		return
	}
	for _, kind := range kinds {
		r := mustDump(t, src, kind)
		if w := leakIn(render(t, r), src, testPassword); w != "" {
			t.Fatalf("%s, as %s: output contains %q", what, kind, w)
		}
		checkOverlapsRedacted(t, fmt.Sprintf("%s, as %s", what, kind), r)
	}
}

func TestNoOutputContainsTheSecret(t *testing.T) {
	t.Parallel()
	// A stream cut inside its first frame is that frame cut: each distinct
	// input is checked once.
	seen := map[string]bool{}
	for name, full := range leakInputs(t) {
		for n := 0; n <= len(full); n++ {
			if !seen[string(full[:n])] {
				seen[string(full[:n])] = true
				checkNoLeak(t, fmt.Sprintf("%s cut at %d", name, n), full[:n])
			}
		}
	}
}

// lies are the size claims a frame of n bytes is tried with: every size
// from a bare header to the whole input, and the ones a reader cannot use.
func lies(n int) []uint32 {
	out := []uint32{0, 1, codec.HeaderSize - 1, uint32(n) + 1, codec.MaxFrameSize, codec.MaxFrameSize + 1, math.MaxUint32}
	for s := codec.HeaderSize; s <= n; s++ {
		out = append(out, uint32(s))
	}
	return out
}

// A size field is a claim, not a fact: whatever the first or the second
// frame of a stream claims, no secret of either shows. Only the frame
// kinds read a size field; the others read the input from offset 0.
func TestNoOutputContainsTheSecretWhateverTheSize(t *testing.T) {
	t.Parallel()
	reg := registerFrame(t, loginBody(t, testPassword))
	tok := registerFrame(t, patBody(t, testPassword))
	legacy := legacyLoginFrame(t, testPassword)
	for name, in := range map[string]struct {
		src []byte
		at  int
	}{
		"register frame":               {reg, 0},
		"token frame":                  {tok, 0},
		"legacy frame":                 {legacy, 0},
		"two register frames, first":   {concat(reg, reg), 0},
		"two register frames, second":  {concat(reg, reg), len(reg)},
		"register then token, first":   {concat(reg, tok), 0},
		"legacy then register, first":  {concat(legacy, reg), 0},
		"register then legacy, second": {concat(reg, legacy), len(reg)},
	} {
		for _, size := range lies(len(in.src) - in.at) {
			checkNoLeakAs(t, fmt.Sprintf("%s claiming size %d", name, size), withSize(in.src, in.at, size), frameKinds())
		}
	}
}

// The command byte does not make a login body public: a frame the server
// would drop still holds a password. The bytes tried are the ones wiredump
// tells apart (Request, Reply, Eviction, the others) and the ends of the
// range.
func TestNoOutputContainsTheSecretWhateverTheCommand(t *testing.T) {
	t.Parallel()
	reg := registerFrame(t, loginBody(t, testPassword))
	tok := registerFrame(t, patBody(t, testPassword))
	for _, cmd := range []codec.Command{0, 1, codec.CommandRequest, 7, codec.CommandReply, codec.CommandEviction, 29, 30, 255} {
		for name, in := range map[string][]byte{
			"register frame":      reg,
			"token frame":         tok,
			"two register frames": concat(reg, reg),
			"size 270":            withSize(reg, 0, 270),
		} {
			checkNoLeak(t, fmt.Sprintf("%s with command %d", name, cmd), withCommand(in, 0, byte(cmd)))
		}
	}
}

// The three inputs a review found printing a password through the command
// line, in text and in JSON: a stream of two Register frames, a frame whose
// size field is shorter than its body, and a frame whose command byte is
// not 5.
func TestReviewedLeaksStayClosed(t *testing.T) {
	const secret = "HUNTER2PASSWORD"
	reg := registerFrame(t, loginBody(t, secret))
	for name, src := range map[string][]byte{
		"two register frames": concat(reg, reg),
		"size 256":            withSize(reg, 0, 256),
		"size 270":            withSize(reg, 0, 270),
		"command 7":           withCommand(reg, 0, 7),
		"command 0, size 256": withSize(withCommand(reg, 0, 0), 0, 256),
	} {
		path := writeTemp(t, "in.bin", src)
		for _, args := range [][]string{{path}, {"-json", path}} {
			_, out, _ := runWith(t, nil, args...)
			if !strings.Contains(out, "hex") {
				t.Fatalf("%s %v: no hex dump in the output:\n%s", name, args, out)
			}
			if w := leakIn(out, src, secret); w != "" {
				t.Errorf("%s %v: output contains %q\n%s", name, args, w, out)
			}
		}
	}
}

// Every field that shares a byte with a blank span shows a redaction, so a
// length claim read from a password cannot print its bytes as a number.
func checkOverlapsRedacted(t *testing.T, what string, r Report) {
	t.Helper()
	for _, s := range r.Sections {
		for _, f := range s.Fields {
			if overlaps(r.Blank, f.Offset, f.end()) && !strings.HasPrefix(f.Value, "[REDACTED]") {
				t.Fatalf("%s: field %s at %d shows %q over a secret", what, f.Name, f.Offset, f.Value)
			}
		}
	}
}

// Over-redaction has a cost too: a valid password login shows its
// username, and only the password is blanked.
func TestOnlyTheSecretIsBlanked(t *testing.T) {
	src := registerFrame(t, loginBody(t, testPassword))
	r := mustDump(t, src, kindAuto)
	at := bytes.Index(src, []byte(testPassword))
	if len(r.Blank) != 1 || r.Blank[0] != (span{at, at + len(testPassword)}) {
		t.Errorf("blank = %v, want [{%d %d}]", r.Blank, at, at+len(testPassword))
	}
	if f, _ := fieldNamed(r.Sections[1].Fields, "username"); f.Value != `"iggy"` {
		t.Errorf("username = %q", f.Value)
	}
}

func TestMerge(t *testing.T) {
	got := merge([]span{{10, 12}, {0, 3}, {3, 5}, {11, 20}, {30, 31}})
	want := []span{{0, 5}, {10, 20}, {30, 31}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("merge = %v, want %v", got, want)
	}
}

// FuzzSecretAnywhere puts a login frame after any bytes, with any size
// field and command byte, before any bytes: wherever it sits and whatever
// its header claims, every byte of its secret is blanked. (Bytes of the
// secret that the surrounding input repeats may show; the property is
// about the secret's own bytes.)
func FuzzSecretAnywhere(f *testing.F) {
	f.Add([]byte{}, []byte{}, uint32(0), byte(5), false)
	f.Add([]byte{1, 2, 3}, []byte("tail"), uint32(270), byte(7), true)
	f.Add(registerFrame(f, loginBody(f, "other")), []byte{}, uint32(256), byte(5), false)
	f.Fuzz(func(t *testing.T, before, after []byte, size uint32, cmd byte, token bool) {
		body := loginBody(t, testPassword)
		if token {
			body = patBody(t, testPassword)
		}
		frame := registerFrame(t, body)
		if size != 0 {
			frame = withSize(frame, 0, size)
		}
		frame = withCommand(frame, 0, cmd)
		start := len(before) + bytes.Index(frame, []byte(testPassword))
		src := concat(before, frame, after)
		for _, kind := range append(kinds(), kindAuto) {
			r := mustDump(t, src, kind)
			for i := start; i < start+len(testPassword); i++ {
				if !blanked(r.Blank, i) {
					t.Fatalf("as %s: byte %d of the secret (offset %d) is not blanked; blank %v", kind, i-start, i, r.Blank)
				}
			}
			checkOverlapsRedacted(t, kind, r)
		}
	})
}
