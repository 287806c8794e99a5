// Package leakcheck prints a value of every type of the module that holds a
// password or a token, in every way a program can print it (each fmt verb
// with flags, by value, by pointer, in containers and in an unexported
// field; encoding/json; slog's text and JSON handlers), and looks for the
// secret's bytes in the output. The lifecycle tests and a fuzz target use it.
package leakcheck

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// hidden keeps a value in an unexported field: fmt cannot call its methods
// there and walks it by reflection instead.
type hidden[T any] struct{ v T }

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
	for name, newHandler := range map[string]func(*bytes.Buffer) slog.Handler{
		"slog text": func(w *bytes.Buffer) slog.Handler { return slog.NewTextHandler(w, nil) },
		"slog json": func(w *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(w, nil) },
	} {
		var w bytes.Buffer
		slog.New(newHandler(&w)).Info("value", "v", v)
		out[name] = w.String()
	}
	return out
}

// secretForms are the ways a secret's bytes could show in text.
func secretForms(secret []byte) []string {
	h := hex.EncodeToString(secret)
	dec := make([]string, len(secret))
	for i, c := range secret {
		dec[i] = strconv.Itoa(int(c))
	}
	spaced := strings.TrimSpace(fmt.Sprintf("% x", secret))
	return []string{
		string(secret), h, strings.ToUpper(h), spaced, strings.ToUpper(spaced), strings.Join(dec, " "), strings.Join(dec, ","),
		strconv.Quote(string(secret))[1 : len(strconv.Quote(string(secret)))-1],
		base64.StdEncoding.EncodeToString(secret), fmt.Sprintf("%#v", secret),
	}
}

// secretHolders returns one value of every type of the module that holds a
// password or a token, each holding secret.
func secretHolders(secret []byte) (map[string]any, error) {
	s := codec.NewSecret(secret)
	info := codec.ClientVersionInfo{Protocol: codec.MustPack(0, 11, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	login := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: s, Context: []byte("ctx")}
	pat := codec.LoginRegisterPAT{Info: info, Token: s}
	user := lifecycle.User{ID: 1, Name: "iggy", Password: s}
	token := lifecycle.Token{Value: s, User: "iggy"}
	auth := lifecycle.StaticAuth{Users: []lifecycle.User{user}, Tokens: []lifecycle.Token{token}}
	cfg := lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: auth}
	srv, err := lifecycle.NewServer(cfg)
	if err != nil {
		return nil, err
	}
	body, err := login.AppendTo(nil)
	if err != nil {
		return nil, err
	}
	frame, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}, body)
	if err != nil {
		return nil, err
	}
	ex := tcp.Exchange{In: codec.NewSecret(frame), Out: []byte{1}}

	values := map[string]any{
		"Secret": s, "LoginRegister": login, "LoginRegisterPAT": pat,
		"User": user, "Token": token, "StaticAuth": auth, "Config": cfg, "Server": srv, "Exchange": ex,
	}
	out := map[string]any{}
	for name, v := range values {
		out[name] = v
		out["*"+name] = &v
		out["[]"+name] = []any{v}
		out["map of "+name] = map[string]any{"k": v}
	}
	out["hidden Secret"] = hidden[codec.Secret]{s}
	out["hidden LoginRegister"] = hidden[codec.LoginRegister]{login}
	out["hidden LoginRegisterPAT"] = hidden[codec.LoginRegisterPAT]{pat}
	out["hidden User"] = hidden[lifecycle.User]{user}
	out["hidden Token"] = hidden[lifecycle.Token]{token}
	out["hidden StaticAuth"] = hidden[lifecycle.StaticAuth]{auth}
	out["hidden Config"] = hidden[lifecycle.Config]{cfg}
	out["hidden Server"] = hidden[*lifecycle.Server]{srv}
	out["hidden Exchange"] = hidden[tcp.Exchange]{ex}
	out["*hidden LoginRegister"] = &hidden[codec.LoginRegister]{login}
	out["*hidden Exchange"] = &hidden[tcp.Exchange]{ex}
	return out, nil
}

// Leak returns a description of the first place secret shows in any
// printed form of any holder, or "". The secret must be valid UTF-8 of at
// most 255 bytes, so that every holder can be built with it, and long or
// distinctive enough not to occur in the printed text by chance.
func Leak(secret []byte) (string, error) {
	holders, err := secretHolders(secret)
	if err != nil {
		return "", err
	}
	forms := secretForms(secret)
	for name, v := range holders {
		for how, text := range PrintForms(v) {
			for _, f := range forms {
				if strings.Contains(text, f) {
					return fmt.Sprintf("%s printed with %s shows the secret as %q: %s", name, how, f, text), nil
				}
			}
		}
	}
	return "", nil
}

// Shows reports whether b, held plainly in an unexported field, shows in
// the printed forms: the probe that proves Leak can see printed bytes.
func Shows(b []byte) bool {
	forms := secretForms(b)
	for _, text := range PrintForms(hidden[[]byte]{b}) {
		for _, f := range forms {
			if strings.Contains(text, f) {
				return true
			}
		}
	}
	return false
}
