package main

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// Each header walk must tile the 256 bytes exactly, in wire order: no gap,
// no overlap, ending at 256. This is the layout table check of the codec,
// made again for the names a dump prints.
func TestHeaderWalksTileTheHeader(t *testing.T) {
	nonReplicated := registerFrame(t, nil)
	nonReplicated[offReqOperation] = byte(codec.OperationNonReplicated)
	for name, fields := range map[string][]Field{
		"request":               walkRequestHeader(registerFrame(t, nil)),
		"request/NonReplicated": walkRequestHeader(nonReplicated),
		"reply":                 walkReplyHeader(loginReplyFrame(t)),
		"eviction":              walkEviction(eviction14(t)),
		"other":                 walkOtherHeader(make([]byte, codec.HeaderSize)),
	} {
		next := 0
		for _, f := range fields {
			if f.Offset != next || f.Size <= 0 {
				t.Errorf("%s: field %s at %d size %d, want offset %d and a positive size", name, f.Name, f.Offset, f.Size, next)
			}
			next = f.end()
		}
		if next != codec.HeaderSize {
			t.Errorf("%s: fields end at %d, want %d", name, next, codec.HeaderSize)
		}
	}
}

// The offsets the walks print are those of WIRE.md section 5.
func TestHeaderFieldOffsets(t *testing.T) {
	want := map[string]map[string][2]int{
		"request": {"size": {48, 4}, "command": {60, 1}, "reserved_frame": {62, 66}, "client": {128, 16},
			"request": {168, 8}, "operation": {176, 1}, "session": {184, 8}, "user_id": {192, 4}, "reserved": {196, 60}},
		"reply": {"request_checksum": {128, 16}, "client": {160, 16}, "commit": {184, 8}, "request": {200, 8},
			"operation": {208, 1}, "status": {216, 4}, "reserved": {220, 36}},
		"eviction": {"client": {128, 16}, "server_protocol_version": {144, 4},
			"server_protocol_version_min": {148, 4}, "reserved": {152, 103}, "reason": {255, 1}},
	}
	got := map[string][]Field{
		"request":  walkRequestHeader(registerFrame(t, nil)),
		"reply":    walkReplyHeader(loginReplyFrame(t)),
		"eviction": walkEviction(eviction14(t)),
	}
	for kind, fields := range want {
		for name, at := range fields {
			f, ok := fieldNamed(got[kind], name)
			if !ok || f.Offset != at[0] || f.Size != at[1] {
				t.Errorf("%s.%s = %+v, want offset %d size %d", kind, name, f, at[0], at[1])
			}
		}
	}
}

func TestRequestCodeOnlyForNonReplicated(t *testing.T) {
	h := registerFrame(t, nil)
	h[offReqOperation] = byte(codec.OperationNonReplicated)
	h[offReqCode] = byte(codec.CodePing)
	f, ok := fieldNamed(walkRequestHeader(h), "code")
	if !ok || f.Offset != 196 || f.Size != 4 || f.Value != "1 (PING)" {
		t.Errorf("code field = %+v, %v; want 196 4 \"1 (PING)\"", f, ok)
	}
	if _, ok := fieldNamed(walkRequestHeader(registerFrame(t, nil)), "code"); ok {
		t.Error("a Register request shows a code field; bytes 196..200 are reserved there")
	}
}

func TestShortHeaderWalkStops(t *testing.T) {
	fields := walkEviction(eviction14(t)[:50])
	last := fields[len(fields)-1]
	if last.Name != "size" || last.Offset != 48 || last.Size != 2 || last.Value != "truncated: needs 4 bytes, 2 present" {
		t.Errorf("last field of a 50-byte header = %+v", last)
	}
}

func fieldNamed(fields []Field, name string) (Field, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}
