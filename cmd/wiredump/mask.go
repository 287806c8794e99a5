package main

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
)

// Where secrets can be, before anything decodes.
//
// A reading that fails can still have read a password: -kind login_reply on
// a login body cut by one byte reads the last byte of sdk_version as a
// length and the username and password after it as server_version. So
// redacting what a successful reading calls a secret is not enough. A
// secret's place is known from the length fields that come before it, so
// wiredump first lays out every login shape (both revisions of both login
// bodies, and BIND_SESSION) from the lengths alone, at every offset where
// some reading takes a body to start (see round), whether or not the body
// decodes: a secret cut by the end of the input or of its frame runs to
// that end. The union is the
// mask, one table for the whole input, and it is applied before any
// reading runs:
//
//   - every reading, of every kind, reads a copy of the input in which each
//     masked byte is the filler byte, so that no verdict, offset, length or
//     value it prints is computed from a secret's bytes;
//   - every field over a masked byte prints [REDACTED n=N], header integers
//     included, and an error located in one says so without its offset.
//
// The mask itself reads no masked byte: a length or size field that lies
// in a byte another shape masks stands for any value, so the rest of that
// region is masked (secretMask computes the least table closed under that
// rule). The output is therefore the same for every value of the secrets'
// bytes, not only free of them; TestOutputIndependentOfSecrets holds it.
//
// Every body start is laid out in every shape of both revisions, whatever
// its version says. The version selects the layout a server reads (WIRE.md
// section 10.1), but not the layout a client wrote: upstream development
// builds send the bind-secret layout under version 0.11.0, and an SDK that
// forgot to bump its version does the same, so a 0.11.0 body may carry a
// bind secret right after its ClientVersionInfo, and a mask chosen by the
// version would leave it to be printed (as a chunk's flags, a step's
// action) or to steer a reading (as a username length). The cost is that
// a true 0.11.0 body is over-redacted: the 32 bytes after its prefix, and
// what the bind-secret shapes lay out from them, are masked too, so such
// a body shows its ClientVersionInfo and little else, like every body of
// 0.11.1, whose bind secret right after the ClientVersionInfo (login
// bodies) and 32 bytes later (BIND_SESSION) covers every byte after the
// prefix.

// filler is what every reading sees in place of a masked byte: printable
// ASCII, so that a password or token read as one still decodes as the
// UTF-8 it usually is, and so that a length read from one claims more
// than is there, as printable bytes read as a length do.
const filler = '~'

// A shape step: the fields of a body that place its secrets.
type step uint8

const (
	stepInfo     step = iota // protocol u32, sdk_name and sdk_version (u8 length, at least 1, UTF-8)
	stepText8                // a u8 length, at least 1, and as many bytes of UTF-8 (username)
	stepSecret8              // a u8 length and as many secret bytes (password, token)
	stepSecret32             // 32 secret bytes (bind secret)
	stepSkip32               // 32 bytes of other fields (BIND_SESSION's client_id, session, watermark)
)

// The login shapes: 0.11.0's two login bodies, then 0.11.1's two and
// BIND_SESSION.
var (
	shapesBase       = [][]step{{stepInfo, stepText8, stepSecret8}, {stepInfo, stepSecret8}}
	shapesBindSecret = [][]step{{stepInfo, stepSecret32, stepText8, stepSecret8}, {stepInfo, stepSecret32, stepSecret8},
		{stepInfo, stepSkip32, stepSecret32}}
)

// masker computes one round of the mask: the secret places of every body
// start, reading only bytes outside taint.
type masker struct {
	src       []byte
	taint     []bool // the previous round's mask: never read
	out       []bool
	byVersion bool  // -trust-version: a 0.11.0 body in 0.11.0's shapes alone
	labelled  []int // the body starts whose version, unmasked, is 0.11.0 (labelled0110)
}

// maskOf is the mask Dump applies: secretMask, which a test replaces with
// a broken one to show that FuzzNoLeak finds the leak.
var maskOf = secretMask

// secretMask returns, for each byte of src, whether some login shape puts
// a secret there (see the comment at the top of this file). It iterates
// one round from the previous round's mask until nothing is added; a
// round only adds, and a byte once masked is never read, so the result is
// the same whatever the masked bytes hold.
func secretMask(src []byte) []bool { return layMask(src, false) }

// versionMask is the mask of -trust-version: secretMask, except that a
// body whose version is 0.11.0 is laid out in 0.11.0's shapes alone, so
// that it decodes. A bind secret sent under 0.11.0 (an upstream
// development build) is then read as a username and a password's length,
// and can be printed: only for captures of released builds.
func versionMask(src []byte) []bool { return layMask(src, true) }

// layMask is secretMask, or versionMask when byVersion.
func layMask(src []byte, byVersion bool) []bool {
	taint := make([]bool, len(src))
	for {
		m := &masker{src: src, taint: taint, out: slices.Clone(taint), byVersion: byVersion}
		m.round()
		if slices.Equal(m.out, taint) {
			return taint
		}
		taint = m.out
	}
}

// round lays out the shapes at every offset a reading takes a body to
// start: the input's start (a body alone), offset 256 of each frame whose
// size field is a frame size (a frame's body: -kind frame, request, every
// and the frames of a stream; a frame whose size cannot be used has its
// body read by nobody), and offset 256 of each chunk of -kind conn and of
// each answer of -kind client (whose size the fuzz targets set).
func (m *masker) round() {
	n := len(m.src)
	m.body(0, n)
	// Frames delimited by their size fields (dumpFrame, dumpFrames).
	for off := 0; n-off >= codec.HeaderSize; {
		if m.tainted(off+48, off+52) {
			m.mark(off+48, n)
			break
		}
		size, err := codec.FrameSize(m.src[off:])
		if err != nil {
			break
		}
		m.body(off+codec.HeaderSize, min(off+size, n))
		off += size
	}
	// [flags u8][len u16][frame] chunks (dumpConn: the length at 1), and
	// the same after an [action u8] (dumpClient: the length at 2).
	for _, lenAt := range []int{1, 2} {
		for off := 0; n-off >= lenAt+2; {
			if m.tainted(off+lenAt, off+lenAt+2) {
				m.mark(off+lenAt, n)
				break
			}
			end := min(off+lenAt+2+int(binary.LittleEndian.Uint16(m.src[off+lenAt:])), n)
			m.body(off+lenAt+2+codec.HeaderSize, end)
			off = end
		}
	}
}

// allShapes are the shapes every body start is laid out in: both
// revisions, whatever the version says (see the top of this file).
var allShapes = append(slices.Clip(shapesBase), shapesBindSecret...)

// body lays out the shapes of a body at b, running to end at most. Only
// with -trust-version (m.byVersion) does a body whose version is 0.11.0
// get 0.11.0's shapes alone, as a released build writes it.
func (m *masker) body(b, end int) {
	if b >= end {
		return
	}
	shapes := allShapes
	if b+4 <= end && !m.tainted(b, b+4) && codec.Version(binary.LittleEndian.Uint32(m.src[b:])) == codec.Protocol0110 {
		if !slices.Contains(m.labelled, b) {
			m.labelled = append(m.labelled, b)
		}
		if m.byVersion {
			shapes = shapesBase
		}
	}
	for _, s := range shapes {
		m.walk(s, b, end)
	}
}

// walk lays out one shape from p, marking its secrets, and stops where the
// body cannot hold the rest (too short, a rule of the prefix broken).
func (m *masker) walk(shape []step, p, end int) {
	for _, st := range shape {
		if p >= end {
			return
		}
		switch st {
		case stepInfo:
			if p += 4; p > end {
				return
			}
			for range 2 {
				var ok bool
				if p, ok = m.text8(p, end); !ok {
					return
				}
			}
		case stepText8:
			var ok bool
			if p, ok = m.text8(p, end); !ok {
				return
			}
		case stepSecret8:
			n, ok := m.u8(p, end)
			if !ok {
				return
			}
			m.mark(p+1, min(p+1+n, end))
			p += 1 + n
		case stepSecret32:
			m.mark(p, min(p+codec.BindSecretLen, end))
			p += codec.BindSecretLen
		case stepSkip32:
			p += 32
		}
	}
}

// text8 steps over a u8 length of at least 1 and that many bytes of UTF-8,
// as the codec reads sdk_name, sdk_version and username. Bytes some shape
// masks may hold anything: their UTF-8 is not tested.
func (m *masker) text8(p, end int) (int, bool) {
	n, ok := m.u8(p, end)
	if !ok || n < 1 || p+1+n > end {
		return p, false
	}
	if !m.tainted(p+1, p+1+n) && !utf8.Valid(m.src[p+1:p+1+n]) {
		return p, false
	}
	return p + 1 + n, true
}

// u8 reads the length byte at p. One that is masked may hold any value,
// so the rest of the region is masked instead.
func (m *masker) u8(p, end int) (int, bool) {
	if p >= end {
		return 0, false
	}
	if m.taint[p] {
		m.mark(p, end)
		return 0, false
	}
	return int(m.src[p]), true
}

// tainted reports whether a byte of [from, to) is masked.
func (m *masker) tainted(from, to int) bool {
	from, to = max(from, 0), min(to, len(m.taint))
	return from < to && slices.Contains(m.taint[from:to], true)
}

func (m *masker) mark(from, to int) {
	for i := max(from, 0); i < min(to, len(m.out)); i++ {
		m.out[i] = true
	}
}

// labelled0110 returns the body starts of src whose version is 0.11.0,
// under mask: one more round from the mask, which adds nothing (it is a
// fixpoint) and reads no masked byte, so the starts and their version
// bytes say nothing of a secret.
func labelled0110(src []byte, mask []bool) []int {
	m := &masker{src: src, taint: mask, out: slices.Clone(mask)}
	m.round()
	slices.Sort(m.labelled)
	return m.labelled
}

// labelledNote is the note of a dump without -trust-version on bodies
// labelled 0.11.0 (at their offsets), or "".
func labelledNote(starts []int) string {
	if len(starts) == 0 {
		return ""
	}
	var at []string
	for _, b := range starts {
		at = append(at, fmt.Sprint(b))
	}
	return "the body at offset " + strings.Join(at, ", ") + " says version 0.11.0, and is masked in the 0.11.1 layout too: " +
		"upstream development builds send a bind secret under 0.11.0, and a version cannot tell them apart from a released " +
		"build; -trust-version reads a 0.11.0 body in the 0.11.0 layout alone, for captures of released builds only"
}

// maskedByte is what a title says of a byte it would print that is
// masked: the value it has in the masked copy is the filler's.
const maskedByte = "in bytes that may hold a secret (read as filler)"

// masked returns src with every masked byte replaced by the filler.
func masked(src []byte, mask []bool) []byte {
	out := slices.Clone(src)
	for i, m := range mask {
		if m {
			out[i] = filler
		}
	}
	return out
}

// maskRuns returns the masked runs as [start, end) pairs.
func maskRuns(mask []bool) [][2]int {
	var runs [][2]int
	for i := 0; i < len(mask); i++ {
		if mask[i] {
			j := i
			for j < len(mask) && mask[j] {
				j++
			}
			runs = append(runs, [2]int{i, j})
			i = j
		}
	}
	return runs
}

// maskNote says which bytes are masked, by offset only.
func maskNote(mask []bool) string {
	runs := maskRuns(mask)
	if len(runs) == 0 {
		return ""
	}
	const shown = 4
	var parts []string
	total := 0
	for i, r := range runs {
		total += r[1] - r[0]
		if i < shown {
			parts = append(parts, fmt.Sprintf("%d..%d", r[0], r[1]))
		}
	}
	if len(runs) > shown {
		parts = append(parts, fmt.Sprintf("and %d more runs", len(runs)-shown))
	}
	return fmt.Sprintf("%d bytes (offsets %s) may hold a password, token or bind secret in some login shape: "+
		"every reading below reads them as %q filler bytes, so a field over them prints [REDACTED n=N] and "+
		"a rule their own bytes would break (UTF-8, a length) is not checked", total, strings.Join(parts, ", "), string(rune(filler)))
}
