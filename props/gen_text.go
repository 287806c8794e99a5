package props

import (
	"unicode/utf8"

	"github.com/leanovate/gopter"
)

// MaxText8 is the longest text a u8 length prefix can carry.
const MaxText8 = 255

// SecretMarker is a rune every generated marked secret contains and no other
// generated text ever does: U+10FFFD, bytes F4 8F BF BD. Text fields other
// than secrets are drawn from alphabets without it, so a marked secret's
// bytes (or their hex) can appear in printed output or an error only if
// something leaked them.
const SecretMarker = '\U0010FFFD'

// runeClass is one of the UTF-8 encoded widths, with the edge code points of
// that width.
type runeClass struct {
	lo, hi rune
	edges  []rune
}

// The four UTF-8 widths. Surrogates (U+D800..U+DFFF) are not runes and are
// skipped; U+10FFFD is left to secrets.
var runeClasses = [4]runeClass{
	{0x00, 0x7F, []rune{0x00, 0x01, 0x1F, ' ', 'a', 'z', '~', 0x7F}},
	{0x80, 0x7FF, []rune{0x80, 0xBF, 0xC0, 0xFF, 0x100, 0x7FF}},
	{0x800, 0xFFFF, []rune{0x800, 0xFFF, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF}},
	{0x10000, 0x10FFFC, []rune{0x10000, 0x1F600, 0x10FFFC}},
}

// genRune draws one rune of a width in [1, 4] (index 0..3).
func genRune(p *gopter.GenParameters, width int) rune {
	c := runeClasses[width]
	if p.NextBool() {
		return c.edges[p.Rng.Intn(len(c.edges))]
	}
	for {
		r := c.lo + rune(p.Rng.Int63n(int64(c.hi-c.lo+1)))
		if r < 0xD800 || r > 0xDFFF {
			return r
		}
	}
}

// textMix says which widths a text is drawn from.
type textMix int

const (
	mixASCII textMix = iota // printable ASCII only: the common case
	mixAll                  // every width, evenly
	mixWide                 // mostly 3- and 4-byte runes, so the limit cuts them
	mixCount
)

func (m textMix) width(p *gopter.GenParameters) int {
	switch m {
	case mixASCII:
		return 0
	case mixWide:
		return 2 + p.Rng.Intn(2)
	}
	return p.Rng.Intn(4)
}

// targetLen picks a length in [minLen, maxLen], favouring the edges: the
// minimum, 1, the maximum and just under it.
func targetLen(p *gopter.GenParameters, minLen, maxLen int) int {
	small := min(maxLen, 12)
	switch p.Rng.Intn(6) {
	case 0:
		return minLen
	case 1:
		return max(minLen, 1)
	case 2:
		return maxLen
	case 3:
		return max(minLen, maxLen-p.Rng.Intn(6))
	case 4:
		return minLen + p.Rng.Intn(max(small-minLen, 0)+1)
	}
	return minLen + p.Rng.Intn(maxLen-minLen+1)
}

// fillText appends runes of mix until the text is n bytes long. When a rune
// would cross n, cut decides: either the text stops short at the last whole
// rune (the way a client truncates to the limit), or it is padded to exactly
// n with ASCII. The result is valid UTF-8 of at most n bytes.
func fillText(p *gopter.GenParameters, n int, mix textMix, cut bool) []byte {
	b := make([]byte, 0, n)
	for len(b) < n {
		r := genRune(p, mix.width(p))
		if len(b)+utf8.RuneLen(r) > n {
			if cut {
				break
			}
			r = 'a' + rune(p.Rng.Intn(26))
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

// GenText generates UTF-8 text of minLen..maxLen bytes (nil when empty),
// reaching the edges on purpose: lengths minLen, 1, maxLen and just under
// it, 1- to 4-byte runes, and texts whose last rune did not fit the limit
// and was dropped. It never contains SecretMarker. It shrinks towards a
// single 'a' (or nothing, when minLen is 0), keeping every candidate valid
// UTF-8 within the bounds.
func GenText(minLen, maxLen int) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		n := targetLen(p, minLen, maxLen)
		b := fillText(p, n, textMix(p.Rng.Intn(int(mixCount))), p.NextBool())
		if len(b) < minLen { // a cut can leave fewer bytes than the minimum
			b = append(b, "aaaa"[:minLen-len(b)]...)
		}
		return gopter.NewGenResult(nilIfEmpty(b), textShrinker(minLen))
	}
}

// GenContext generates a login context: absent (nil) half the time, else
// short, or long enough that its u32 length uses more than one byte.
func GenContext() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		var b []byte
		switch p.Rng.Intn(4) {
		case 0:
			b = fillText(p, 1+p.Rng.Intn(24), textMix(p.Rng.Intn(int(mixCount))), true)
		case 1:
			b = fillText(p, 256+p.Rng.Intn(1800), textMix(p.Rng.Intn(int(mixCount))), true)
		}
		return gopter.NewGenResult(nilIfEmpty(b), textShrinker(0))
	}
}

// GenSecret generates a password or token of 0..255 bytes like GenText.
func GenSecret() gopter.Gen { return GenText(0, MaxText8) }

// GenMarkedSecret generates a secret of 4..255 bytes that contains
// SecretMarker at a random rune boundary. Its shrinker keeps the marker.
func GenMarkedSecret() gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		n := targetLen(p, 0, MaxText8-utf8.UTFMax)
		b := fillText(p, n, textMix(p.Rng.Intn(int(mixCount))), p.NextBool())
		at := runeBoundary(b, p.Rng.Intn(len(b)+1))
		out := append(append(append([]byte{}, b[:at]...), string(SecretMarker)...), b[at:]...)
		return gopter.NewGenResult(out, markedShrinker)
	}
}

// runeBoundary returns the largest rune boundary of b at or before i.
func runeBoundary(b []byte, i int) int {
	for i > 0 && i < len(b) && !utf8.RuneStart(b[i]) {
		i--
	}
	return i
}

func nilIfEmpty(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// textShrinker proposes, smallest first: the shortest text allowed ("" or
// "a"), the first rune alone, the first half, the last rune alone, the text
// without its first rune, without its last rune, and with its first
// non-ASCII rune replaced by 'a'. Every candidate is
// valid UTF-8 of at least minLen bytes and no longer than the original.
func textShrinker(minLen int) gopter.Shrinker {
	return func(v interface{}) gopter.Shrink {
		b := v.([]byte)
		var out [][]byte
		add := func(c []byte) {
			if len(c) >= minLen && len(c) <= len(b) && string(c) != string(b) {
				out = append(out, nilIfEmpty(c))
			}
		}
		add([]byte("a")[:minLen])
		if len(b) > 0 {
			_, size := utf8.DecodeRune(b)
			add(b[:size:size])
			add(append([]byte{}, b[:runeBoundary(b, len(b)/2)]...))
			_, last := utf8.DecodeLastRune(b)
			add(b[len(b)-last:])
			add(append([]byte{}, b[size:]...))
			add(append([]byte{}, b[:len(b)-last]...))
			add(asciify(b))
		}
		return shrinkList(out)
	}
}

// asciify replaces the first rune wider than one byte by 'a'.
func asciify(b []byte) []byte {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if size > 1 && r != SecretMarker {
			return append(append(append([]byte{}, b[:i]...), 'a'), b[i+size:]...)
		}
		i += size
	}
	return b
}

// markedShrinker shrinks a marked secret to the marker plus as few other
// runes as possible, keeping at least 4 bytes and the marker.
func markedShrinker(v interface{}) gopter.Shrink {
	b := v.([]byte)
	var out [][]byte
	add := func(c []byte) {
		if len(c) >= 4 && len(c) < len(b) && containsMarker(c) {
			out = append(out, c)
		}
	}
	add([]byte(string(SecretMarker)))
	_, first := utf8.DecodeRune(b)
	add(append([]byte{}, b[first:]...))
	_, last := utf8.DecodeLastRune(b)
	add(append([]byte{}, b[:len(b)-last]...))
	if a := asciify(b); len(a) < len(b) {
		out = append(out, a)
	}
	return shrinkList(out)
}

func containsMarker(b []byte) bool {
	for _, r := range string(b) {
		if r == SecretMarker {
			return true
		}
	}
	return false
}
