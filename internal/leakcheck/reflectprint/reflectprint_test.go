package reflectprint_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/leakcheck"
	"github.com/iggywire/iggywire/lifecycle"
)

// secrets are the secrets every test prints: ASCII, one starting with a
// control byte (as the fuzz target's do), non-ASCII, and one long enough
// for a hex dump to break its line.
var secrets = []string{"hunter2-hunter2", "\x01pw:hunter2", "sécret-ü-€-𝄞", "Qa-long-secret-of-more-than-sixteen-bytes"}

// TestNoLeak prints every holder of leakcheck through every printer and
// comparer of the package: no secret may show.
func TestNoLeak(t *testing.T) {
	for _, secret := range secrets {
		where, err := leak([]byte(secret))
		if err != nil {
			t.Fatal(err)
		}
		if where != "" {
			t.Errorf("%q: %s", secret, where)
		}
	}
}

// TestSeesPlainBytes is the probe that the check can see: bytes held
// plainly in an unexported field show through every printer and comparer.
func TestSeesPlainBytes(t *testing.T) {
	for _, secret := range append(secrets, "visible-bytes") {
		if missed := missed([]byte(secret)); len(missed) > 0 {
			t.Errorf("%q held as a []byte does not show through %v", secret, missed)
		}
	}
}

// TestComparersSeeTheDifference makes sure the comparers print something
// for each holder against the same holder with the other secret: a
// comparer that found them equal would print nothing, and the check of its
// output would be vacuous.
func TestComparersSeeTheDifference(t *testing.T) {
	secret := []byte(secrets[0])
	holders, err := leakcheck.Holders(secret)
	if err != nil {
		t.Fatal(err)
	}
	others, err := leakcheck.Holders(other(secret))
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range holders {
		for how, text := range diffForms(v, others[name]) {
			if strings.TrimSpace(text) == "" {
				t.Errorf("%s: %s prints nothing for two values that differ in the secret", name, how)
			}
		}
	}
}

// TestAssertEqualBodies is testify's failure message for two bodies that
// differ only in the password, through a recording assert.TestingT: it
// reports the difference and shows neither password.
func TestAssertEqualBodies(t *testing.T) {
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	a, b := []byte("hunter2-hunter2"), []byte("Correct-Horse-9")
	la := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret(a)}
	lb := la
	lb.Password = codec.NewSecret(b)
	pa := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret(a)}
	pb := pa
	pb.Token = codec.NewSecret(b)
	ma, mb := leakcheck.NewMatcher(a), leakcheck.NewMatcher(b)
	for _, pair := range [][2]any{{la, lb}, {&la, &lb}, {pa, pb}, {&pa, &pb}} {
		msg := assertEqualMessage(pair[0], pair[1])
		if !strings.Contains(msg, "Not equal") || !strings.Contains(msg, "unsafe.Pointer") {
			t.Errorf("%T: assert.Equal did not report the difference in the password: %q", pair[0], msg)
		}
		if f := ma.Find(msg) + mb.Find(msg); f != "" {
			t.Errorf("%T: assert.Equal's message shows a password as %q: %s", pair[0], f, msg)
		}
	}
	if msg := assertEqualMessage(la, la); msg != "" {
		t.Errorf("assert.Equal failed for a body against itself: %s", msg)
	}
}

// oldSecret has the layout codec.Secret had before it held an
// unsafe.Pointer: a typed pointer to the first byte and a length.
type oldSecret struct {
	p *byte
	n int
}

func newOldSecret(b []byte) oldSecret { return oldSecret{p: &b[0], n: len(b)} }

// oldRedacted is oldSecret with the redacting methods Secret had then (and
// still has): every fmt verb, String and GoString print a redaction.
type oldRedacted oldSecret

func (oldRedacted) String() string                { return "[REDACTED]" }
func (oldRedacted) GoString() string              { return "codec.Secret([REDACTED])" }
func (oldRedacted) Format(f fmt.State, verb rune) { _, _ = f.Write([]byte("[REDACTED]")) }
func (oldRedacted) MarshalText() ([]byte, error)  { return []byte("[REDACTED]"), nil }
func newOldRedacted(b []byte) oldRedacted         { return oldRedacted(newOldSecret(b)) }

// Bodies and a server as they looked with the old layout, around S (one of
// the two old secret types).
type oldLogin[S any] struct {
	Username []byte
	Password S
}

type oldUser[S any] struct {
	Name     string
	Password S
}

type oldAuth[S any] struct{ Users []oldUser[S] }

type oldServer struct {
	version string
	auth    any // an Authenticator, as in lifecycle.Server
}

// oldHolders returns values holding secret in the old layout, as
// leakcheck.Holders holds a codec.Secret: by value, by pointer, in
// containers, in an unexported field, and in a server's Authenticator.
func oldHolders[S any](s S) map[string]any {
	login := oldLogin[S]{Username: []byte("iggy"), Password: s}
	srv := &oldServer{version: "0.11.0", auth: oldAuth[S]{Users: []oldUser[S]{{Name: "iggy", Password: s}}}}
	return map[string]any{
		"secret": s, "login": login, "&login": &login, "[]login": []oldLogin[S]{login},
		"map of login": map[string]any{"k": login}, "hidden secret": leakcheck.Hide(s),
		"hidden login": leakcheck.Hide(login), "server": srv,
	}
}

// leaks returns, by printer and then by holder, the line of the printed
// form that shows secret (or, for the comparers, the other secret) and the
// form found; a printer or holder that shows nothing is missing.
func leaks(holders, others map[string]any, secret, other []byte) map[string]map[string]string {
	m, mo := leakcheck.NewMatcher(secret), leakcheck.NewMatcher(other)
	out := map[string]map[string]string{}
	record := func(name, how, text string, ms ...*leakcheck.Matcher) {
		for _, m := range ms {
			if f := m.Find(text); f != "" {
				if out[how] == nil {
					out[how] = map[string]string{}
				}
				out[how][name] = fmt.Sprintf("%s (%q)", lineWith(text, f), f)
				return
			}
		}
	}
	for name, v := range holders {
		for how, text := range printForms(v) {
			record(name, how, text, m)
		}
		for how, text := range diffForms(v, others[name]) {
			record(name, how, text, m, mo)
		}
	}
	return out
}

// printers returns the names of every printer and comparer.
func printers() []string {
	var out []string
	for how := range printForms(0) {
		out = append(out, how)
	}
	for how := range diffForms(0, 1) {
		out = append(out, how)
	}
	sort.Strings(out)
	return out
}

// lineWith returns the trimmed line of text that contains f.
func lineWith(text, f string) string {
	i := strings.Index(text, f)
	start := strings.LastIndexByte(text[:i], '\n') + 1
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		end = len(text) - i
	}
	return strings.TrimSpace(text[start : i+end])
}

// TestOldLayoutLeaks shows that the check is not vacuous: for a secret held
// as the old layout (a *byte and a length), every printer and comparer
// shows the first byte for a body (by pointer) and for a server, in a form
// leakcheck's Matcher finds; and with the redacting methods Secret had,
// every printer that walks past methods still shows it for some holder:
// all but go-spew's default, which calls String even in an unexported
// field. It logs, for each printer, the lines that leak and what the same
// printer shows for a codec.Secret now.
func TestOldLayoutLeaks(t *testing.T) {
	secret := []byte("Qsecret-Qsecret")
	other := other(secret)
	plain := leaks(oldHolders(newOldSecret(secret)), oldHolders(newOldSecret(other)), secret, other)
	redacted := leaks(oldHolders(newOldRedacted(secret)), oldHolders(newOldRedacted(other)), secret, other)
	now := secretNow(t, secret)
	for _, how := range printers() {
		for _, name := range []string{"&login", "server"} {
			if _, ok := plain[how][name]; !ok {
				t.Errorf("%s shows nothing of the old layout in %s: the check through it is vacuous", how, name)
			}
		}
		want := how != "spew.Sdump"
		if got := len(redacted[how]) > 0; got != want {
			t.Errorf("%s: leaks the old layout with methods: %v, want %v (%v)", how, got, want, redacted[how])
		}
		var withMethods []string
		for name, line := range redacted[how] {
			withMethods = append(withMethods, name+": "+line)
		}
		sort.Strings(withMethods)
		if len(withMethods) == 0 {
			withMethods = []string{"(none: redacted)"}
		}
		t.Logf("%s\n\told layout, &login:           %s\n\told layout, server:           %s\n\told layout with methods, first: %s\n\tcodec.Secret now:              %s",
			how, plain[how]["&login"], plain[how]["server"], withMethods[0], now[how])
	}
}

// secretNow returns, by printer, the line that shows the pointer of a
// codec.Secret holding secret: for the printers, the Secret in an
// unexported field (where no method is called); for the comparers, two
// *lifecycle.Server that differ in the secret of their StaticAuth. When no
// line shows it, the line that shows the Secret.
func secretNow(t *testing.T, secret []byte) map[string]string {
	t.Helper()
	s := codec.NewSecret(secret)
	o := codec.NewSecret(other(secret))
	srvA, srvB := server(t, s), server(t, o)
	out := map[string]string{}
	pick := func(how, text string) {
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "p:") {
				out[how] = strings.TrimSpace(line)
				return
			}
		}
		out[how] = lineWith(text, "[REDACTED]")
	}
	for how, text := range printForms(leakcheck.Hide(s)) {
		pick(how, text)
	}
	for how, text := range diffForms(srvA, srvB) {
		pick(how, text)
	}
	return out
}

// server returns a *lifecycle.Server whose StaticAuth holds s.
func server(t *testing.T, s codec.Secret) *lifecycle.Server {
	t.Helper()
	auth := lifecycle.StaticAuth{Users: []lifecycle.User{{ID: 1, Name: "iggy", Password: s}}}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: auth})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestOther checks the other side of the comparisons: same length, valid,
// different in every character.
func TestOther(t *testing.T) {
	for _, secret := range append(secrets, "\x7f~", "\u07ff\uffff\U0010ffff\U00010000\u0080\u0800\ud7ff\ue000") {
		o := other([]byte(secret))
		if len(o) != len(secret) || !utf8.Valid(o) {
			t.Errorf("Other(%q) = %q: want valid UTF-8 of %d bytes", secret, o, len(secret))
			continue
		}
		a, b := []rune(secret), []rune(string(o))
		for i := range a {
			if a[i] == b[i] {
				t.Errorf("Other(%q) = %q: character %d is unchanged", secret, o, i)
			}
		}
	}
}
