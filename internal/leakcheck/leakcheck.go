// Package leakcheck prints a value of every type of the module that holds a
// password or a token, in every way a program can print it (each fmt verb
// with flags, by value, by pointer, in containers and in an unexported
// field; encoding/json; slog's text and JSON handlers), and looks for the
// secret's bytes in the output. The lifecycle tests and a fuzz target use it.
//
// It imports only the standard library (and this module), since the
// product packages' tests import it. Its subpackage reflectprint does the
// same with the third-party printers that walk unexported fields, for the
// tests that may import them.
package leakcheck

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// hidden keeps a value in an unexported field: fmt cannot call its methods
// there and walks it by reflection instead.
type hidden[T any] struct{ v T }

// Hide returns v in an unexported field of a struct, where printers cannot
// call v's methods.
func Hide[T any](v T) any { return hidden[T]{v} }

// PrintForms returns every printed form of v this package knows, by how
// it was printed: each fmt verb with and without flags, Sprint and
// Sprintln, JSON (when v marshals), and slog's text and JSON handlers.
func PrintForms(v any) map[string]string {
	out := map[string]string{}
	verbs := []string{"v", "+v", "#v", "s", "q", "x", "X", " x", "#x", "d", "o", "O", "b", "c", "U", "e", "f", "g", "t", "p", "T", "10v", "-12s", "08x", "+q", "#q"}
	for _, verb := range verbs {
		out["%"+verb] = fmt.Sprintf("%"+verb, v)
	}
	out["Sprint"], out["Sprintln"] = fmt.Sprint(v), fmt.Sprintln(v)
	if b, err := json.Marshal(v); err == nil {
		out["json"] = string(b)
	}
	var text, js bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("value", "v", v)
	slog.New(slog.NewJSONHandler(&js, nil)).Info("value", "v", v)
	out["slog text"], out["slog json"] = text.String(), js.String()
	return out
}

// secretForms are the ways a secret's bytes could show in text: the bytes
// themselves, quoted, in hex (plain, spaced, upper case, as a Go []byte
// literal, its element list, and a hex dump's first line), in decimal, and
// in base64. NewMatcher adds how a pointer to the first byte prints.
func secretForms(secret []byte) []string {
	h, spaced := hex.EncodeToString(secret), strings.TrimSpace(fmt.Sprintf("% x", secret))
	dec, goHex := strings.Trim(fmt.Sprint(secret), "[]"), fmt.Sprintf("%#v", secret) // 81 115 ..., []byte{0x51, 0x73, ...}
	quoted := strconv.Quote(string(secret))
	forms := []string{ // NewMatcher drops a form equal to the one before it (quoted text is often the text)
		string(secret), quoted[1 : len(quoted)-1], h, strings.ToUpper(h), spaced, strings.ToUpper(spaced), dec,
		strings.ReplaceAll(dec, " ", ","), base64.StdEncoding.EncodeToString(secret), goHex,
		strings.TrimSuffix(strings.TrimPrefix(goHex, "[]byte{"), "}"),
	}
	// A hex dump (go-spew prints a []byte so) breaks the hex after every 8
	// bytes and the line after 16: its first line's hex part.
	if len(secret) > 8 {
		line := hex.Dump(secret[:min(len(secret), 16)])
		forms = append(forms, strings.TrimSpace(line[10:58]))
	}
	return forms
}

// Matcher finds a secret in printed text: in any of the forms of
// secretForms, or as a pointer to the secret's first byte shown with the
// byte's value, which is what a printer that follows pointers prints for a
// secret held as a typed pointer and a length. Build one per secret and
// reuse it.
type Matcher struct {
	forms []string // substrings that show the secret
	first []gated  // what shows its first byte
}

// gated are forms of the first byte that only a text containing gate can
// hold: most texts lack it, so one substring search rules them all out.
type gated struct {
	gate  string
	forms []string
	re    *regexp.Regexp
}

// NewMatcher returns a Matcher for secret.
//
// The first byte's forms, for a byte 81 (0x51), are go-spew's Sdump,
// (*uint8)(81) and (*uint8)(0xADDR)(81); its formatter's %#v,
// (*uint8)(0xADDR)81, and %+v, <*>(0xADDR)81 or <*>81; kr/pretty's
// &uint8(0x51) (and uint8(81)); go-cmp's &81; and kr/pretty's Diff,
// p: 81 != 82.
func NewMatcher(secret []byte) *Matcher {
	m := &Matcher{forms: slices.Compact(secretForms(secret))}
	if len(secret) == 0 {
		return m
	}
	n, h := strconv.Itoa(int(secret[0])), fmt.Sprintf("%#x", secret[0])
	m.first = []gated{
		{gate: "uint8", forms: []string{"(*uint8)(" + n + ")", "uint8(" + n + ")", "uint8(" + h + ")"},
			re: regexp.MustCompile(`\(\*uint8\)\(0x[0-9a-f]+\)\(?` + n + `\b`)},
		{gate: "<*>", re: regexp.MustCompile(`<\*>(?:\(0x[0-9a-f]+\))?` + n + `\b`)},
		{gate: "&" + n, re: regexp.MustCompile(`&` + n + `(?:[^\w.]|$)`)},
		{gate: "!=", forms: []string{": " + n + " != "}, re: regexp.MustCompile(`!= ` + n + `\b`)},
	}
	return m
}

// Find returns the form in which text shows the secret, or "".
func (m *Matcher) Find(text string) string {
	shown := func(f string) bool { return strings.Contains(text, f) }
	if i := slices.IndexFunc(m.forms, shown); i >= 0 {
		return m.forms[i]
	}
	for _, g := range m.first {
		if !strings.Contains(text, g.gate) {
			continue
		}
		if i := slices.IndexFunc(g.forms, shown); i >= 0 {
			return g.forms[i]
		}
		if f := g.re.FindString(text); f != "" {
			return f
		}
	}
	return ""
}

// Holders returns one value of every type of the module that holds a
// password or a token, each holding secret: by value, by typed pointer, in
// a slice and a map, and in an unexported field; the keys name them. Two
// calls with secrets of the same length give values that differ only in
// the secret. The 0.11.1 holders' bind secret is secret repeated to 32
// bytes (zeros for an empty secret).
func Holders(secret []byte) (map[string]any, error) {
	bind := make([]byte, codec.BindSecretLen)
	for i := 0; len(secret) > 0 && i < len(bind); i++ {
		bind[i] = secret[i%len(secret)]
	}
	return holders(secret, bind)
}

// holders is Holders with the 0.11.1 holders' bind secret given: 32 bytes
// of any value.
func holders(secret, bindSecret []byte) (map[string]any, error) {
	s := codec.NewSecret(secret)
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	login := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: s, Context: []byte("ctx")}
	pat := codec.LoginRegisterPAT{Info: info, Token: s}
	user := lifecycle.User{ID: 1, Name: "iggy", Password: s}
	token := lifecycle.Token{Value: s, User: "iggy"}
	auth := lifecycle.StaticAuth{Users: []lifecycle.User{user}, Tokens: []lifecycle.Token{token}}
	cfg := lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: auth}
	srv, errSrv := lifecycle.NewServer(cfg)
	register := codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}
	frame, errFrame := requestFrame(register, login)
	ex := tcp.Exchange{In: codec.NewSecret(frame), Out: []byte{1}}

	// Protocol 0.11.1's holders of a bind secret.
	bind := codec.NewSecret(bindSecret)
	info11 := codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: info.SDKName, SDKVersion: info.SDKVersion}
	login11 := codec.LoginRegister{Info: info11, Revision: codec.RevisionBindSecret, BindSecret: bind,
		Username: []byte("iggy"), Password: s}
	pat11 := codec.LoginRegisterPAT{Info: info11, Revision: codec.RevisionBindSecret, BindSecret: bind, Token: s}
	bindBody := codec.BindSession{Info: info11, ClientID: codec.Uint128From(7), Session: 1, BindSecret: bind}
	srv11, errSrv11 := lifecycle.NewServer(lifecycle.Config{Window: codec.ServeWindow(codec.Protocol0111), Auth: auth})
	frame11, errFrame11 := requestFrame(register, login11)
	bindFrame, errBind := requestFrame(codec.RequestHeader{Client: codec.Uint128From(7), Request: 1,
		Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession}, bindBody)
	bindEx := tcp.Exchange{In: codec.NewSecret(bindFrame), Out: []byte{1}}
	if err := cmp.Or(errSrv, errFrame, errSrv11, errFrame11, errBind); err != nil {
		return nil, err
	}
	// After the login, srv11 keeps the logical session, whose verifier it
	// made from the bind secret.
	if _, o, err := srv11.NewConn().Handle(frame11, nil); err != nil || !o.LoggedIn() {
		return nil, fmt.Errorf("leakcheck: the 0.11.1 login did not log in: %v", err)
	}

	out := map[string]any{}
	add(out, "Secret", s)
	add(out, "LoginRegister", login)
	add(out, "LoginRegisterPAT", pat)
	add(out, "User", user)
	add(out, "Token", token)
	add(out, "StaticAuth", auth)
	add(out, "Config", cfg)
	add(out, "Server", srv)
	add(out, "Exchange", ex)
	add(out, "LoginRegister 0.11.1", login11)
	add(out, "LoginRegisterPAT 0.11.1", pat11)
	add(out, "BindSession", bindBody)
	add(out, "Server after a 0.11.1 login", srv11)
	add(out, "Exchange of a BIND_SESSION", bindEx)
	out["*hidden LoginRegister"] = &hidden[codec.LoginRegister]{login}
	out["*hidden Exchange"] = &hidden[tcp.Exchange]{ex}
	return out, nil
}

// add puts v into out under name: by value, by a typed pointer (a
// *LoginRegister, not a *any), in a slice and a map, and in an unexported
// field.
func add[T any](out map[string]any, name string, v T) {
	out[name] = v
	out["*"+name] = &v
	out["[]"+name] = []any{v}
	out["map of "+name] = map[string]any{"k": v}
	out["hidden "+name] = hidden[T]{v}
}

// requestFrame is a request frame of h carrying body's encoding.
func requestFrame(h codec.RequestHeader, body interface{ AppendBinary([]byte) ([]byte, error) }) ([]byte, error) {
	b, err := body.AppendBinary(nil)
	if err != nil {
		return nil, err
	}
	return codec.AppendRequestFrame(nil, h, b)
}

// Leak returns a description of the first place secret shows in any
// printed form of any holder, or "". The secret must be valid UTF-8 of at
// most 255 bytes, so that every holder can be built with it, and long or
// distinctive enough not to occur in the printed text by chance.
func Leak(secret []byte) (string, error) {
	hs, err := Holders(secret)
	if err != nil {
		return "", err
	}
	return shownIn(hs, secret), nil
}

// shownIn returns where secret first shows in any printed form of the
// holders hs, or "".
func shownIn(hs map[string]any, secret []byte) string {
	m := NewMatcher(secret)
	for name, v := range hs {
		if where := m.In(name, PrintForms(v)); where != "" {
			return where
		}
	}
	return ""
}

// In returns a description of the first of forms (the value name printed,
// by how it was printed) in which m finds its secret, or "".
func (m *Matcher) In(name string, forms map[string]string) string {
	for how, text := range forms {
		if f := m.Find(text); f != "" {
			return fmt.Sprintf("%s printed with %s shows the secret as %q: %s", name, how, f, text)
		}
	}
	return ""
}

// Shows reports whether b, held plainly in an unexported field, shows in
// the printed forms: the probe that proves Leak can see printed bytes.
func Shows(b []byte) bool {
	return NewMatcher(b).In("", PrintForms(Hide(b))) != ""
}
