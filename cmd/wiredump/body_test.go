package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// The field walk and the codec read the same layout: on every valid body
// the walk tiles exactly the bytes the codec used, and shows the values the
// codec decoded.
func TestBodyWalkAgreesWithCodec(t *testing.T) {
	login := loginBody(t, "pw")
	pat := patBody(t, "tok")
	reply, err := codec.LoginReply{UserID: 9, Session: 1 << 40, ServerProtocol: codec.MustPack(1, 2, 3),
		ServerVersion: []byte("v")}.AppendTo(nil)
	must(t, err)
	for _, tc := range []struct {
		kind string
		src  []byte
		want map[string]string
	}{
		{kindLogin, login, map[string]string{"username": strconv.Quote("iggy"), "password": "[REDACTED] (2 bytes)",
			"protocol_version": "0.11.0 (0x00002c00)", "context_len": "0"}},
		{kindLoginPAT, pat, map[string]string{"token": "[REDACTED] (3 bytes)", "context": strconv.Quote("ctx"),
			"sdk_name": strconv.Quote("go-sdk")}},
		{kindLoginReply, reply, map[string]string{"session": "1099511627776", "user_id": "9",
			"server_protocol_version": "1.2.3 (0x00100803)"}},
		{kindClientInfo, login[:17], map[string]string{"sdk_version": strconv.Quote("0.1.0")}},
	} {
		d, _ := bodyDecoderFor(tc.kind)
		// Decode with a prefix and a suffix around the body, so offsets are
		// checked to be absolute.
		src := append(append([]byte("pre"), tc.src...), "post"...)
		s := decodeBody(src, 3, 3+len(tc.src), d)
		if s.Status != statusOK {
			t.Fatalf("%s: %s: %v", tc.kind, s.Status, s.Err)
		}
		next := 3
		for _, f := range s.Fields {
			if f.Offset != next {
				t.Errorf("%s: %s at %d, want %d", tc.kind, f.Name, f.Offset, next)
			}
			next = f.end()
		}
		if next != 3+len(tc.src) {
			t.Errorf("%s: fields end at %d, want %d", tc.kind, next, 3+len(tc.src))
		}
		for name, v := range tc.want {
			if f, _ := fieldNamed(s.Fields, name); f.Value != v {
				t.Errorf("%s.%s = %q, want %q", tc.kind, name, f.Value, v)
			}
		}
		for _, n := range s.Notes {
			if strings.Contains(n, "MISMATCH") {
				t.Errorf("%s: %s", tc.kind, n)
			}
		}
	}
}

// A body error is reported at the offset of the whole input, with the
// codec's own offset kept by Base.
func TestBodyErrorOffsetIsAbsolute(t *testing.T) {
	body := loginBody(t, "pw")
	body[18] = 0xff // first byte of the username: invalid UTF-8
	src := registerFrame(t, body)
	d, _ := bodyDecoderFor(kindLogin)
	s := decodeBody(src, codec.HeaderSize, len(src), d)
	if s.Err == nil || s.Err.Field != "username" || s.Err.Offset != codec.HeaderSize+18 || s.Err.Offset-s.Base != 18 {
		t.Fatalf("error = %+v base %d; want username at %d", s.Err, s.Base, codec.HeaderSize+18)
	}
	if className(s.Err) != "ErrUTF8" {
		t.Errorf("class = %s, want ErrUTF8", className(s.Err))
	}
}

func TestPrefixDecodeNotesTrailingBytes(t *testing.T) {
	src := append(loginBody(t, "pw"), 1, 2, 3)
	d, _ := bodyDecoderFor(kindLogin)
	s := decodeBody(src, 0, len(src), d)
	if s.Status != statusOK || !containsLine(s.Notes, "3 bytes after the last field at offset 29") {
		t.Errorf("status %s notes %q; want decoded with 3 trailing bytes at 29", s.Status, s.Notes)
	}
}

func TestResultSection(t *testing.T) {
	// count 2: first entry {index 0, result 42}: an error, no payload.
	src := []byte{2, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}
	secs := decodeLoginReplyFrame(src, 0, len(src))
	if len(secs) != 1 || secs[0].Status != statusOK || !containsLine(secs[0].Notes, "42 (InvalidCredentials)") {
		t.Fatalf("sections = %+v", secs)
	}
	if f, _ := fieldNamed(secs[0].Fields, "result[1].index"); f.Offset != 12 || f.Value != "1" {
		t.Errorf("result[1].index = %+v", f)
	}
	// A count the bytes cannot hold is truncated at the entries, as
	// SplitResult says.
	secs = decodeLoginReplyFrame([]byte{0xff, 0xff, 0xff, 0xff, 0}, 0, 5)
	if e := secs[0].Err; e == nil || e.Field != "result_entries" || e.Offset != 4 || className(e) != "ErrTruncated" {
		t.Errorf("error = %+v", e)
	}
}

func TestManyResultEntriesAreCapped(t *testing.T) {
	src := make([]byte, 4+8*40)
	src[0] = 40
	w := newWalker(src, 0, len(src))
	walkResult(w)
	last := w.fields[len(w.fields)-1]
	if last.Name != "result[16..39]" || last.Offset != 4+8*16 || last.end() != len(src) {
		t.Errorf("last field = %+v", last)
	}
}

func containsLine(lines []string, sub string) bool {
	for _, l := range lines {
		if strings.Contains(l, sub) {
			return true
		}
	}
	return false
}
