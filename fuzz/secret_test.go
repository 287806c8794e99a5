package fuzz

import (
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/internal/leakcheck"
	"github.com/iggywire/iggywire/internal/leakcheck/reflectprint"
)

// FuzzSecretPrinting builds every type that holds a password or a token
// around a random secret and prints each in every way a program can; the
// secret's bytes must show nowhere. The secret is the input behind a fixed
// prefix, so that it never occurs in the printed text by chance.
//
// It also prints a sample of those values (reflectprint.FuzzHolders: every
// way to reach a Secret, for a fraction of the cost of all of them) through
// the third-party printers that walk unexported fields and follow pointers
// (go-spew, kr/pretty, go-cmp, testify's assert.Equal message); the unit
// tests of reflectprint print all of them.
func FuzzSecretPrinting(f *testing.F) {
	f.Add([]byte("hunter2"))
	f.Add([]byte("ü\x00\x7f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		secret := append([]byte("\x01pw:"), data...)
		if len(secret) > 255 || !utf8.Valid(secret) {
			return
		}
		where, err := leakcheck.Leak(secret)
		if err != nil {
			t.Fatal(err)
		}
		if where != "" {
			t.Fatal(where)
		}
		where, err = reflectprint.Leak(secret, reflectprint.FuzzHolders...)
		if err != nil {
			t.Fatal(err)
		}
		if where != "" {
			t.Fatal(where)
		}
	})
}
