package codec_test

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

const secretText = "hunter2-s3cr3t"

// leaks reports the first printed form of secretText found in s: the text,
// either half, hex (plain, spaced, upper), decimal bytes, Go byte syntax
// and base64.
func leaks(s string) string {
	h := hex.EncodeToString([]byte(secretText))
	forms := []string{
		secretText, "hunter2", "s3cr3t", h, strings.ToUpper(h),
		"68 75 6e 74", "68 75 6E 74", "104 117 110 116", "0x68, 0x75", "0x68,0x75",
		base64.StdEncoding.EncodeToString([]byte(secretText)), "aHVudGVy",
	}
	for _, f := range forms {
		if strings.Contains(s, f) {
			return f
		}
	}
	return ""
}

// checkNoLeak asserts that s, the output of what, holds no printed form of
// the secret.
func checkNoLeak(t *testing.T, what, s string) {
	t.Helper()
	if f := leaks(s); f != "" {
		t.Errorf("%s leaks the secret (%q) in %s", what, f, s)
	}
}

// TestSecretNeverPrints formats a Secret, and both login bodies by value
// and by pointer, with every verb.
func TestSecretNeverPrints(t *testing.T) {
	sec := codec.NewSecret([]byte(secretText))
	login := codec.LoginRegister{Info: infoGoSDK, Username: []byte("iggy"), Password: sec, Context: []byte("c")}
	pat := codec.LoginRegisterPAT{Info: infoGoSDK, Token: sec}
	values := map[string]any{
		"Secret": sec, "*Secret": &sec, "[]Secret": []codec.Secret{sec},
		"LoginRegister": login, "*LoginRegister": &login,
		"LoginRegisterPAT": pat, "*LoginRegisterPAT": &pat,
		"nested": struct{ L codec.LoginRegister }{login},
		"map":    map[string]codec.Secret{"k": sec},
	}
	verbs := []string{"%s", "%v", "%+v", "%#v", "%q", "%x", "%X", "% x", "%d", "%08x", "%10s", "%-v", "%t", "%T", "%p"}
	for name, v := range values {
		for _, verb := range verbs {
			checkNoLeak(t, fmt.Sprintf("%s with %s", name, verb), fmt.Sprintf(verb, v))
		}
		checkNoLeak(t, name+" with Sprint", fmt.Sprint(v))
		checkNoLeak(t, name+" with Sprintln", fmt.Sprintln(v))
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("json.Marshal(%s): %v", name, err)
		}
		checkNoLeak(t, name+" as JSON", string(b))
	}
	if got := sec.String(); got != "[REDACTED]" {
		t.Errorf("String() = %q", got)
	}
	if got := fmt.Sprintf("%#v", sec); got != sec.GoString() {
		t.Errorf("%%#v = %q, want GoString %q", got, sec.GoString())
	}
	for _, verb := range []string{"%v", "%+v", "%#x", "%#s", "%#q"} {
		if got := fmt.Sprintf(verb, sec); got != "[REDACTED]" {
			t.Errorf("%s = %q, want the bare redaction", verb, got)
		}
	}
	if got := sec.GoString(); got != "codec.Secret([REDACTED])" {
		t.Errorf("GoString() = %q", got)
	}
	text, err := sec.MarshalText()
	if err != nil || string(text) != "[REDACTED]" {
		t.Errorf("MarshalText() = %q, %v", text, err)
	}
	if sec.Len() != len(secretText) {
		t.Errorf("Len() = %d, want %d", sec.Len(), len(secretText))
	}
	// The redaction still shows that a password is there: the username is
	// printed, the password is not.
	if s := fmt.Sprint(login); !strings.Contains(s, "iggy") || !strings.Contains(s, "[REDACTED]") {
		t.Errorf("%%s of a login: %s", s)
	}
}

// TestSecretNeverInErrors decodes and encodes bodies that carry the secret
// and break a later rule; no error text shows it.
func TestSecretNeverInErrors(t *testing.T) {
	secHex := hex.EncodeToString([]byte(secretText))
	pw := fmt.Sprintf("%02x %s", len(secretText), secHex)
	bodies := map[string]string{
		"truncated context_len":   infoGoSDKHex + "|" + iggy + "|" + pw + "| 00 00",
		"huge context_len":        infoGoSDKHex + "|" + iggy + "|" + pw + "| ff ff ff ff",
		"bad password UTF-8":      infoGoSDKHex + "|" + iggy + fmt.Sprintf("| %02x %s ff", len(secretText)+1, secHex) + "| 00 00 00 00",
		"trailing":                infoGoSDKHex + "|" + iggy + "|" + pw + "| 00 00 00 00 |" + secHex,
		"password runs past end":  infoGoSDKHex + "|" + iggy + "| ff " + secHex,
		"bad context after":       infoGoSDKHex + "|" + iggy + "|" + pw + "| 01 00 00 00 ff",
		"token, truncated":        infoGoSDKHex + "|" + pw + "| 09 00 00 00",
		"token, bad UTF-8":        infoGoSDKHex + fmt.Sprintf("| %02x %s c3", len(secretText)+1, secHex) + "| 00 00 00 00",
		"token, trailing secret":  infoGoSDKHex + "|" + pw + "| 00 00 00 00 |" + secHex,
		"reply with secret, bad ": "01 00 00 00 | 00 00 00 00 00 00 00 00 |" + secHex,
	}
	var errs []error
	for _, body := range bodies {
		src := hx(body)
		_, _, err1 := codec.DecodeLoginRegister(src)
		_, err2 := codec.ParseLoginRegister(src)
		_, _, err3 := codec.DecodeLoginRegisterPAT(src)
		_, err4 := codec.ParseLoginRegisterPAT(src)
		_, err5 := codec.ParseLoginReply(src)
		errs = append(errs, err1, err2, err3, err4, err5)
	}
	long := codec.NewSecret([]byte(strings.Repeat(secretText, 20)))
	_, err := codec.LoginRegister{Info: infoGoSDK, Username: []byte("u"), Password: long}.AppendBinary(nil)
	errs = append(errs, err)
	_, err = codec.LoginRegisterPAT{Info: infoGoSDK, Token: codec.NewSecret([]byte(secretText + "\xff"))}.AppendBinary(nil)
	errs = append(errs, err)
	_, err = codec.LoginRegister{Info: infoGoSDK, Username: []byte("u"), Password: codec.NewSecret([]byte(secretText)), Context: []byte{0xff}}.AppendBinary(nil)
	errs = append(errs, err)
	failures := 0
	for _, err := range errs {
		if err == nil {
			continue
		}
		failures++
		codecError(t, err)
		for _, verb := range []string{"%s", "%v", "%+v", "%#v", "%q", "%x"} {
			checkNoLeak(t, "error with "+verb, fmt.Sprintf(verb, err))
		}
	}
	if failures < len(bodies)*3 {
		t.Fatalf("only %d of the inputs failed; the test is not exercising error paths", failures)
	}
}

// TestSecretReflection: what a printer or comparer that walks unexported
// fields sees of a Secret (fmt on an unexported field, reflect itself) is
// an untyped pointer and a length, never a byte; and DeepEqual does not
// call two different passwords equal because they share a length and a
// first byte.
func TestSecretReflection(t *testing.T) {
	sec := codec.NewSecret([]byte(secretText))
	hidden := struct{ s codec.Secret }{sec} // fmt cannot call methods here
	for _, verb := range []string{"%v", "%+v", "%#v", "%d", "%x"} {
		checkNoLeak(t, "an unexported Secret field with "+verb, fmt.Sprintf(verb, hidden))
	}
	if ty := reflect.TypeOf(sec); ty.Comparable() {
		t.Errorf("Secret is comparable with ==; it must not be (== would compare memory)")
	}
	rv := reflect.ValueOf(sec)
	for i := range rv.NumField() {
		switch k := rv.Field(i).Kind(); k {
		case reflect.UnsafePointer, reflect.Int, reflect.Array:
		default:
			t.Errorf("Secret field %d is a %v: a reflection printer would follow it", i, k)
		}
	}
	a := codec.LoginRegister{Info: infoGoSDK, Username: []byte("u"), Password: codec.NewSecret([]byte("Qa"))}
	b := a
	b.Password = codec.NewSecret([]byte("Qb"))
	if reflect.DeepEqual(a, b) {
		t.Errorf("DeepEqual calls bodies with passwords Qa and Qb equal")
	}
	if a.Equal(b) || !a.Equal(a.Clone()) {
		t.Errorf("Equal: Qa vs Qb = %t, a vs its clone = %t; want false, true", a.Equal(b), a.Equal(a.Clone()))
	}
}
