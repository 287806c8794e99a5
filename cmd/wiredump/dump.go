package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/iggywire/iggywire/codec"
)

// The kinds -as accepts. kindAuto picks by the command byte, or tries every
// body kind on an input shorter than a header.
const (
	kindAuto            = "auto"
	kindRequest         = "request"
	kindReply           = "reply"
	kindEviction        = "eviction"
	kindClientInfo      = "clientinfo"
	kindLogin           = "login"
	kindLoginPAT        = "loginpat"
	kindLoginReply      = "loginreply"
	kindLoginReplyFrame = "loginreplyframe"
	kindResult          = "result"
	kindVersion         = "version"
)

// kinds lists the -as kinds in the order the usage text shows them.
func kinds() []string {
	return []string{kindRequest, kindReply, kindEviction, kindClientInfo, kindLogin,
		kindLoginPAT, kindLoginReply, kindLoginReplyFrame, kindResult, kindVersion}
}

// isBodyKind reports whether kind reads its input from offset 0 as a body or
// as text rather than as a frame.
func isBodyKind(kind string) bool {
	return kind != kindAuto && kind != kindRequest && kind != kindReply && kind != kindEviction
}

// Section statuses. A section that did not decode is statusFailed when that
// makes the input undecodable, and statusNoMatch when it was one of several
// alternative shapes and another one matched.
const (
	statusOK      = "decoded"
	statusFailed  = "error"
	statusNoMatch = "no match"
)

// Section is one layout read from the input: a header, a body shape, a
// result section. Err carries absolute offsets; Base is where the layout
// starts, so Err.Offset-Base is the offset the codec itself reported.
type Section struct {
	Title  string
	Status string
	Fields []Field
	Notes  []string
	Err    *codec.Error
	Base   int
}

// fail records err, rebased to absolute offsets, as the section's error.
func (s *Section) fail(err error) {
	s.Status = statusFailed
	s.Err = rebase(err, s.Base)
}

// settle records the outcome of the codec's decode of the section.
func (s *Section) settle(err error) {
	if err != nil {
		s.fail(err)
		return
	}
	s.Status = statusOK
}

// span is the byte range [start, end) of the input.
type span struct{ start, end int }

// Report is everything wiredump found in one input. Blank lists the byte
// ranges that hold secrets: the hex dump shows them as "..", and any field
// overlapping them is shown as a redaction.
type Report struct {
	Kind     string
	Len      int
	Notes    []string
	Sections []Section
	Summary  []string
	OK       bool
	Blank    []span
	src      []byte
}

// errUnknownKind is the usage error of an -as value Dump does not know.
var errUnknownKind = errors.New("unknown kind")

// Dump decodes src as kind and returns what it found. The only error is an
// unknown kind; decode failures are part of the Report (OK false).
func Dump(src []byte, kind string) (Report, error) {
	r := Report{Kind: kind, Len: len(src), src: src}
	secs, err := sectionsFor(&r, src, kind)
	if err != nil {
		return Report{}, err
	}
	r.Sections = secs
	r.OK = !slices.ContainsFunc(secs, func(s Section) bool { return s.Status == statusFailed })
	r.Blank = blankSpans(src, kind, secs, r.OK)
	redactOverlaps(r.Sections, r.Blank)
	return r, nil
}

func sectionsFor(r *Report, src []byte, kind string) ([]Section, error) {
	switch kind {
	case kindAuto:
		return dumpAuto(r, src), nil
	case kindRequest:
		return dumpRequest(src), nil
	case kindReply:
		return dumpReply(src), nil
	case kindEviction:
		return dumpEviction(src), nil
	case kindLogin, kindLoginPAT, kindClientInfo, kindLoginReply:
		d, _ := bodyDecoderFor(kind)
		return []Section{decodeBody(src, 0, len(src), d)}, nil
	case kindLoginReplyFrame:
		return decodeLoginReplyFrame(src, 0, len(src)), nil
	case kindResult:
		return decodeResultKind(src), nil
	case kindVersion:
		return []Section{decodeVersion(src)}, nil
	}
	return nil, fmt.Errorf("%w %q (want one of %v)", errUnknownKind, kind, kinds())
}

// dumpAuto picks the decoder by the command byte (WIRE.md section 5).
func dumpAuto(r *Report, src []byte) []Section {
	cmd, err := codec.PeekCommand(src)
	if err != nil {
		r.Notes = append(r.Notes, fmt.Sprintf(
			"input is %d bytes, shorter than a %d-byte header: trying every body kind", len(src), codec.HeaderSize))
		return tryBodyKinds(r, src)
	}
	switch cmd {
	case codec.CommandRequest:
		return dumpRequest(src)
	case codec.CommandReply:
		return dumpReply(src)
	case codec.CommandEviction:
		return dumpEviction(src)
	}
	return dumpOther(r, src, cmd)
}

// dumpOther shows the common prologue of a frame no client-facing decoder
// accepts, and reports the command byte as the error.
func dumpOther(r *Report, src []byte, cmd codec.Command) []Section {
	r.Notes = append(r.Notes, fmt.Sprintf(
		"command %s is not client-facing: only the common prologue is decoded", showCommand(uint8(cmd))))
	s := Section{Title: "header prologue", Fields: walkOtherHeader(src)}
	s.fail(&codec.Error{Field: "command", Offset: offCommand,
		Rule: "command is 5 (Request), 8 (Reply) or 13 (Eviction)", Err: codec.ErrCommand})
	return []Section{s}
}

// tryBodyKinds decodes a short input as every body kind. The kinds are
// alternatives: when one decodes, the others are reported as no match.
func tryBodyKinds(r *Report, src []byte) []Section {
	var attempts []attempt
	for _, kind := range []string{kindClientInfo, kindLogin, kindLoginPAT, kindLoginReply} {
		d, _ := bodyDecoderFor(kind)
		attempts = append(attempts, attempt{kind, []Section{decodeBody(src, 0, len(src), d)}})
	}
	attempts = append(attempts,
		attempt{kindLoginReplyFrame, decodeLoginReplyFrame(src, 0, len(src))},
		attempt{kindVersion, []Section{decodeVersion(src)}})
	secs, matched := alternatives(attempts)
	r.Summary = append(r.Summary, matchSummary("body kinds", matched))
	return secs
}

// attempt is one reading of some bytes: one or more sections, named by the
// kind that produced them.
type attempt struct {
	name string
	secs []Section
}

// decoded reports whether every section of the reading decoded.
func (a attempt) decoded() bool {
	return !slices.ContainsFunc(a.secs, func(s Section) bool { return s.Status != statusOK })
}

// alternatives settles a set of alternative readings of the same bytes. If
// any reading decodes, each other one becomes a single field-less no-match
// section, so that no field of a reading that does not apply is shown (nor
// blanked as a secret); if none decodes, every reading is shown in full.
func alternatives(attempts []attempt) (secs []Section, matched []string) {
	for _, a := range attempts {
		if a.decoded() {
			matched = append(matched, a.name)
		}
	}
	for _, a := range attempts {
		if len(matched) == 0 || a.decoded() {
			secs = append(secs, a.secs...)
			continue
		}
		i := slices.IndexFunc(a.secs, func(s Section) bool { return s.Status != statusOK })
		failed := a.secs[i]
		title := a.name + ": " + failed.Title
		secs = append(secs, Section{Title: title, Status: statusNoMatch, Err: failed.Err, Base: failed.Base})
	}
	return secs, matched
}

func matchSummary(what string, matched []string) string {
	if len(matched) == 0 {
		return what + " matched: none"
	}
	return what + " matched: " + strings.Join(matched, ", ")
}

// rebase returns err as a *codec.Error whose offset counts from the start
// of the input rather than from base.
func rebase(err error, base int) *codec.Error {
	var ce *codec.Error
	if errors.As(err, &ce) {
		c := *ce
		c.Offset += base
		return &c
	}
	// Every codec failure is a *codec.Error; anything else is shown as is.
	return &codec.Error{Field: "?", Offset: base, Rule: err.Error(), Err: err}
}

// className names the sentinel err matches, as codec spells it.
func className(err error) string {
	classes := []struct {
		err  error
		name string
	}{
		{codec.ErrTruncated, "ErrTruncated"}, {codec.ErrCommand, "ErrCommand"},
		{codec.ErrSize, "ErrSize"}, {codec.ErrReserved, "ErrReserved"},
		{codec.ErrField, "ErrField"}, {codec.ErrReason, "ErrReason"},
		{codec.ErrWindow, "ErrWindow"}, {codec.ErrLength, "ErrLength"},
		{codec.ErrUTF8, "ErrUTF8"}, {codec.ErrTrailing, "ErrTrailing"},
		{codec.ErrRange, "ErrRange"}, {codec.ErrSyntax, "ErrSyntax"},
	}
	for _, c := range classes {
		if errors.Is(err, c.err) {
			return c.name
		}
	}
	return "unknown"
}
