package main

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/iggywire/iggywire/codec"
)

// blankSpans returns the byte ranges of src that hold a password or a
// token. It looks at the input, not only at the sections shown, so that a
// wrong -as kind does not print a secret:
//
//   - every Secret field of a section shown;
//   - the body of a Request frame (byte 60 is 5): for operation Register,
//     the secrets of the login shapes that match, or of both shapes when
//     neither does (a truncated password is still a password); for a login
//     code sent as NonReplicated, the whole body;
//   - an input read as a body or text, shorter than a header, or that did
//     not decode: the secrets of the login shapes that match at offset 0.
//     When the input is read as a login or its ClientVersionInfo prefix, is
//     tried as every body kind, or is a body or short input that did not
//     decode, also of the shapes that do not match.
//
// A long input read as a frame that decodes is not read as a login body, so
// that a header's random bytes are not taken for a password.
func blankSpans(src []byte, kind string, secs []Section, ok bool) []span {
	var out []span
	for _, s := range secs {
		for _, f := range s.Fields {
			if f.Secret && f.Size > 0 {
				out = append(out, span{f.Offset, f.end()})
			}
		}
	}
	out = append(out, frameSecrets(src)...)
	short := len(src) < codec.HeaderSize
	if isBodyKind(kind) || short || !ok {
		all := kind == kindLogin || kind == kindLoginPAT || kind == kindClientInfo ||
			kind == kindAuto && short || !ok && (isBodyKind(kind) || short)
		out = append(out, shapeSecrets(src, 0, len(src), all)...)
	}
	return merge(out)
}

// frameSecrets finds the secrets of a Request frame's body, whatever its
// header says otherwise.
func frameSecrets(src []byte) []span {
	if len(src) < codec.HeaderSize || codec.Command(src[offCommand]) != codec.CommandRequest {
		return nil
	}
	end := len(src)
	if size := binary.LittleEndian.Uint32(src[offSize:]); size >= codec.HeaderSize && int64(size) < int64(end) {
		end = int(size)
	}
	switch codec.Operation(src[offReqOperation]) {
	case codec.OperationRegister:
		return shapeSecrets(src, codec.HeaderSize, end, true)
	case codec.OperationNonReplicated:
		if isLoginCode(codec.Code(binary.LittleEndian.Uint32(src[offReqCode:]))) && end > codec.HeaderSize {
			return []span{{codec.HeaderSize, end}}
		}
	}
	return nil
}

// shapeSecrets returns the secret ranges of the login shapes that decode at
// src[start:end], or, if none does and all is set, of every shape as far as
// its walk got.
func shapeSecrets(src []byte, start, end int, all bool) []span {
	var matched, every []span
	anyMatched := false
	for _, kind := range []string{kindLogin, kindLoginPAT} {
		d, _ := bodyDecoderFor(kind)
		w := newWalker(src, start, end)
		d.walk(w)
		var s []span
		for _, f := range w.fields {
			if f.Secret && f.Size > 0 {
				s = append(s, span{f.Offset, f.end()})
			}
		}
		every = append(every, s...)
		if _, err := d.decode(src[start:end]); err == nil {
			anyMatched = true
			matched = append(matched, s...)
		}
	}
	if anyMatched || !all {
		return matched
	}
	return every
}

// merge sorts spans and joins those that overlap or touch.
func merge(in []span) []span {
	slices.SortFunc(in, func(a, b span) int { return a.start - b.start })
	var out []span
	for _, s := range in {
		if n := len(out); n > 0 && s.start <= out[n-1].end {
			out[n-1].end = max(out[n-1].end, s.end)
			continue
		}
		out = append(out, s)
	}
	return out
}

// blanked reports whether byte i of the input is inside a blank span.
func blanked(blank []span, i int) bool {
	for _, s := range blank {
		if s.start <= i && i < s.end {
			return true
		}
	}
	return false
}

// overlaps reports whether [start, end) shares a byte with a blank span.
func overlaps(blank []span, start, end int) bool {
	for _, s := range blank {
		if start < s.end && s.start < end {
			return true
		}
	}
	return false
}

// redactOverlaps replaces the value of every field that shares a byte with
// a secret: a length claim or a text field of one reading may be the
// password of another.
func redactOverlaps(secs []Section, blank []span) {
	for i := range secs {
		for j := range secs[i].Fields {
			f := &secs[i].Fields[j]
			if !f.Secret && overlaps(blank, f.Offset, f.end()) {
				f.Value = fmt.Sprintf("[REDACTED] (%d bytes, overlaps a secret)", f.Size)
			}
		}
	}
}
