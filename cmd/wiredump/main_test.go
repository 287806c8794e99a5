package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// runWith runs the command on args and returns its exit status and output.
func runWith(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeTemp(t *testing.T, name string, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	must(t, os.WriteFile(path, b, 0o600))
	return path
}

// fuzzFile is src as go test -fuzz writes a crasher.
func fuzzFile(src []byte) []byte {
	return []byte("go test fuzz v1\n[]byte(" + strconv.Quote(string(src)) + ")\n")
}

// TestGolden pins the text output of the cases a maintainer meets most.
// Run go test ./cmd/wiredump -run Golden -update to rewrite them after a
// deliberate change, and read the diff.
func TestGolden(t *testing.T) {
	login := registerFrame(t, loginBody(t, testPassword))
	for _, tc := range []struct {
		name  string
		input []byte
		args  []string
		code  int
	}{
		{"register_login", login, nil, exitOK},
		{"eviction_14", eviction14(t), nil, exitOK},
		{"reply_login", loginReplyFrame(t), nil, exitOK},
		{"truncated_frame", login[:len(login)-10], nil, exitDecode},
		{"fuzz_v1_login_body", fuzzFile(loginBody(t, testPassword)[:30]), nil, exitOK},
		{"version", []byte("0.11.0-edge.2"), []string{"-as", "version"}, exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeTemp(t, tc.name+".bin", tc.input)
			code, out, stderr := runWith(t, nil, append(tc.args, path)...)
			if code != tc.code || stderr != "" {
				t.Fatalf("exit %d (want %d), stderr %q", code, tc.code, stderr)
			}
			if strings.Contains(out, testPassword[:5]) {
				t.Fatal("output contains the password")
			}
			golden := filepath.Join("testdata", tc.name+".golden")
			if *update {
				must(t, os.WriteFile(golden, []byte(out), 0o644))
			}
			want, err := os.ReadFile(golden)
			must(t, err)
			if out != string(want) {
				t.Errorf("output differs from %s (rerun with -update to accept)\ngot:\n%s", golden, out)
			}
		})
	}
}

func TestHexFlagMatchesFile(t *testing.T) {
	src := eviction14(t)
	var parts []string
	for i, b := range src {
		switch i % 3 {
		case 0:
			parts = append(parts, "0x"+hex.EncodeToString([]byte{b}))
		case 1:
			parts = append(parts, hex.EncodeToString([]byte{b})+":")
		default:
			parts = append(parts, hex.EncodeToString([]byte{b})+"\n")
		}
	}
	codeHex, outHex, _ := runWith(t, nil, "-hex", strings.Join(parts, " "))
	codeFile, outFile, _ := runWith(t, nil, writeTemp(t, "ev.bin", src))
	codeStdin, outStdin, _ := runWith(t, src, "-")
	if codeHex != exitOK || outHex != outFile || codeFile != exitOK || outStdin != outFile || codeStdin != exitOK {
		t.Errorf("-hex, FILE and stdin disagree: exits %d %d %d", codeHex, codeFile, codeStdin)
	}
}

func TestFlagsAfterFile(t *testing.T) {
	path := writeTemp(t, "v", []byte("1.2.3"))
	code, out, _ := runWith(t, nil, path, "-as", "version", "-json")
	if code != exitOK || !json.Valid([]byte(out)) {
		t.Errorf("exit %d, output %q", code, out)
	}
}

func TestExitStatus(t *testing.T) {
	good := writeTemp(t, "ok", eviction14(t))
	bad := writeTemp(t, "bad", []byte{1, 2, 3})
	badFuzz := writeTemp(t, "badfuzz", []byte("go test fuzz v1\nint(1)\n"))
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{good}, exitOK},
		{[]string{bad}, exitDecode},
		{[]string{"-as", "eviction", bad}, exitDecode},
		{[]string{}, exitUsage},
		{[]string{good, bad}, exitUsage},
		{[]string{"-hex", "00", good}, exitUsage},
		{[]string{"-hex", "0g"}, exitUsage},
		{[]string{"-as", "frame", good}, exitUsage},
		{[]string{"-nosuchflag", good}, exitUsage},
		{[]string{filepath.Join(t.TempDir(), "missing")}, exitUsage},
		{[]string{badFuzz}, exitUsage},
		{[]string{"-h"}, exitUsage},
	} {
		code, _, stderr := runWith(t, nil, tc.args...)
		if code != tc.code {
			t.Errorf("%q: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr)
		}
	}
}

func TestUsageText(t *testing.T) {
	_, _, stderr := runWith(t, nil, "-h")
	for _, want := range []string{"usage: wiredump", "-as KIND", "loginreplyframe", "-hex HEX", "Exit status"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("usage lacks %q:\n%s", want, stderr)
		}
	}
}

// jsonOut is the part of the -json form the tests read.
type jsonOut struct {
	Kind     string `json:"kind"`
	Len      int    `json:"input_len"`
	OK       bool   `json:"ok"`
	Hex      string `json:"hex"`
	Sections []struct {
		Title  string  `json:"title"`
		Status string  `json:"status"`
		Fields []Field `json:"fields"`
		Error  *struct {
			Field        string `json:"field"`
			Offset       int    `json:"offset"`
			LayoutOffset int    `json:"layout_offset"`
			Rule         string `json:"rule"`
			Class        string `json:"class"`
		} `json:"error"`
	} `json:"sections"`
}

func TestJSONOutput(t *testing.T) {
	login := registerFrame(t, loginBody(t, testPassword))
	cut := login[:len(login)-10]
	code, out, _ := runWith(t, nil, "-json", writeTemp(t, "cut", cut))
	if code != exitDecode {
		t.Fatalf("exit %d", code)
	}
	var got jsonOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	if got.Kind != kindAuto || got.Len != len(cut) || got.OK || len(got.Hex) != 2*len(cut) {
		t.Errorf("kind %q len %d ok %v hex %d chars", got.Kind, got.Len, got.OK, len(got.Hex))
	}
	if !strings.Contains(got.Hex, "....") || strings.Contains(got.Hex, hex.EncodeToString([]byte(testPassword[:4]))) {
		t.Error("the JSON hex does not blank the password")
	}
	lr := got.Sections[2]
	if lr.Title != "LoginRegister body (code 40)" || lr.Error == nil {
		t.Fatalf("section 2 = %+v", lr)
	}
	e := lr.Error
	if e.Field != "password" || e.Offset != 279 || e.LayoutOffset != 23 || e.Class != "ErrTruncated" || e.Rule == "" {
		t.Errorf("error = %+v", e)
	}
	if pw, _ := fieldNamed(lr.Fields, "password"); !pw.Secret || pw.Offset != 279 || !strings.HasPrefix(pw.Value, "[REDACTED]") {
		t.Errorf("password field = %+v", pw)
	}
	if got.Sections[0].Fields[3].Name != "size" || got.Sections[0].Fields[3].Offset != 48 {
		t.Errorf("header field 3 = %+v", got.Sections[0].Fields[3])
	}
}
