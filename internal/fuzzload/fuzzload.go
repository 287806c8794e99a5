// Package fuzzload is the one reader of checked-in fuzz inputs: it reads
// corpus/<Target>/ and crashers/<Target>/, and fuzz/ hands every file to
// (*testing.F).Add, so that a plain `go test ./fuzz/...` replays the whole
// corpus and every crasher as regression tests.
//
// Files are raw bytes, exactly as they travel on the wire, so that libFuzzer
// and a person with xxd can read them too. The libFuzzer build of the
// targets hands its input to a target's body as it is (fuzz/
// engine_libfuzzer_test.go), so a crash-<sha1> file libFuzzer writes, and
// a testcase ClusterFuzzLite or OSS-Fuzz offers for download (the same
// bytes, named clusterfuzz-testcase-...), is such a file: saved under
// crashers/<Target>/ as it is, it replays with no editing. Files in Go's
// own corpus encoding ("go test fuzz v1" followed by one []byte("...")
// line, as Go writes under testdata/fuzz and in its fuzz cache) are
// accepted as well and decoded to their bytes. A raw input that happens
// to start with the v1 header line is therefore read as a v1 file; fuzzrun
// never writes such a file raw.
package fuzzload

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Header is the first line of a file in Go's corpus encoding.
const Header = "go test fuzz v1"

// Directories under the module root that hold inputs, one subdirectory per
// fuzz target.
const (
	CorpusDir   = "corpus"
	CrashersDir = "crashers"
)

// FormatError says why a file that starts with Header is not a single
// []byte value. Line is 1-based.
type FormatError struct {
	Line   int
	Reason string
}

// Error returns "fuzzload: line N: REASON".
func (e *FormatError) Error() string {
	return "fuzzload: line " + strconv.Itoa(e.Line) + ": " + e.Reason
}

// Decode returns the input bytes a file holds: the file itself when it is
// raw, or the single []byte value of a "go test fuzz v1" file. Like Go's own
// decoder it tolerates a trailing '\r' on the header, blank lines and
// surrounding spaces, and unquotes the literal with strconv.Unquote (so both
// "..." with escapes and `...` are accepted). Any other value type, or more
// than one value, is a *FormatError: every target here takes one []byte.
func Decode(file []byte) ([]byte, error) {
	first, rest, found := bytes.Cut(file, []byte("\n"))
	if strings.TrimSuffix(string(first), "\r") != Header {
		return file, nil
	}
	value, at := "", 0 // the value's line and its number
	for i, line := range strings.Split(string(rest), "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if at > 0 {
			return nil, &FormatError{Line: i + 2, Reason: "more than one value"}
		}
		value, at = line, i+2
	}
	lit, isBytes := strings.CutPrefix(value, "[]byte(")
	lit, closed := strings.CutSuffix(lit, ")")
	lit = strings.TrimSpace(lit)
	v, err := strconv.Unquote(lit)
	switch {
	case at == 0 && !found:
		return nil, &FormatError{Line: 1, Reason: "no value after the header"}
	case at == 0:
		return nil, &FormatError{Line: 2, Reason: "no value after the header"}
	case !isBytes || !closed:
		return nil, &FormatError{Line: at, Reason: `want []byte("...")`}
	case strings.HasPrefix(lit, "'"):
		return nil, &FormatError{Line: at, Reason: "want a string literal, not a rune"}
	case err != nil:
		return nil, &FormatError{Line: at, Reason: "literal: " + err.Error()}
	}
	return []byte(v), nil
}

// Encode returns data in Go's corpus encoding, the form Go itself writes,
// so that `go test -run=FuzzX/NAME` can replay a file placed under
// testdata/fuzz/FuzzX/.
func Encode(data []byte) []byte {
	return fmt.Appendf([]byte(Header+"\n"), "[]byte(%q)\n", data)
}

// Input is one decoded file.
type Input struct {
	Path string // the file the bytes came from
	Data []byte // the input as the fuzz target sees it
}

// ReadDir decodes every input file of dirs, dir after dir, each sorted by
// name (as os.ReadDir returns them). A missing dir holds no inputs.
// Subdirectories, dot files and Markdown notes are skipped.
func ReadDir(dirs ...string) ([]Input, error) {
	var out []Input
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() || strings.HasPrefix(e.Name(), ".") || strings.HasSuffix(e.Name(), ".md") {
				continue
			}
			in, err := ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			out = append(out, in)
		}
	}
	return out, nil
}

// ReadFile reads and decodes one input file.
func ReadFile(path string) (Input, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Input{}, err
	}
	data, err := Decode(b)
	if err != nil {
		return Input{}, fmt.Errorf("%s: %w", path, err)
	}
	return Input{Path: path, Data: data}, nil
}

// Target returns every input of target under root: corpus/<target>/ then
// crashers/<target>/, each sorted by name.
func Target(root, target string) ([]Input, error) {
	return ReadDir(filepath.Join(root, CorpusDir, target), filepath.Join(root, CrashersDir, target))
}
