package main

import (
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

func mustDump(t *testing.T, src []byte, kind string) Report {
	t.Helper()
	r, err := Dump(src, kind)
	must(t, err)
	return r
}

func titles(r Report) []string {
	var out []string
	for _, s := range r.Sections {
		out = append(out, s.Title+": "+s.Status)
	}
	return out
}

func wantTitles(t *testing.T, r Report, want ...string) {
	t.Helper()
	got := titles(r)
	if len(got) != len(want) {
		t.Fatalf("sections = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("section %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestDumpRegisterRequestPasswordShape(t *testing.T) {
	r := mustDump(t, registerFrame(t, loginBody(t, testPassword)), kindAuto)
	wantTitles(t, r, "Request header (command 5): decoded", "LoginRegister body (code 40): decoded",
		"loginpat: LoginRegisterPAT body (code 45): no match")
	if !r.OK || !containsLine(r.Sections[2].Notes, "login shapes matched: login") {
		t.Errorf("OK %v notes %q", r.OK, r.Sections[2].Notes)
	}
	if len(r.Sections[2].Fields) != 0 {
		t.Error("a shape that does not match shows its fields")
	}
}

func TestDumpRegisterRequestTokenShape(t *testing.T) {
	r := mustDump(t, registerFrame(t, patBody(t, testPassword)), kindAuto)
	wantTitles(t, r, "Request header (command 5): decoded",
		"login: LoginRegister body (code 40): no match", "LoginRegisterPAT body (code 45): decoded")
	if !r.OK {
		t.Error("a token login is a decoded Register request")
	}
}

// An empty password and no context also reads as a token body (WIRE.md
// section 7): both shapes match and both are shown.
func TestDumpRegisterRequestBothShapes(t *testing.T) {
	r := mustDump(t, registerFrame(t, loginBody(t, "")), kindAuto)
	wantTitles(t, r, "Request header (command 5): decoded", "LoginRegister body (code 40): decoded",
		"LoginRegisterPAT body (code 45): decoded")
	if !containsLine(r.Sections[2].Notes, "both shapes decode") {
		t.Errorf("notes %q", r.Sections[2].Notes)
	}
	// The username is the token of the second shape, so it is a secret.
	if f, _ := fieldNamed(r.Sections[1].Fields, "username"); f.Value != "[REDACTED] (4 bytes, overlaps a secret)" {
		t.Errorf("username = %q", f.Value)
	}
}

func TestDumpRegisterRequestNoShape(t *testing.T) {
	r := mustDump(t, registerFrame(t, nil), kindAuto)
	wantTitles(t, r, "Request header (command 5): decoded", "LoginRegister body (code 40): error",
		"LoginRegisterPAT body (code 45): error")
	if r.OK {
		t.Error("a Register request without a body decoded")
	}
	if e := r.Sections[1].Err; e.Field != "protocol_version" || e.Offset != codec.HeaderSize {
		t.Errorf("error = %+v", e)
	}
}

func TestDumpTruncatedFrame(t *testing.T) {
	full := registerFrame(t, loginBody(t, testPassword))
	src := full[:len(full)-10]
	r := mustDump(t, src, kindAuto)
	if r.OK {
		t.Fatal("a truncated frame decoded")
	}
	f := r.Sections[1]
	if f.Status != statusFailed || f.Err.Field != "body" || f.Err.Offset != len(src) || !errors.Is(f.Err, codec.ErrTruncated) {
		t.Errorf("frame section = %+v", f)
	}
}

func TestDumpEviction(t *testing.T) {
	r := mustDump(t, eviction14(t), kindAuto)
	wantTitles(t, r, "Eviction header (command 13): decoded")
	for name, want := range map[string]string{
		"reason": "14 (IncompatibleProtocol)", "server_protocol_version": "0.11.0 (0x00002c00)",
		"client": "0x00000000000000991122334455667788",
	} {
		if f, _ := fieldNamed(r.Sections[0].Fields, name); f.Value != want {
			t.Errorf("%s = %q, want %q", name, f.Value, want)
		}
	}
	bad := eviction14(t)
	bad[200] = 1
	r = mustDump(t, append(bad, 0xaa), kindEviction)
	e := r.Sections[0].Err
	if r.OK || e.Field != "reserved" || e.Offset != 200 || className(e) != "ErrReserved" {
		t.Errorf("error = %+v", e)
	}
	if !containsLine(r.Sections[0].Notes, "1 bytes after the header") {
		t.Errorf("notes %q", r.Sections[0].Notes)
	}
}

func TestDumpReplyLogin(t *testing.T) {
	r := mustDump(t, loginReplyFrame(t), kindAuto)
	wantTitles(t, r, "Reply header (command 8): decoded", "result section: decoded", "LoginReply body: decoded")
	if f, _ := fieldNamed(r.Sections[2].Fields, "session"); f.Offset != 264 || f.Value != "3" {
		t.Errorf("session = %+v", f)
	}
}

func TestDumpReplyOtherBody(t *testing.T) {
	src, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: testClient, Operation: codec.OperationNonReplicated}, []byte{1, 2, 3})
	must(t, err)
	r := mustDump(t, src, kindAuto)
	wantTitles(t, r, "Reply header (command 8): decoded", "body (3 bytes, not decoded for operation 2 (NonReplicated)): decoded")
	if f := r.Sections[1].Fields[0]; f.Value != "010203" || f.Offset != 256 {
		t.Errorf("body = %+v", f)
	}
}

func TestDumpLegacyLoginBodyWithheld(t *testing.T) {
	r := mustDump(t, legacyLoginFrame(t, testPassword), kindAuto)
	f := r.Sections[1].Fields[0]
	if !f.Secret || f.Value != redaction(6+len(testPassword)) {
		t.Errorf("body = %+v", f)
	}
}

func TestDumpNotClientFacing(t *testing.T) {
	src := eviction14(t)
	src[offCommand] = 3
	r := mustDump(t, src, kindAuto)
	e := r.Sections[0].Err
	if r.OK || e.Offset != offCommand || !errors.Is(e, codec.ErrCommand) {
		t.Errorf("OK %v error %+v", r.OK, e)
	}
	if len(r.Notes) == 0 || r.Notes[0] != "command 3 (command_3) is not client-facing: only the common prologue is decoded" {
		t.Errorf("notes %q", r.Notes)
	}
}

func TestDumpForcedKindOnWrongCommand(t *testing.T) {
	r := mustDump(t, eviction14(t), kindRequest)
	if r.OK || r.Sections[0].Err.Offset != offCommand || !containsLine(r.Sections[0].Notes, "body not decoded") {
		t.Errorf("OK %v sections %+v", r.OK, r.Sections)
	}
}

func TestDumpShortInputTriesBodyKinds(t *testing.T) {
	r := mustDump(t, loginBody(t, testPassword), kindAuto)
	if !r.OK || len(r.Notes) != 1 || !containsLine(r.Summary, "body kinds matched: clientinfo, login") {
		t.Errorf("OK %v notes %q summary %q", r.OK, r.Notes, r.Summary)
	}
	r = mustDump(t, []byte{1, 2, 3}, kindAuto)
	if r.OK || !containsLine(r.Summary, "body kinds matched: none") {
		t.Errorf("OK %v summary %q", r.OK, r.Summary)
	}
	for _, s := range r.Sections {
		if s.Status != statusFailed {
			t.Errorf("%s: %s, want error when no kind matches", s.Title, s.Status)
		}
	}
}

func TestDumpVersion(t *testing.T) {
	r := mustDump(t, []byte("0.011.7-edge.2"), kindVersion)
	want := []Field{
		{Name: "text", Offset: 0, Size: 14, Value: `"0.011.7-edge.2"`},
		{Name: "version", Offset: 0, Size: 7, Value: "0.11.7 (0x00002c07)"},
		{Name: "major", Offset: 0, Size: 1, Value: "0"},
		{Name: "minor", Offset: 2, Size: 3, Value: "11"},
		{Name: "patch", Offset: 6, Size: 1, Value: "7"},
		{Name: "suffix (ignored)", Offset: 7, Size: 7, Value: `"-edge.2"`},
	}
	got := r.Sections[0].Fields
	if len(got) != len(want) {
		t.Fatalf("fields = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("field %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	r = mustDump(t, []byte("1.1024.0"), kindVersion)
	if e := r.Sections[0].Err; r.OK || className(e) != "ErrRange" {
		t.Errorf("error = %+v", e)
	}
}

func TestDumpUnknownKind(t *testing.T) {
	if _, err := Dump(nil, "frame"); !errors.Is(err, errUnknownKind) {
		t.Errorf("err = %v, want errUnknownKind", err)
	}
}

// No input, however short or odd, makes Dump fail or panic, for any kind.
func TestDumpAnyPrefixAnyKind(t *testing.T) {
	inputs := [][]byte{registerFrame(t, loginBody(t, "pw")), loginReplyFrame(t), eviction14(t), legacyLoginFrame(t, "pw")}
	for _, in := range inputs {
		for n := 0; n <= len(in); n++ {
			for _, kind := range append(kinds(), kindAuto) {
				r := mustDump(t, in[:n], kind)
				if !r.OK && len(r.marks()) == 0 {
					t.Fatalf("%s on %d bytes: failed with no error to mark", kind, n)
				}
			}
		}
	}
}

// FuzzDump holds Dump to its contract on any input: no panic, no error for
// a known kind, both printed forms written, and no field over a secret
// showing its value.
func FuzzDump(f *testing.F) {
	reg := registerFrame(f, loginBody(f, "pw"))
	for _, seed := range [][]byte{nil, reg, concat(reg, reg), withSize(reg, 0, 270), withCommand(reg, 0, 7),
		loginBody(f, "pw"), patBody(f, "tok"), legacyLoginFrame(f, "pw"), eviction14(f), loginReplyFrame(f), []byte("0.11.0")} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, kind := range append(kinds(), kindAuto) {
			r := mustDump(t, src, kind)
			_ = render(t, r)
			checkOverlapsRedacted(t, kind, r)
		}
	})
}
