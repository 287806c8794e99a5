package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// leakInputs are inputs holding testPassword as a password or a token, in
// full and cut at every length, so that partial secrets are covered too.
func leakInputs(t *testing.T) map[string][]byte {
	return map[string][]byte{
		"register frame": registerFrame(t, loginBody(t, testPassword)),
		"login body":     loginBody(t, testPassword),
		"token frame":    registerFrame(t, patBody(t, testPassword)),
		"token body":     patBody(t, testPassword),
		"legacy frame":   legacyLoginFrame(t, testPassword),
	}
}

// secretWindows returns the pieces of the secret no output may contain:
// every run of 5 or more of its characters, and the hex of every run of 3
// or more of its bytes, as far as src holds them.
func secretWindows(src []byte) (text, hexes []string) {
	at := bytes.Index(src, []byte(testPassword))
	present := testPassword
	if at < 0 {
		// src was cut inside the secret: find how much of it is there.
		for n := len(testPassword) - 1; n > 0; n-- {
			if bytes.HasSuffix(src, []byte(testPassword[:n])) {
				present = testPassword[:n]
				break
			}
			present = ""
		}
	}
	for i := range len(present) {
		for j := i + 3; j <= len(present); j++ {
			hexes = append(hexes, hex.EncodeToString([]byte(present[i:j])))
			if j-i >= 5 {
				text = append(text, present[i:j])
			}
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

func TestNoOutputContainsTheSecret(t *testing.T) {
	for name, full := range leakInputs(t) {
		for n := 0; n <= len(full); n++ {
			src := full[:n]
			text, hexes := secretWindows(src)
			if len(hexes) == 0 {
				continue
			}
			for _, kind := range append(kinds(), kindAuto) {
				r := mustDump(t, src, kind)
				out := render(t, r)
				// The hex dump spaces its bytes; the JSON hex does not.
				flat := strings.NewReplacer(" ", "", "\n", "").Replace(out)
				for _, w := range text {
					if strings.Contains(out, w) {
						t.Fatalf("%s cut at %d, as %s: output contains %q", name, n, kind, w)
					}
				}
				for _, w := range hexes {
					if strings.Contains(flat, w) {
						t.Fatalf("%s cut at %d, as %s: output contains the hex %s\n%s", name, n, kind, w, out)
					}
				}
				checkOverlapsRedacted(t, fmt.Sprintf("%s cut at %d, as %s", name, n, kind), r)
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
