package main

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
	hdrlayout "github.com/iggywire/iggywire/internal/layout"
)

// Report is everything wiredump found in one input.
type Report struct {
	Kind     string    `json:"kind"`
	Len      int       `json:"input_len"`
	OK       bool      `json:"ok"`
	Notes    []string  `json:"notes,omitempty"`
	Sections []Section `json:"sections"`
	// RawHex is every input byte, secrets included; only -raw sets it.
	RawHex string `json:"raw_hex,omitempty"`
}

// Section is one reading of some bytes: a header, a body shape, a result
// section. Error is the codec's verdict with the offset counted from the
// start of the input; a codec error never holds input bytes. In a stream
// of frames (-kind frames, conn), Base is the input offset of the frame
// that the section's offsets count from.
type Section struct {
	Title  string   `json:"title"`
	Status string   `json:"status"`
	Base   int      `json:"base,omitempty"`
	Fields []Field  `json:"fields,omitempty"`
	Error  string   `json:"error,omitempty"`
	Notes  []string `json:"notes,omitempty"`
	// Reference is, with -ref, whether internal/refcodec reads the same
	// bytes the same way: "agrees", or what each says (see ref.go).
	Reference string `json:"reference,omitempty"`
	fault     *fault
	ref       *refReading // the reference reading, for -ref
}

// fault is where a reading failed, for finish to withhold an error that
// lies inside a secret.
type fault struct {
	field string
	at    int
}

// Field is one named field: where it sits in the input, how many bytes it
// spans, and its value as text. A secret's value is only a redaction.
type Field struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	Size   int    `json:"size"`
	Value  string `json:"value"`
	secret bool
}

// overlaps reports whether f and g share a byte: an empty field shares
// none.
func (f Field) overlaps(g Field) bool {
	return f.Size > 0 && g.Size > 0 && f.Offset < g.Offset+g.Size && g.Offset < f.Offset+f.Size
}

// settle records the codec's verdict on a reading that starts at base.
func (s *Section) settle(err error, base int) {
	var ce *codec.Error
	switch {
	case err == nil:
		s.Status = statusOK
	case errors.As(err, &ce):
		s.Status, s.fault = statusFailed, &fault{field: string(ce.Field), at: base + ce.Offset}
		s.Error = fmt.Sprintf("%s at offset %d: %s", ce.Field, base+ce.Offset, verdict(ce))
		if secretNames[string(ce.Field)] && errors.Is(err, codec.ErrUTF8) {
			// The offset is that of the first bad byte: it would say
			// something about the secret's bytes.
			s.Error = fmt.Sprintf("%s: %s; where in the %s is not shown", ce.Field, verdict(ce), ce.Field)
		}
	default:
		s.Status, s.Error = statusFailed, "not a codec error" // every codec failure is a *codec.Error
	}
}

// verdict is what the codec's error says after "codec: FIELD at offset N: "
// (the class, the rule): wiredump prints the offset from the start of the
// input instead.
func verdict(ce *codec.Error) string {
	text := ce.Error()
	if rest, ok := strings.CutPrefix(text, fmt.Sprintf("codec: %s at offset %d: ", ce.Field, ce.Offset)); ok {
		return rest
	}
	return text
}

// secretNames are the fields that hold a password or a token.
var secretNames = map[string]bool{"password": true, "token": true, "bind_secret": true}

// redacted is how a secret of n bytes prints.
func redacted(n int) string { return fmt.Sprintf("[REDACTED n=%d]", n) }

// secretLen is the one place wiredump measures a secret; it never reads
// the bytes.
func secretLen(s codec.Secret) int { return s.Len() }

// notShown is the value of bytes no reading decodes: they print as their
// offset and length (the field's Offset and Size) and nothing else. Not a
// hash or a checksum either: any digest of bytes that may hold a password
// lets whoever reads the output test guesses of it offline. Two runs are
// told apart by their offsets.
const notShown = "not shown"

// unshown lists the runs of src that no field of shown covers, as fields
// whose value is notShown.
func unshown(src []byte, shown []Field) []Field {
	covered := make([]bool, len(src))
	for _, f := range shown {
		for i := f.Offset; i < f.Offset+f.Size && i < len(src); i++ {
			covered[i] = true
		}
	}
	var out []Field
	for i := 0; i < len(src); {
		j := i
		for j < len(src) && !covered[j] {
			j++
		}
		if j > i {
			out = append(out, Field{Name: "bytes", Offset: i, Size: j - i, Value: notShown})
		}
		i = j + 1
	}
	return out
}

// layout lays out the fields of a decoded body from its values, in wire
// order from off. The codec decoded the body, so these are its offsets.
type layout struct {
	off    int
	fields []Field
}

func (l *layout) add(name string, size int, value string, secret bool) {
	l.fields = append(l.fields, Field{Name: name, Offset: l.off, Size: size, Value: value, secret: secret})
	l.off += size
}

func (l *layout) uint(name string, size int, v uint64) {
	l.add(name, size, strconv.FormatUint(v, 10), false)
}
func (l *layout) version(name string, v codec.Version) { l.add(name, 4, showVersion(v), false) }

// textPreview bounds how much of a text field is quoted.
const textPreview = 64

// text adds a length prefix of width bytes and the text it counts.
func (l *layout) text(name string, width int, b []byte) {
	l.uint(name+"_len", width, uint64(len(b)))
	v := strconv.Quote(string(b[:min(len(b), textPreview)]))
	if len(b) > textPreview {
		v += "..."
	}
	l.add(name, len(b), v, false)
}

// secret adds a u8 length prefix and the redacted secret it counts.
func (l *layout) secret(name string, s codec.Secret) {
	if !secretNames[name] {
		panic("wiredump: secret field " + name + " is not in secretNames")
	}
	n := secretLen(s)
	l.uint(name+"_len", 1, uint64(n))
	l.add(name, n, redacted(n), true)
}

// raw adds a secret of fixed size with no length prefix (a bind secret),
// redacted.
func (l *layout) raw(name string, s codec.Secret) {
	if !secretNames[name] {
		panic("wiredump: secret field " + name + " is not in secretNames")
	}
	n := secretLen(s)
	l.add(name, n, redacted(n), true)
}

func (l *layout) info(c codec.ClientVersionInfo) {
	l.version("protocol_version", c.Protocol)
	l.text("sdk_name", 1, c.SDKName)
	l.text("sdk_version", 1, c.SDKVersion)
}

// enums names the values of the header fields that are enums.
var enums = map[hdrlayout.Kind]func(uint64) fmt.Stringer{
	hdrlayout.Command:   func(v uint64) fmt.Stringer { return codec.Command(v) },
	hdrlayout.Operation: func(v uint64) fmt.Stringer { return codec.Operation(v) },
	hdrlayout.Status:    func(v uint64) fmt.Stringer { return codec.Status(v) },
	hdrlayout.Code:      func(v uint64) fmt.Stringer { return codec.Code(v) },
	hdrlayout.Reason:    func(v uint64) fmt.Stringer { return codec.EvictionReason(v) },
}

// headerField shows field f of the header at the start of src by its kind.
func headerField(src []byte, f hdrlayout.Field) Field {
	b := src[f.Offset:f.End()]
	var v uint64
	for i := len(b) - 1; i >= 0 && len(b) <= 8; i-- {
		v = v<<8 | uint64(b[i])
	}
	out := Field{Name: f.Name, Offset: f.Offset, Size: f.Size, Value: strconv.FormatUint(v, 10)}
	switch name, enum := enums[f.Kind]; {
	case enum:
		out.Value = showEnum(v, name(v))
	case f.Kind == hdrlayout.Version:
		out.Value = showVersion(codec.Version(v))
	case isChecksum(f) && slices.ContainsFunc(b, func(c byte) bool { return c != 0 }):
		out.Value = "NON-ZERO, not shown: a checksum can be a digest of a body that holds a password"
	case f.Kind == hdrlayout.Bytes:
		out.Value = "zero"
		if i := slices.IndexFunc(b, func(c byte) bool { return c != 0 }); i >= 0 {
			out.Value = fmt.Sprintf("NON-ZERO from offset %d", f.Offset+i)
		}
	case len(b) == 16:
		out.Value = codec.Uint128{Lo: binary.LittleEndian.Uint64(b), Hi: binary.LittleEndian.Uint64(b[8:])}.String()
	}
	return out
}

// isChecksum reports whether f is a checksum: request_checksum echoes the
// checksum of a request, which covers checksum_body, which covers the body.
func isChecksum(f hdrlayout.Field) bool { return strings.Contains(f.Name, "checksum") }

// showEnum prints an enum as "1 (Register)".
func showEnum(v uint64, name fmt.Stringer) string { return fmt.Sprintf("%d (%s)", v, name) }

// showVersion prints a packed version as "0.11.0 (0x00002c00)".
func showVersion(v codec.Version) string {
	if !v.IsValid() {
		return fmt.Sprintf("not a version: bits 31..30 set (0x%08x)", uint32(v))
	}
	return fmt.Sprintf("%s (0x%08x)", v, uint32(v))
}

// WriteText prints r for a person: each section with one line per field in
// wire order, its error and notes.
func (r Report) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "input: %d bytes, read as %s\n", r.Len, r.Kind)
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	for _, s := range r.Sections {
		if s.Status != "" {
			s.Title += ": " + s.Status
		}
		fmt.Fprintf(&b, "== %s\n", s.Title)
		width := 0
		for _, f := range s.Fields {
			width = max(width, len(f.Name))
		}
		for _, f := range s.Fields {
			fmt.Fprintf(&b, "%6d %4d  %-*s  %s\n", f.Offset, f.Size, width, f.Name, f.Value)
		}
		if s.Error != "" {
			fmt.Fprintf(&b, "   error: %s\n", s.Error)
		}
		for _, n := range s.Notes {
			fmt.Fprintf(&b, "   note: %s\n", n)
		}
		if s.Reference != "" {
			fmt.Fprintf(&b, "   reference: %s\n", s.Reference)
		}
	}
	if r.RawHex != "" {
		raw, _ := hex.DecodeString(r.RawHex)
		fmt.Fprintf(&b, "== -raw: every input byte, SECRETS INCLUDED\n%s", hex.Dump(raw))
	}
	result := map[bool]string{true: "decoded", false: "decode error"}[r.OK]
	if slices.ContainsFunc(r.Sections, func(s Section) bool { return s.Status == statusUndetermined }) {
		result = "kind not determined: give -kind"
	}
	if slices.ContainsFunc(r.Sections, func(s Section) bool { return s.Status == statusStructured }) {
		result = "not wire bytes: replay it with go test (see the notes)"
	}
	fmt.Fprintf(&b, "result: %s\n", result)
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints r as one indented JSON object.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
