package codec_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// byteFields returns every []byte-kinded field of v (Secret included),
// walking nested structs, with its path.
func byteFields(v reflect.Value, path string, out map[string][]byte) {
	for i := range v.NumField() {
		f, name := v.Field(i), path+v.Type().Field(i).Name
		switch {
		case f.Kind() == reflect.Struct:
			byteFields(f, name+".", out)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Uint8:
			out[name] = f.Bytes()
		}
	}
}

func fieldsOf(v any) map[string][]byte {
	out := map[string][]byte{}
	byteFields(reflect.ValueOf(v), "", out)
	return out
}

// checkAliasing decodes wire and checks the documented memory contract:
// byte fields alias the input with cap == len (so an append cannot reach
// the next field), empty fields are nil, and Clone shares nothing with the
// input.
func checkAliasing[T interface{ Clone() T }](t *testing.T, wire []byte, want T, decode func([]byte) (T, int, error)) {
	t.Helper()
	src := append([]byte{}, wire...)
	v, _, err := decode(src)
	if err != nil {
		t.Fatalf("decode(%x): err = %v", wire, err)
	}
	clone := v.Clone()
	if !sameValue(clone, want) {
		t.Fatalf("clone = %+v, want %+v", clone, want)
	}
	for name, f := range fieldsOf(v) {
		if len(f) == 0 {
			if f != nil {
				t.Fatalf("%s = %#v, want nil when empty", name, f)
			}
			continue
		}
		if cap(f) != len(f) {
			t.Fatalf("%s capacity = %d, want its length %d", name, cap(f), len(f))
		}
		before := append([]byte{}, src...)
		_ = append(f, 0xEE) // must copy, not write into src
		if !bytes.Equal(src, before) {
			t.Fatalf("input after appending to %s = %x, want %x", name, src, before)
		}
	}
	for name, f := range fieldsOf(clone) {
		if len(f) == 0 && f != nil {
			t.Fatalf("clone's %s = %#v, want nil when empty", name, f)
		}
	}
	for i := range src {
		src[i] ^= 0xFF
	}
	if !sameValue(clone, want) {
		t.Fatalf("clone after the input changed = %+v, want %+v", clone, want)
	}
	if sameValue(want, v) {
		t.Fatalf("decoded value did not change with its input: it does not alias it")
	}
}

// TestAliasingAndClone runs checkAliasing on every body golden.
func TestAliasingAndClone(t *testing.T) {
	for i, c := range []func(*testing.T){
		func(t *testing.T) { checkAliasing(t, hx(infoLongHex), infoLong, codec.DecodeClientVersionInfo) },
		func(t *testing.T) { checkAliasing(t, hx(loginUTF8Hex), loginUTF8, codec.DecodeLoginRegister) },
		func(t *testing.T) { checkAliasing(t, hx(loginLongHex), loginLong, codec.DecodeLoginRegister) },
		func(t *testing.T) { checkAliasing(t, hx(patTokHex), patTok, codec.DecodeLoginRegisterPAT) },
		func(t *testing.T) { checkAliasing(t, hx(patEmptyHex), patEmpty, codec.DecodeLoginRegisterPAT) },
		func(t *testing.T) { checkAliasing(t, hx(replyBodyUTF8Hex), replyBodyUTF8, codec.DecodeLoginReply) },
	} {
		t.Run(fmt.Sprint(i), c)
	}
}

// TestCloneOfBuiltValue: a clone of a value built in memory shares nothing
// with it, and empty (non-nil) fields become nil.
func TestCloneOfBuiltValue(t *testing.T) {
	l := codec.LoginRegister{
		Info:     codec.ClientVersionInfo{SDKName: []byte("go"), SDKVersion: []byte{}},
		Username: []byte("u"), Password: codec.NewSecret([]byte("p")), Context: []byte("c"),
	}
	c := l.Clone()
	c.Info.SDKName[0], c.Username[0], c.Password.Bytes()[0], c.Context[0] = 'X', 'X', 'X', 'X'
	if got, want := fmt.Sprintf("%s %s %s %s", l.Info.SDKName, l.Username, l.Password.Bytes(), l.Context), "go u p c"; got != want {
		t.Fatalf("original after editing its clone = %q, want %q", got, want)
	}
	if c.Info.SDKVersion != nil {
		t.Fatalf("empty field of a clone = %#v, want nil", c.Info.SDKVersion)
	}

	p := codec.LoginRegisterPAT{Token: codec.NewSecret([]byte("t"))}
	pc := p.Clone()
	pc.Token.Bytes()[0] = 'X'
	if got := string(p.Token.Bytes()); got != "t" {
		t.Fatalf("token of the original = %q, want %q", got, "t")
	}

	r := codec.LoginReply{Session: 1, ServerVersion: []byte("v")}
	rc := r.Clone()
	rc.ServerVersion[0] = 'X'
	if got := string(r.ServerVersion); got != "v" {
		t.Fatalf("server version of the original = %q, want %q", got, "v")
	}
}
