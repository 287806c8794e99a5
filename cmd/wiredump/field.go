package main

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/iggywire/iggywire/codec"
)

// Field is one named field of a decoded input: where it sits in the input
// (Offset is absolute, from the first byte of the input), how many bytes it
// spans, and its value as text. A Secret field's Value is always a
// redaction, never its bytes.
type Field struct {
	Name   string `json:"name"`
	Offset int    `json:"offset"`
	Size   int    `json:"size"`
	Value  string `json:"value"`
	Secret bool   `json:"secret,omitempty"`
}

// end is the offset just past f.
func (f Field) end() int { return f.Offset + f.Size }

// textPreview bounds how much of a text field is quoted: a context may claim
// megabytes, and a dump line should stay a line.
const textPreview = 200

// hexPreview bounds how many bytes an undecoded span shows inline; the hex
// dump shows the rest.
const hexPreview = 32

// walker reads a layout front to back and records every field it reads. It
// checks nothing but lengths: values that break a codec rule are still
// recorded, so a dump shows what the bytes say, and the codec, not the
// walker, decides validity. Once a field runs past end the walker records
// what is present of it and every later read is a no-op.
type walker struct {
	src    []byte // the whole input; offsets are indices into it
	off    int
	end    int // one past the last byte this layout may read
	fields []Field
	short  bool
}

func newWalker(src []byte, start, end int) *walker {
	return &walker{src: src, off: start, end: end}
}

// take returns the next n bytes, or records name as truncated and returns
// false when fewer than n remain. n is an int64 so a u32 claim cannot
// overflow.
func (w *walker) take(name string, n int64, secret bool) ([]byte, bool) {
	if w.short {
		return nil, false
	}
	left := w.end - w.off
	if n > int64(left) {
		v := fmt.Sprintf("truncated: needs %d bytes, %d present", n, left)
		if secret {
			v = "[REDACTED] (" + v + ")"
		}
		w.fields = append(w.fields, Field{Name: name, Offset: w.off, Size: left, Secret: secret, Value: v})
		w.off, w.short = w.end, true
		return nil, false
	}
	b := w.src[w.off : w.off+int(n)]
	w.off += int(n)
	return b, true
}

func (w *walker) add(name string, at int, b []byte, value string) {
	w.fields = append(w.fields, Field{Name: name, Offset: at, Size: len(b), Value: value})
}

func (w *walker) u8(name string, show func(uint8) string) (uint8, bool) {
	at := w.off
	b, ok := w.take(name, 1, false)
	if !ok {
		return 0, false
	}
	w.add(name, at, b, show(b[0]))
	return b[0], true
}

func (w *walker) u32(name string, show func(uint32) string) (uint32, bool) {
	at := w.off
	b, ok := w.take(name, 4, false)
	if !ok {
		return 0, false
	}
	v := binary.LittleEndian.Uint32(b)
	w.add(name, at, b, show(v))
	return v, true
}

func (w *walker) u64(name string) (uint64, bool) {
	at := w.off
	b, ok := w.take(name, 8, false)
	if !ok {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(b)
	w.add(name, at, b, strconv.FormatUint(v, 10))
	return v, true
}

func (w *walker) u128(name string) {
	at := w.off
	if b, ok := w.take(name, 16, false); ok {
		u := codec.Uint128{Lo: binary.LittleEndian.Uint64(b), Hi: binary.LittleEndian.Uint64(b[8:])}
		w.add(name, at, b, u.String())
	}
}

// zeros records a reserved or padding area, which must be all zero.
func (w *walker) zeros(name string, n int) {
	at := w.off
	if b, ok := w.take(name, int64(n), false); ok {
		w.add(name, at, b, showZeros(b, at))
	}
}

// raw records n bytes shown as hex.
func (w *walker) raw(name string, n int) {
	at := w.off
	if b, ok := w.take(name, int64(n), false); ok {
		w.add(name, at, b, showHex(b))
	}
}

// text records n bytes of text, quoted.
func (w *walker) text(name string, n int64) {
	at := w.off
	if b, ok := w.take(name, n, false); ok {
		w.add(name, at, b, showText(b))
	}
}

// secret records n bytes of a password or token: their length only.
func (w *walker) secret(name string, n int64) {
	at := w.off
	if b, ok := w.take(name, n, true); ok {
		w.fields = append(w.fields, Field{Name: name, Offset: at, Size: len(b), Value: redaction(len(b)), Secret: true})
	}
}

// text8 records a u8 length and that many bytes of text.
func (w *walker) text8(lenName, name string) {
	if n, ok := w.u8(lenName, showDec8); ok {
		w.text(name, int64(n))
	}
}

// secret8 records a u8 length and that many secret bytes.
func (w *walker) secret8(lenName, name string) {
	if n, ok := w.u8(lenName, showDec8); ok {
		w.secret(name, int64(n))
	}
}

// text32 records a u32 length claim and that many bytes of text.
func (w *walker) text32(lenName, name string) {
	if n, ok := w.u32(lenName, showDec32); ok {
		w.text(name, int64(n))
	}
}

func redaction(n int) string { return fmt.Sprintf("[REDACTED] (%d bytes)", n) }

func showDec8(v uint8) string   { return strconv.FormatUint(uint64(v), 10) }
func showDec32(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// showVersion prints a packed version as "0.11.0 (0x00002c00)"; a value with
// the reserved bits set is a u32 on the wire but not a version.
func showVersion(v uint32) string {
	if !codec.Version(v).Valid() {
		return fmt.Sprintf("not a version: bits 31..30 set (0x%08x)", v)
	}
	return fmt.Sprintf("%s (0x%08x)", codec.Version(v), v)
}

func showText(b []byte) string {
	if len(b) <= textPreview {
		return strconv.Quote(string(b))
	}
	return strconv.Quote(string(b[:textPreview])) + fmt.Sprintf("... (%d bytes)", len(b))
}

func showHex(b []byte) string {
	if len(b) == 0 {
		return "(empty)"
	}
	if len(b) <= hexPreview {
		return hex.EncodeToString(b)
	}
	return hex.EncodeToString(b[:hexPreview]) + fmt.Sprintf("... (%d bytes)", len(b))
}

// showZeros says "zero" for a clean reserved area and points at the first
// offending byte otherwise.
func showZeros(b []byte, at int) string {
	for i, c := range b {
		if c != 0 {
			return fmt.Sprintf("NON-ZERO: byte %d is 0x%02x", at+i, c)
		}
	}
	return "zero"
}
