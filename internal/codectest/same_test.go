package codectest

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestSame: Secrets compare by their bytes at any depth, everything else
// as reflect.DeepEqual does (nil and empty slices differ).
func TestSame(t *testing.T) {
	body := func(pw string, ctx []byte) codec.LoginRegister {
		return codec.LoginRegister{Username: []byte("u"), Password: codec.NewSecret([]byte(pw)), Context: ctx}
	}
	type wrap struct {
		B codec.LoginRegister
		N int
	}
	cases := []struct {
		name string
		a, b any
		want bool
	}{
		{"same bytes, other memory", body("pw", nil), body("pw", nil), true},
		{"other password, same length and first byte", body("pa", nil), body("pb", nil), false},
		{"nested", wrap{body("pw", nil), 1}, wrap{body("pw", nil), 1}, true},
		{"nested, other password", wrap{body("pw", nil), 1}, wrap{body("px", nil), 1}, false},
		{"nil and empty context", body("pw", nil), body("pw", []byte{}), false},
		{"other types", body("pw", nil), codec.LoginRegisterPAT{}, false},
		{"slice of bodies", []codec.LoginRegister{body("pw", nil)}, []codec.LoginRegister{body("pw", nil)}, true},
		{"slice of bodies, other password", []codec.LoginRegister{body("pw", nil)}, []codec.LoginRegister{body("pa", nil)}, false},
		{"plain values", 1, 1, true},
		{"nil", nil, nil, true},
	}
	for _, tc := range cases {
		if got := Same(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Same = %t, want %t", tc.name, got, tc.want)
		}
	}
}
