package main

import (
	"fmt"
	"slices"

	"github.com/iggywire/iggywire/codec"
)

// blankSpans returns the byte ranges of src that hold a password or a
// token. The rule is that every span some reading of the input could take
// for a secret is blanked, so the result must not depend on a size field,
// a command byte or the -as kind being honest:
//
//   - every Secret field of a section shown;
//   - the secrets of a login shape found at any offset of the input (see
//     scanSecrets): a captured stream, a lying size field and a frame with
//     a stray command byte all put login bodies where no header says;
//   - the bodies of the frames that some chain of size fields, or of
//     header-only readings, could start (see frameSecrets): after a
//     Register-looking header, the secrets of the login shapes that decode
//     there, read to the end of the input, or, when neither does, of both
//     shapes as far as their walks reach; after a login code sent as
//     NonReplicated, the whole body;
//   - an input read as a body or text, shorter than a header, or that did
//     not decode: the secrets of the login shapes that match at offset 0,
//     and, when the input is read as a login or its ClientVersionInfo
//     prefix, is tried as every body kind, or is a body or short input that
//     did not decode, also of the shapes that do not match.
//
// The cost is over-redaction, never a leak: bytes that merely look like a
// login body at some offset are blanked too.
func blankSpans(src []byte, kind string, secs []Section, ok bool) []span {
	var out []span
	for _, s := range secs {
		for _, f := range s.Fields {
			if f.Secret && f.Size > 0 {
				out = append(out, span{f.Offset, f.end()})
			}
		}
	}
	out = append(out, scanSecrets(src)...)
	out = append(out, frameSecrets(src)...)
	short := len(src) < codec.HeaderSize
	if isBodyKind(kind) || short || !ok {
		all := kind == kindLogin || kind == kindLoginPAT || kind == kindClientInfo ||
			kind == kindAuto && short || !ok && (isBodyKind(kind) || short)
		out = append(out, shapeSecrets(src, 0, all)...)
	}
	return merge(out)
}

// shapeSecrets returns the secrets of the login shapes that decode at
// start, read to the end of the input, or, if none does and all is set, of
// both shapes as far as their walks reach (a truncated password is still a
// password).
func shapeSecrets(src []byte, start int, all bool) []span {
	var matched, every []span
	anyMatched := false
	for _, kind := range loginKinds() {
		s := walkSecrets(src, start, kind)
		every = append(every, s...)
		if decodesAt(src, start, kind) {
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
