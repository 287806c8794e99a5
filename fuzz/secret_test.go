package fuzz

import (
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/internal/leakcheck"
)

// FuzzSecretPrinting builds every type that holds a password or a token
// around a random secret and prints each in every way a program can; the
// secret's bytes must show nowhere. The secret is the input behind a fixed
// prefix, so that it never occurs in the printed text by chance.
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
	})
}
