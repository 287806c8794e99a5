package main

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/iggywire/iggywire/codec"
)

// everyKind lists the readings FuzzDifferential gives the same bytes: every
// decoder of the codec, each on the whole input.
var everyKind = []string{kindFrame, kindClientInfo, kindLogin, kindLoginPAT, kindLoginReply, kindLoginReplyFrame, kindVersion}

// dumpEvery reads src as every kind at once, as FuzzDifferential does.
// Readings that fail while another decodes are no match, and a field any
// reading takes for a secret is redacted in all of them (finish).
func dumpEvery(src []byte, mask []bool) []Section {
	var secs []Section
	for _, kind := range everyKind {
		for _, s := range dumpAs(src, kind) {
			s.Title = "as " + kind + ": " + s.Title
			secs = append(secs, s)
		}
	}
	return finish(src, mask, alternatives(secs...))
}

// dumpClient reads src as FuzzClient's input: steps of [action u8], which
// picks the request the client builds, then its answer written as the
// lifecycle targets write frames ([flags u8][len u16 LE][len bytes], see
// dumpConn). Flags bit 1 has the target patch the client id, request
// number and operation the client waits for into the answer, which
// wiredump cannot know; the frame is shown as the input holds it.
func dumpClient(src []byte, mask []bool) []Section {
	var secs []Section
	off := 0
	for step := 1; off < len(src); step++ {
		action := src[off]
		off++
		title := Section{Title: fmt.Sprintf("step %d at input offset %d: action 0x%02x, the client sends %s",
			step, off-1, action, clientAction(action))}
		if mask[off-1] {
			title.Title = fmt.Sprintf("step %d at input offset %d: action %s", step, off-1, maskedByte)
		}
		if len(src)-off < 3 {
			title.Notes = []string{"no answer follows (fewer than 3 bytes left): the input ends here"}
			secs = append(secs, title)
			break
		}
		flags, n := src[off], int(binary.LittleEndian.Uint16(src[off+1:]))
		frame := slices.Clone(src[off+3 : off+3+min(n, len(src)-off-3)])
		if flags&1 == 0 && len(frame) >= codec.HeaderSize {
			binary.LittleEndian.PutUint32(frame[field(codec.CommandReply, "size").Offset:], uint32(len(frame)))
		}
		title.Notes = append(title.Notes, fmt.Sprintf("its answer at input offset %d: flags 0x%02x, %d bytes; offsets below count from it",
			off+3, flags, len(frame)))
		if slices.Contains(mask[off:off+3], true) {
			title.Notes[len(title.Notes)-1] = fmt.Sprintf("its answer at input offset %d: flags and length %s", off+3, maskedByte)
		}
		if flags&2 != 0 && !mask[off] { // a masked flags byte reads as filler: say nothing of its bits
			title.Notes = append(title.Notes, "flags bit 1: the target writes the ids the client waits for into the answer before the client reads it")
		}
		secs = append(secs, title)
		secs = append(secs, based(off+3, finish(frame, mask[off+3:off+3+len(frame)], frameByCommand(frame)))...)
		off += 3 + len(frame)
	}
	return secs
}

// clientAction names the request FuzzClient's send builds for action.
func clientAction(action byte) string {
	switch action % 6 {
	case 0:
		return "a password login"
	case 1:
		return "a token login"
	case 2:
		return "a ping"
	case 3:
		return "a logout"
	case 4:
		return "a GetClusterMetadata request"
	}
	if k := action >> 3; k >= 24 {
		return fmt.Sprintf("a request by command code (the %d-th of the target's code list)", (k-24)%8)
	}
	return fmt.Sprintf("a replicated request, operation %v", codec.OperationCreateStream+codec.Operation(action>>3)%3)
}

// structuredTargets are the fuzz targets whose input is not wire bytes:
// their own generator reads it as choices and field values, and builds the
// frames or values from them.
var structuredTargets = map[string]string{
	"FuzzBuildBodies":    "choices and field values from which it builds a body and encodes it",
	"FuzzBuildHeaders":   "choices and field values from which it builds a header and encodes it",
	"FuzzSecretPrinting": "a holder type, its other fields, its wrapping and a printer with its flags",
}

// structured is the report of an input of a structured target: what its
// bytes are, and the command that replays it.
func structured(target string, n int) Report {
	s := Section{Title: "kind", Status: statusStructured, Notes: []string{
		"the input of " + target + " is not wire bytes: the target reads it as " + structuredTargets[target],
		"replay it (the failure names the file): go test ./fuzz -run '^" + target + "$' -v",
		"give -kind KIND to read the bytes as one kind anyway",
	}}
	return Report{Kind: kindAuto, Len: n, Sections: []Section{s}}
}
