package codec_test

import (
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestErrorText checks the format of *Error and that it unwraps to its
// sentinel.
func TestErrorText(t *testing.T) {
	_, err := codec.ParseClientVersionInfo(hx("00 2c 00 00 | 02 61 ff | 01 31"))
	eq(t, "codec: sdk_name at offset 6: valid UTF-8 (invalid UTF-8)", err.Error(), "Error")
	ce := codecError(t, err)
	eq(t, codec.ErrUTF8, ce.Unwrap(), "Unwrap")
	eq(t, codec.ErrUTF8, errors.Unwrap(err), "errors.Unwrap")
}

// TestSentinelsDistinct: no sentinel matches another, so "exactly one"
// in codecError means something.
func TestSentinelsDistinct(t *testing.T) {
	seen := map[string]bool{}
	for i, a := range sentinels {
		if seen[a.Error()] {
			t.Errorf("two sentinels read %q", a.Error())
		}
		seen[a.Error()] = true
		for j, b := range sentinels {
			eq(t, i == j, errors.Is(a, b), a.Error()+" is "+b.Error())
		}
	}
	eq(t, 12, len(sentinels), "sentinel count")
}
