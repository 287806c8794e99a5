package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// fuzzHeader is the first line of a corpus file written by go test -fuzz.
const fuzzHeader = "go test fuzz v1"

// errInput is the class of every input that cannot be turned into bytes:
// a usage error, not a decode error.
var errInput = errors.New("bad input")

// decodeInput returns the bytes a file or stdin stands for: the value of a
// "go test fuzz v1" file, or the raw content otherwise. isFuzz says which.
func decodeInput(content []byte) (b []byte, isFuzz bool, err error) {
	first, rest, _ := bytes.Cut(content, []byte("\n"))
	if string(bytes.TrimRight(first, "\r")) != fuzzHeader {
		return content, false, nil
	}
	b, err = parseFuzzValue(string(rest))
	return b, true, err
}

// parseFuzzValue reads the single value of a go test fuzz v1 file: one line
// []byte("...") or string("...") in Go syntax, decoded with
// strconv.Unquote. Blank lines and comment lines are skipped, as the go
// command does. A file with several values is not a wiredump input: every
// fuzz target here takes one []byte or string.
func parseFuzzValue(body string) ([]byte, error) {
	var values []string
	for line := range strings.SplitSeq(body, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		values = append(values, line)
	}
	if len(values) != 1 {
		return nil, fmt.Errorf("%w: %s file holds %d values, want 1", errInput, fuzzHeader, len(values))
	}
	v := values[0]
	for _, prefix := range []string{"[]byte(", "string("} {
		quoted, ok := strings.CutPrefix(v, prefix)
		if !ok {
			continue
		}
		quoted, ok = strings.CutSuffix(quoted, ")")
		if !ok {
			break
		}
		s, err := strconv.Unquote(quoted)
		if err != nil {
			return nil, fmt.Errorf("%w: %s value: %v", errInput, fuzzHeader, err)
		}
		return []byte(s), nil
	}
	return nil, fmt.Errorf("%w: %s value is not []byte(\"...\") or string(\"...\")", errInput, fuzzHeader)
}

// parseHex reads hex digits separated by any mix of spaces, tabs, newlines,
// colons and commas; each group may start with 0x or 0X. A group must hold
// whole bytes, so a typo cannot silently shift every byte after it.
func parseHex(s string) ([]byte, error) {
	groups := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ':' || r == ','
	})
	var out []byte
	for i, g := range groups {
		if rest, ok := strings.CutPrefix(g, "0x"); ok {
			g = rest
		} else if rest, ok := strings.CutPrefix(g, "0X"); ok {
			g = rest
		}
		b, err := hex.DecodeString(g)
		if err == nil && len(b) == 0 {
			err = errors.New("0x with no digits")
		}
		if err != nil {
			return nil, fmt.Errorf("%w: -hex group %d (%d digits): %v", errInput, i+1, len(g), err)
		}
		out = append(out, b...)
	}
	return out, nil
}
