package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/iggywire/iggywire/codec"
)

// jsonHexLimit bounds the hex string of a JSON report: a frame may be 64 MiB.
const jsonHexLimit = 4096

// marks returns the error offsets of the sections that make the input fail.
func (r Report) marks() []int {
	var out []int
	for _, s := range r.Sections {
		if s.Status == statusFailed && s.Err != nil {
			out = append(out, s.Err.Offset)
		}
	}
	return out
}

// WriteText prints r for a person: one line per field in wire order, each
// error with its class, then a hex dump with the errors marked.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "input: %d bytes, decoded as %s\n", r.Len, r.Kind)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, s := range r.Sections {
		writeSection(&b, s)
	}
	for _, n := range r.Summary {
		fmt.Fprintf(&b, "%s\n", n)
	}
	fmt.Fprintf(&b, "== hex dump (%d bytes; offsets decimal; secret bytes shown as ..; ^^ marks an error)\n", r.Len)
	for _, l := range hexDump(r.src, r.Blank, r.marks()) {
		fmt.Fprintf(&b, "%s\n", l)
	}
	for _, s := range r.Sections {
		if s.Status == statusFailed && s.Err != nil {
			fmt.Fprintf(&b, "^^ %d: %s (%s) in %s\n", s.Err.Offset, s.Err.Field, className(s.Err), s.Title)
		}
	}
	if r.OK {
		b.WriteString("result: decoded\n")
	} else {
		b.WriteString("result: decode error\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeSection(b *strings.Builder, s Section) {
	fmt.Fprintf(b, "== %s: %s\n", s.Title, s.Status)
	width := 0
	for _, f := range s.Fields {
		width = max(width, len(f.Name))
	}
	at := errorField(s)
	for i, f := range s.Fields {
		line := fmt.Sprintf("%6d %4d  %-*s  %s", f.Offset, f.Size, width, f.Name, f.Value)
		if i == at {
			line += "  <-- " + className(s.Err)
		}
		fmt.Fprintf(b, "%s\n", strings.TrimRight(line, " "))
	}
	if s.Err != nil {
		writeError(b, s)
	}
	for _, n := range s.Notes {
		fmt.Fprintf(b, "   note: %s\n", n)
	}
}

// writeError prints the typed error: field, absolute offset, rule, class,
// and where the codec itself counted from when that is not the input start.
func writeError(b *strings.Builder, s Section) {
	e := s.Err
	fmt.Fprintf(b, "   error: %s at offset %d: %s (%s)\n", e.Field, e.Offset, e.Rule, className(e))
	if s.Base != 0 {
		fmt.Fprintf(b, "          codec offset %d, counted from the layout start at %d\n", e.Offset-s.Base, s.Base)
	}
}

// errorField returns the index of the field the section's error points
// into, preferring one with the error's field name, or -1.
func errorField(s Section) int {
	if s.Err == nil {
		return -1
	}
	found := -1
	for i, f := range s.Fields {
		in := f.Offset <= s.Err.Offset && s.Err.Offset < f.end() || f.Size == 0 && f.Offset == s.Err.Offset
		if !in {
			continue
		}
		if f.Name == s.Err.Field {
			return i
		}
		if found < 0 {
			found = i
		}
	}
	return found
}

// jsonReport is the -json form of a Report.
type jsonReport struct {
	Kind         string        `json:"kind"`
	Len          int           `json:"input_len"`
	OK           bool          `json:"ok"`
	Notes        []string      `json:"notes,omitempty"`
	Sections     []jsonSection `json:"sections"`
	Summary      []string      `json:"summary,omitempty"`
	Hex          string        `json:"hex"`
	HexTruncated bool          `json:"hex_truncated,omitempty"`
}

type jsonSection struct {
	Title  string     `json:"title"`
	Status string     `json:"status"`
	Fields []Field    `json:"fields"`
	Notes  []string   `json:"notes,omitempty"`
	Error  *jsonError `json:"error,omitempty"`
}

// jsonError is a *codec.Error: Offset counts from the input start,
// LayoutOffset from the start of the layout the codec decoded.
type jsonError struct {
	Field        string `json:"field"`
	Offset       int    `json:"offset"`
	LayoutOffset int    `json:"layout_offset"`
	Rule         string `json:"rule"`
	Class        string `json:"class"`
	Message      string `json:"message"`
}

// WriteJSON prints r as one indented JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	out := jsonReport{Kind: r.Kind, Len: r.Len, OK: r.OK, Notes: r.Notes, Summary: r.Summary,
		Sections: make([]jsonSection, 0, len(r.Sections))}
	for _, s := range r.Sections {
		js := jsonSection{Title: s.Title, Status: s.Status, Fields: s.Fields, Notes: s.Notes}
		if js.Fields == nil {
			js.Fields = []Field{}
		}
		if s.Err != nil {
			js.Error = newJSONError(s.Err, s.Base)
		}
		out.Sections = append(out.Sections, js)
	}
	out.Hex, out.HexTruncated = blankHex(r.src, r.Blank, jsonHexLimit)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func newJSONError(e *codec.Error, base int) *jsonError {
	return &jsonError{Field: e.Field, Offset: e.Offset, LayoutOffset: e.Offset - base,
		Rule: e.Rule, Class: className(e), Message: e.Error()}
}

// blankHex returns the first limit bytes of src as hex with secret bytes
// as "..", and whether it stopped short.
func blankHex(src []byte, blank []span, limit int) (string, bool) {
	const digits = "0123456789abcdef"
	n := min(len(src), limit)
	var b strings.Builder
	b.Grow(2 * n)
	for i := range n {
		if blanked(blank, i) {
			b.WriteString("..")
			continue
		}
		b.WriteByte(digits[src[i]>>4])
		b.WriteByte(digits[src[i]&0xf])
	}
	return b.String(), n < len(src)
}
