package fuzz

import (
	"encoding/binary"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// FuzzParseVersion feeds the input as version text to every text API, and
// its first 12 bytes as {min, max, v} to the window API.
func FuzzParseVersion(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, data []byte) {
		checkVersionText(t, string(data))
		if len(data) >= 12 {
			le := binary.LittleEndian
			w := codec.Window{Min: codec.Version(le.Uint32(data)), Max: codec.Version(le.Uint32(data[4:]))}
			v := codec.Version(le.Uint32(data[8:]))
			for _, x := range []codec.Version{w.Min, w.Max, v} {
				checkVersionValue(t, x)
			}
			checkWindow(t, w, v)
			checkPack(t, le.Uint32(data)%2048, le.Uint32(data[4:])%2048, le.Uint32(data[8:])%2048)
		}
	})
}

// checkVersionText: ParseVersion and UnmarshalText agree; a parsed version
// is valid and prints as text that parses back to it.
func checkVersionText(t *testing.T, s string) {
	v, err := codec.ParseVersion(s)
	var u codec.Version
	uerr := u.UnmarshalText([]byte(s))
	sameErr(t, "UnmarshalText", uerr, err)
	if panicked(func() { codec.MustParseVersion(s) }) != (err != nil) {
		t.Fatalf("MustParseVersion(%q) panics iff ParseVersion fails: err %v", s, err)
	}
	if err != nil {
		ce := checkErr(t, err, len(s))
		if ce.Err != codec.ErrSyntax && ce.Err != codec.ErrRange {
			t.Fatalf("ParseVersion(%q): %v is neither syntax nor range", s, err)
		}
		return
	}
	if u != v || !v.IsValid() {
		t.Fatalf("ParseVersion(%q) = %v, UnmarshalText = %v", s, v, u)
	}
	checkVersionValue(t, v)
}

// checkVersionValue: text round trip, the three text forms agree, and the
// components pack back to v.
func checkVersionValue(t *testing.T, v codec.Version) {
	s := v.String()
	if m, _ := v.MarshalText(); string(m) != s {
		t.Fatalf("MarshalText %q != String %q", m, s)
	}
	if a, _ := v.AppendText(append([]byte(nil), prefix...)); string(a) != string(prefix)+s {
		t.Fatalf("AppendText %q != prefix + %q", a, s)
	}
	back, err := codec.ParseVersion(s)
	if !v.IsValid() {
		if err == nil {
			t.Fatalf("invalid version %#x prints as %q, which parses", uint32(v), s)
		}
		return
	}
	if err != nil || back != v {
		t.Fatalf("ParseVersion(%q) = %v, %v; want %#x", s, back, err, uint32(v))
	}
	if p, err := codec.Pack(v.Major(), v.Minor(), v.Patch()); err != nil || p != v {
		t.Fatalf("Pack of %v = %v, %v", v, p, err)
	}
}

// checkWindow restates the accept rule of wire reference section 1.
func checkWindow(t *testing.T, w codec.Window, v codec.Version) {
	wellFormed := 1 <= w.Min && w.Min <= w.Max
	if w.IsValid() != wellFormed {
		t.Fatalf("%v.IsValid() = %v", w, w.IsValid())
	}
	want := wellFormed && v.IsValid() && v >= w.Min
	if want {
		if w.Max.Major() == 0 {
			want = uint32(v)>>10 <= uint32(w.Max)>>10
		} else {
			want = v.Major() == w.Max.Major()
		}
	}
	if got := w.Accepts(v); got != want {
		t.Fatalf("%v.Accepts(%#x) = %v, want %v", w, uint32(v), got, want)
	}
	d := codec.DefaultWindow(w.Max)
	if d.Max != w.Max || d.Min > d.Max || (d.IsValid() && w.Max.IsValid() && !d.Accepts(w.Max)) {
		t.Fatalf("DefaultWindow(%v) = %v", w.Max, d)
	}
}

// checkPack: Pack accepts exactly the components up to 1023, MustPack
// panics exactly when Pack fails, and the components come back out.
func checkPack(t *testing.T, major, minor, patch uint32) {
	v, err := codec.Pack(major, minor, patch)
	inRange := major <= 1023 && minor <= 1023 && patch <= 1023
	if panicked(func() { codec.MustPack(major, minor, patch) }) == inRange {
		t.Fatalf("MustPack(%d, %d, %d) panics iff out of range", major, minor, patch)
	}
	if !inRange {
		if ce := checkErr(t, err, 0); ce.Err != codec.ErrRange {
			t.Fatalf("Pack(%d, %d, %d) = %v, want ErrRange", major, minor, patch, err)
		}
		return
	}
	if err != nil || v.Major() != major || v.Minor() != minor || v.Patch() != patch {
		t.Fatalf("Pack(%d, %d, %d) = %v, %v", major, minor, patch, v, err)
	}
}

// panicked reports whether f panics.
func panicked(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}
