package main

import (
	"bytes"
	"errors"
	"testing"
)

func TestParseHex(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []byte
	}{
		{"", nil},
		{"00 2c", []byte{0x00, 0x2c}},
		{"0x00 0x2C", []byte{0x00, 0x2c}},
		{"0X0a,0x0b", []byte{0x0a, 0x0b}},
		{"de:ad:be:ef", []byte{0xde, 0xad, 0xbe, 0xef}},
		{"dead\nbeef\r\n\t01", []byte{0xde, 0xad, 0xbe, 0xef, 0x01}},
		{"0xdeadbeef", []byte{0xde, 0xad, 0xbe, 0xef}},
	} {
		got, err := parseHex(tc.in)
		if err != nil || !bytes.Equal(got, tc.want) {
			t.Errorf("parseHex(%q) = %x, %v; want %x", tc.in, got, err, tc.want)
		}
	}
}

func TestParseHexRejects(t *testing.T) {
	// An odd group would shift every later byte, so it is refused rather
	// than padded.
	for _, in := range []string{"0", "012", "0x1 02", "zz", "0x", "01 0xg0", "0x0x01"} {
		if _, err := parseHex(in); !errors.Is(err, errInput) {
			t.Errorf("parseHex(%q) error = %v, want errInput", in, err)
		}
	}
}

func TestDecodeInputFuzzFile(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []byte
	}{
		{"bytes", "go test fuzz v1\n[]byte(\"\\x00\\x01abc\\xff\")\n", []byte{0, 1, 'a', 'b', 'c', 0xff}},
		{"string", "go test fuzz v1\nstring(\"0.11.0\")\n", []byte("0.11.0")},
		{"crlf and blank lines", "go test fuzz v1\r\n\r\n[]byte(\"\\n\")\r\n", []byte("\n")},
		{"raw string", "go test fuzz v1\n[]byte(`a\\b`)\n", []byte(`a\b`)},
		{"empty", "go test fuzz v1\n[]byte(\"\")", []byte{}},
	} {
		got, isFuzz, err := decodeInput([]byte(tc.in))
		if err != nil || !isFuzz || !bytes.Equal(got, tc.want) {
			t.Errorf("%s: decodeInput = %x, %v, %v; want %x, true, nil", tc.name, got, isFuzz, err, tc.want)
		}
	}
}

func TestDecodeInputRaw(t *testing.T) {
	// Anything without the exact first line is raw bytes, kept as they are.
	for _, in := range []string{"", "go test fuzz v2\n[]byte(\"\")", " go test fuzz v1\n", "\x00\x01"} {
		got, isFuzz, err := decodeInput([]byte(in))
		if err != nil || isFuzz || !bytes.Equal(got, []byte(in)) {
			t.Errorf("decodeInput(%q) = %q, %v, %v; want the input as is", in, got, isFuzz, err)
		}
	}
}

func TestDecodeInputBadFuzzFile(t *testing.T) {
	for _, in := range []string{
		"go test fuzz v1\n",
		"go test fuzz v1\n[]byte(\"a\")\n[]byte(\"b\")\n",
		"go test fuzz v1\nint(5)\n",
		"go test fuzz v1\n[]byte(\"unterminated)\n",
		"go test fuzz v1\n[]byte(\"a\"\n",
	} {
		_, isFuzz, err := decodeInput([]byte(in))
		if !isFuzz || !errors.Is(err, errInput) {
			t.Errorf("decodeInput(%q) = %v, %v; want true, errInput", in, isFuzz, err)
		}
	}
}
