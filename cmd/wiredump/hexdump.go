package main

import (
	"fmt"
	"slices"
	"strings"
)

// hexDump layout: 16 bytes a line, decimal offsets like the field lines, an
// extra space after the eighth byte, then the printable bytes.
const (
	bytesPerLine = 16
	// fullDumpLines is how long an input is dumped whole; a longer one shows
	// its header, the lines around each mark and its last line.
	fullDumpLines = 64
	// context is how many lines around a marked line are shown.
	contextLines = 2
)

// hexDump renders src 16 bytes a line. Bytes inside blank are shown as ".."
// (and "." in the text column), so a secret never appears. Each offset in
// marks gets a "^^" under it on the next line; a mark at len(src) points
// just past the last byte, where a truncated field was expected. A run of
// lines equal to the one above is folded into one "*" line, as hexdump -C
// does, since headers are mostly zero.
func hexDump(src []byte, blank []span, marks []int) []string {
	last := (len(src) - 1) / bytesPerLine
	for _, m := range marks {
		last = max(last, m/bytesPerLine)
	}
	var out []string
	same, skipped := 0, 0
	flush := func() {
		if same > 0 {
			out = append(out, "     *  ("+lines(same)+" as above)")
		}
		if skipped > 0 {
			out = append(out, "     *  ("+lines(skipped)+" not shown)")
		}
		same, skipped = 0, 0
	}
	prev := ""
	for line := 0; line <= last; line++ {
		start := line * bytesPerLine
		if !showLine(line, last, marks) {
			if same > 0 {
				flush()
			}
			skipped, prev = skipped+1, ""
			continue
		}
		body, mark := dumpLine(src, blank, start), markLine(start, marks)
		if body == prev && mark == "" && line != last {
			same++
			continue
		}
		flush()
		out = append(out, fmt.Sprintf("%6d %s", start, body))
		if mark != "" {
			out = append(out, mark)
		}
		prev = body
	}
	return out
}

// showLine decides which lines of a long dump are kept: the 256-byte
// header, the neighbourhood of each mark and the last line.
func showLine(line, last int, marks []int) bool {
	if last < fullDumpLines || line < 16 || line == last {
		return true
	}
	return slices.ContainsFunc(marks, func(m int) bool {
		d := m/bytesPerLine - line
		return -contextLines <= d && d <= contextLines
	})
}

// cellColumn is the column of the first hex digit of byte i of a line.
func cellColumn(i int) int {
	col := 8 + 3*i
	if i >= 8 {
		col++
	}
	return col
}

func dumpLine(src []byte, blank []span, start int) string {
	var hexPart, text strings.Builder
	for i := range bytesPerLine {
		if i == 8 {
			hexPart.WriteByte(' ')
		}
		off := start + i
		switch {
		case off >= len(src):
			hexPart.WriteString("   ")
		case blanked(blank, off):
			hexPart.WriteString(" ..")
			text.WriteByte('.')
		default:
			// Two hex digits by hand: fmt per byte is most of a long dump.
			const digits = "0123456789abcdef"
			hexPart.WriteByte(' ')
			hexPart.WriteByte(digits[src[off]>>4])
			hexPart.WriteByte(digits[src[off]&0xf])
			text.WriteByte(printable(src[off]))
		}
	}
	return hexPart.String() + "  |" + text.String() + "|"
}

// markLine returns the "^^" line for the marks on the line starting at
// start, or "" when there are none.
func markLine(start int, marks []int) string {
	line := []byte(strings.Repeat(" ", cellColumn(bytesPerLine-1)+2))
	found := false
	for _, m := range marks {
		if i := m - start; 0 <= i && i < bytesPerLine {
			col := cellColumn(i)
			line[col], line[col+1] = '^', '^'
			found = true
		}
	}
	if !found {
		return ""
	}
	return strings.TrimRight(string(line), " ")
}

func printable(c byte) byte {
	if c < 0x20 || c > 0x7e {
		return '.'
	}
	return c
}

func lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
