package main

import (
	"strings"
	"testing"
)

func seq(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// markColumn returns the offset a "^^" line under the dump line for start
// points at, or -1.
func markColumn(line string, start int) int {
	i := strings.Index(line, "^^")
	for b := range bytesPerLine {
		if cellColumn(b) == i {
			return start + b
		}
	}
	return -1
}

func TestHexDumpMarksTheOffendingByte(t *testing.T) {
	src := seq(40)
	for _, mark := range []int{0, 7, 8, 15, 16, 39, 40} {
		lines := hexDump(src, nil, []int{mark})
		found := false
		for i, l := range lines {
			if !strings.Contains(l, "^^") {
				continue
			}
			start := (mark / bytesPerLine) * bytesPerLine
			if got := markColumn(l, start); got != mark {
				t.Errorf("mark %d: ^^ under offset %d\n%s", mark, got, strings.Join(lines, "\n"))
			}
			if mark < len(src) && !strings.HasPrefix(lines[i-1][cellColumn(mark%16):], hex2(src[mark])) {
				t.Errorf("mark %d: line above is %q", mark, lines[i-1])
			}
			found = true
		}
		if !found {
			t.Errorf("mark %d: no ^^ line", mark)
		}
	}
}

func hex2(b byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[b>>4], digits[b&0xf]})
}

func TestHexDumpBlanksSecrets(t *testing.T) {
	src := []byte("user:hunter2!")
	lines := hexDump(src, []span{{5, 12}}, nil)
	if len(lines) != 1 {
		t.Fatalf("lines = %q", lines)
	}
	want := "     0  75 73 65 72 3a .. .. ..  .. .. .. .. 21           |user:.......!|"
	if lines[0] != want {
		t.Errorf("got  %q\nwant %q", lines[0], want)
	}
}

func TestHexDumpFoldsRepeatedLines(t *testing.T) {
	src := make([]byte, 80)
	src[79] = 1
	lines := hexDump(src, nil, nil)
	want := []string{
		"     0  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |................|",
		"     *  (3 lines as above)",
		"    64  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 01  |................|",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// A marked line is never folded away.
	lines = hexDump(src, nil, []int{33})
	if markColumn(lines[3], 32) != 33 {
		t.Errorf("got\n%s", strings.Join(lines, "\n"))
	}
}

func TestHexDumpLongInputKeepsHeaderMarksAndEnd(t *testing.T) {
	src := seq(4096)
	lines := hexDump(src, nil, []int{2000})
	joined := strings.Join(lines, "\n")
	for _, want := range []string{"   240  f0", "  1968  b0", "  2000  d0", "  2032  f0", "  4080  f0", "not shown"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "  1024  ") || len(lines) > 40 {
		t.Errorf("long dump not elided: %d lines", len(lines))
	}
}

func TestHexDumpEmpty(t *testing.T) {
	lines := hexDump(nil, nil, []int{0})
	if len(lines) != 2 || markColumn(lines[1], 0) != 0 {
		t.Errorf("lines = %q", lines)
	}
}
