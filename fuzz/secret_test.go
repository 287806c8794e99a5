package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/davecgh/go-spew/spew"
	"github.com/google/go-cmp/cmp"
	"github.com/kr/pretty"
	"github.com/stretchr/testify/assert"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/leakcheck"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/iggywire/iggywire/lifecycle/tcp"
)

// FuzzSecretPrinting builds one value that holds a password or a token and
// prints it one way; the secret must show nowhere in the text.
//
// Redaction never depends on the secret's bytes, so the secret is a fixed
// marker (secretMarker), varied only in length. What the input chooses is
// what can matter: which type holds the secret, the values of its other
// fields (usernames, contexts and versions of length 0 or 255, or equal to
// the marker itself), how it is wrapped (pointers, slices, maps, arrays,
// exported and unexported struct fields, up to three deep), and which
// printer prints it with which verb, flags, width or configuration (fmt,
// encoding/json, slog, go-spew, kr/pretty, go-cmp, kr/pretty's Diff,
// testify's assert messages). One printer per input keeps an execution
// cheap; the unit tests of internal/leakcheck and reflectprint print every
// holder every way.
//
// A form of the secret found in the text is a leak only if the same value
// built around another marker of the same length (the control) does not
// show it too: otherwise the other fields hold it (a username equal to the
// marker, say), not the secret.
//
// The input is read byte by byte (0 once it runs out), in the layout listed
// below; the committed seeds of corpus/FuzzSecretPrinting/ are in it, one
// per holder kind and printer family.
func FuzzSecretPrinting(f *testing.F) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, data []byte) {
		in := &input{data: data}
		s := decodeShape(in)
		p := decodePrinter(in)
		checkSecretPrinting(t, s, p)
	})
}

// The input, byte by byte:
//
//	0     holder kind (mod holderKinds)
//	1     printer family (mod printerFamilies)
//	2     printer variant (verb, configuration; per family)
//	3     printer flags (fmt flags, width and precision; spew options)
//	4     secret length, 0..255
//	5..7  wrappers, outermost last (mod 8; 0 ends the list)
//	8..   the other fields (see decodeShape; a text is a mode byte, see text)

// Counts of the choices of the first bytes.
const (
	holderKinds     = 13
	printerFamilies = 8
	// minMatched is the shortest secret looked for in the text: the forms
	// of a shorter one ("51", "3A") occur by chance, in addresses too.
	// Shorter secrets, the empty one included, are built and printed all
	// the same.
	minMatched = 8
)

// input reads choices from the fuzz input; past its end every read is 0.
type input struct {
	data []byte
	off  int
}

func (in *input) byte() byte {
	if in.off >= len(in.data) {
		return 0
	}
	b := in.data[in.off]
	in.off++
	return b
}

func (in *input) u32() uint32 {
	return uint32(in.byte())<<24 | uint32(in.byte())<<16 | uint32(in.byte())<<8 | uint32(in.byte())
}

// markers are four fixed secrets of 255 bytes that differ from each other
// at every position: the secret (0), the other side of a comparison (1),
// and the two controls (2, 3). Alphanumeric, so that no printer escapes
// them (JSON's \u003c, %q's \").
var markers = func() [4][]byte {
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	var m [4][]byte
	for k := range m {
		m[k] = make([]byte, 255)
		for i := range m[k] {
			m[k][i] = alnum[(i*7+k*17+3)%len(alnum)]
		}
	}
	return m
}()

// secretMarker is the secret every holder holds, cut to the chosen length.
var secretMarker = markers[0]

// shape is every choice about the value, decoded once; build makes the
// value around a given secret.
type shape struct {
	kind       byte
	wraps      []byte
	n          int // the secret's length
	username   []byte
	context    []byte
	sdkName    []byte
	sdkVersion []byte
	version    string
	id         uint32
	protocol   codec.Version
	inactive   bool
	users      int // 1..3 users in a StaticAuth; the secret is in each
	tokens     int // 0..2 tokens
	out        []byte
	closed     bool
}

func decodeShape(in *input) shape {
	s := shape{kind: in.byte() % holderKinds}
	in.off = 4 // bytes 1..3 are the printer's
	s.n = int(in.byte())
	for range 3 {
		w := in.byte() % 8
		if w == 0 {
			break
		}
		s.wraps = append(s.wraps, w)
	}
	in.off = 8
	s.username = text(in, s.n)
	s.context = text(in, s.n)
	s.sdkName = text(in, s.n)
	s.sdkVersion = text(in, s.n)
	s.version = string(text(in, s.n))
	s.id = in.u32()
	s.protocol = codec.Version(in.u32())
	flags := in.byte()
	s.inactive = flags&1 != 0
	s.closed = flags&2 != 0
	s.users = 1 + int(flags>>2)%3
	s.tokens = int(flags>>4) % 3
	s.out = text(in, s.n)
	return s
}

// text decodes a text field: a mode byte, then what the mode needs.
// Modes: 0 nil, 1 "iggy", 2 255 bytes, 3 the secret's marker at the
// secret's length, 4 a shorter prefix of it, 5 a length byte and that many
// input bytes, 6 the other side's marker, 7 one invalid UTF-8 byte.
func text(in *input, n int) []byte {
	switch in.byte() % 8 {
	case 0:
		return nil
	case 1:
		return []byte("iggy")
	case 2:
		return bytes.Repeat([]byte{'u'}, 255)
	case 3:
		return append([]byte(nil), secretMarker[:n]...)
	case 4:
		return append([]byte(nil), secretMarker[:int(in.byte())%(n+1)]...)
	case 5:
		l := int(in.byte())
		out := make([]byte, 0, l)
		for range l {
			if in.off >= len(in.data) {
				break
			}
			out = append(out, in.byte())
		}
		return out
	case 6:
		return append([]byte(nil), markers[1][:n]...)
	default:
		return []byte{0xff}
	}
}

// build returns the value of shape s holding secret.
func (s shape) build(secret []byte) any {
	sec := codec.NewSecret(secret)
	info := codec.ClientVersionInfo{Protocol: s.protocol, SDKName: s.sdkName, SDKVersion: s.sdkVersion}
	user := lifecycle.User{ID: s.id, Name: string(s.username), Password: sec, Inactive: s.inactive}
	token := lifecycle.Token{Value: sec, User: string(s.username)}
	auth := lifecycle.StaticAuth{}
	for i := range s.users {
		u := user
		u.ID += uint32(i)
		auth.Users = append(auth.Users, u)
	}
	for range s.tokens {
		auth.Tokens = append(auth.Tokens, token)
	}
	cfg := lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Version: s.version, Auth: auth}
	switch s.kind {
	case 0:
		return wrap(sec, s.wraps)
	case 1:
		return wrap(codec.LoginRegister{Info: info, Username: s.username, Password: sec, Context: s.context}, s.wraps)
	case 2:
		return wrap(codec.LoginRegisterPAT{Info: info, Token: sec, Context: s.context}, s.wraps)
	case 3:
		return wrap(user, s.wraps)
	case 4:
		return wrap(token, s.wraps)
	case 5:
		return wrap(auth, s.wraps)
	case 6:
		return wrap(cfg, s.wraps)
	case 7:
		srv, err := lifecycle.NewServer(cfg)
		if err != nil { // a version NewServer refuses: its default
			cfg.Version = ""
			if srv, err = lifecycle.NewServer(cfg); err != nil {
				panic(err)
			}
		}
		return wrap(srv, s.wraps)
	case 9:
		// Protocol 0.11.1: the secret as a login body's bind secret (any
		// length: printing does not validate), the password another.
		l := codec.LoginRegister{Info: info, Revision: codec.RevisionBindSecret, BindSecret: sec,
			Username: s.username, Password: codec.NewSecret([]byte("pw")), Context: s.context}
		return wrap(l, s.wraps)
	case 10:
		b := codec.BindSession{Info: info, ClientID: codec.Uint128From(uint64(s.id)), Session: uint64(s.id), BindSecret: sec}
		return wrap(b, s.wraps)
	case 11:
		// Protocol 0.11.1: the secret as a token body's bind secret, the
		// token another.
		l := codec.LoginRegisterPAT{Info: info, Revision: codec.RevisionBindSecret, BindSecret: sec,
			Token: codec.NewSecret([]byte("tk")), Context: s.context}
		return wrap(l, s.wraps)
	case 12:
		// A server that a 0.11.1 login went through: it keeps a verifier
		// of the bind secret (32 bytes: the secret, repeated) for
		// BIND_SESSION.
		return wrap(serverAfterBind(secret), s.wraps)
	default:
		// The frame carries the secret as the login body's password.
		in := append([]byte("frame:"), secret...)
		return wrap(tcp.Exchange{In: codec.NewSecret(in), Out: s.out, Closed: s.closed}, s.wraps)
	}
}

// hidden holds a value in an unexported field, where printers cannot call
// its methods; exported is the same in an exported field.
type (
	hidden[T any]   struct{ v T }
	exported[T any] struct{ V T }
)

// wrap puts v in the wrappers ws, the first typed by v's type, the others
// around an interface (a generic wrapper of a wrapper would instantiate
// without end).
func wrap[T any](v T, ws []byte) any {
	if len(ws) == 0 {
		return v
	}
	var out any
	switch ws[0] {
	case 1:
		out = &v
	case 2:
		out = []T{v}
	case 3, 4, 5, 6:
		out = box(v, ws[0])
	default:
		out = [1]*T{&v}
	}
	for _, w := range ws[1:] {
		switch w {
		case 1: // a typed pointer to the value, *[]T not *any
			p := reflect.New(reflect.TypeOf(out))
			p.Elem().Set(reflect.ValueOf(out))
			out = p.Interface()
		case 2:
			out = []any{out, nil}
		case 3, 4, 5, 6:
			out = box(out, w)
		default:
			out = [2]any{nil, out}
		}
	}
	return out
}

// box is wrappers 3 to 6, which both levels of wrap share: a map,
// a struct with an unexported field, a pointer to one, and a struct with
// an exported field, each holding v as a T.
func box[T any](v T, w byte) any {
	switch w {
	case 3:
		return map[string]T{"k": v}
	case 4:
		return hidden[T]{v}
	case 5:
		return &hidden[T]{v}
	default:
		return exported[T]{v}
	}
}

// printer is one way to print: a single value, or two (a comparer).
type printer struct {
	name  string
	print func(v any) string
	diff  func(a, b any) string
}

// fmtVerbs are the verbs of the fmt family; the flags byte adds flags,
// width and precision.
const fmtVerbs = "vsqxXdobcUeEfFgGtpTw"

// spewModes are the ways to print with a go-spew configuration.
var spewModes = []string{"Sdump", "%v", "%+v", "%#v", "%#+v", "Sprint"}

// prettyVerbs are the verbs of kr/pretty's Formatter.
var prettyVerbs = []string{"%v", "%+v", "%# v", "%#v", "%s"}

func decodePrinter(in *input) printer {
	in.off = 1
	family, variant, flags := in.byte()%printerFamilies, in.byte(), in.byte()
	switch family {
	case 0: // fmt
		if i := int(variant) % (len(fmtVerbs) + 3); i >= len(fmtVerbs) {
			fns := []func(...any) string{fmt.Sprint, fmt.Sprintln, func(a ...any) string { return fmt.Errorf("e: %w", a...).Error() }}
			names := []string{"fmt.Sprint", "fmt.Sprintln", "fmt.Errorf %w"}
			fn := fns[i-len(fmtVerbs)]
			return printer{name: names[i-len(fmtVerbs)], print: func(v any) string { return fn(v) }}
		}
		verb := "%"
		for i, c := range "+-# 0" {
			if flags&(1<<i) != 0 {
				verb += string(c)
			}
		}
		if flags&0x20 != 0 {
			verb += fmt.Sprint(int(variant>>5) * 9)
		}
		if flags&0x40 != 0 {
			verb += fmt.Sprintf(".%d", (flags>>7)*3)
		}
		verb += string(fmtVerbs[int(variant)%(len(fmtVerbs)+3)])
		return printer{name: "fmt " + verb, print: func(v any) string { return fmt.Sprintf(verb, v) }}
	case 1: // encoding/json
		if variant&1 != 0 {
			return printer{name: "json.MarshalIndent", print: func(v any) string { b, _ := json.MarshalIndent(v, ">", "\t"); return string(b) }}
		}
		return printer{name: "json.Marshal", print: func(v any) string { b, _ := json.Marshal(v); return string(b) }}
	case 2: // log/slog
		jsonH, group := variant&1 != 0, variant&2 != 0
		return printer{name: fmt.Sprintf("slog json=%v group=%v", jsonH, group), print: func(v any) string {
			var w bytes.Buffer
			var h slog.Handler = slog.NewTextHandler(&w, nil)
			if jsonH {
				h = slog.NewJSONHandler(&w, nil)
			}
			l := slog.New(h)
			if group {
				l = l.WithGroup("g")
			}
			l.Info("value", "v", v)
			return w.String()
		}}
	case 3: // go-spew
		c := &spew.ConfigState{
			Indent:                  " ",
			DisableMethods:          flags&1 != 0,
			DisablePointerMethods:   flags&2 != 0,
			DisablePointerAddresses: flags&4 != 0,
			DisableCapacities:       flags&8 != 0,
			ContinueOnMethod:        flags&16 != 0,
			SortKeys:                flags&32 != 0,
			SpewKeys:                flags&64 != 0,
			MaxDepth:                int(variant>>4) % 8,
		}
		mode := spewModes[int(variant)%len(spewModes)]
		return printer{name: fmt.Sprintf("spew %s %+v", mode, *c), print: func(v any) string {
			switch mode {
			case "Sdump":
				return c.Sdump(v)
			case "Sprint":
				return c.Sprint(v)
			}
			return c.Sprintf(mode, v)
		}}
	case 4: // kr/pretty
		if variant%(byte(len(prettyVerbs))+1) == 0 {
			return printer{name: "pretty.Sprint", print: func(v any) string { return pretty.Sprint(v) }}
		}
		verb := prettyVerbs[int(variant)%(len(prettyVerbs)+1)-1]
		return printer{name: "pretty.Formatter " + verb, print: func(v any) string { return fmt.Sprintf(verb, pretty.Formatter(v)) }}
	case 5: // go-cmp
		// (AllowUnexported of every struct type met is this same exporter.)
		return printer{name: "cmp.Diff Exporter", diff: func(a, b any) string {
			return cmp.Diff(a, b, cmp.Exporter(func(reflect.Type) bool { return true }))
		}}
	case 6: // kr/pretty's Diff
		return printer{name: "pretty.Diff", diff: func(a, b any) string { return strings.Join(pretty.Diff(a, b), "\n") }}
	default: // testify's failure messages
		// assert.NotEqual is given a twice: its message prints the value.
		// (assert.EqualExportedValues is left out: it panics on a nil
		// interface field, in testify's code.)
		notEqual := func(t assert.TestingT, a, _ any, _ ...any) bool { return assert.NotEqual(t, a, a) }
		asserts := []func(assert.TestingT, any, any, ...any) bool{assert.Equal, assert.EqualValues, assert.Exactly, notEqual}
		names := []string{"assert.Equal", "assert.EqualValues", "assert.Exactly", "assert.NotEqual"}
		i := int(variant) % len(asserts)
		return printer{name: "testify " + names[i], diff: func(a, b any) string {
			var r recorder
			asserts[i](&r, a, b)
			return strings.Join(r.msgs, "\n")
		}}
	}
}

// recorder is an assert.TestingT that keeps what it is told.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// matchers caches a Matcher per marker and length: building one compiles
// regular expressions, which would cost more than most printers.
var matchers struct {
	sync.Mutex
	m [len(markers)][256]*leakcheck.Matcher
}

// matcher returns the Matcher of markers[k][:n].
func matcher(k, n int) *leakcheck.Matcher {
	matchers.Lock()
	defer matchers.Unlock()
	if matchers.m[k][n] == nil {
		matchers.m[k][n] = leakcheck.NewMatcher(markers[k][:n])
	}
	return matchers.m[k][n]
}

// checkSecretPrinting prints the value of s with p and fails if the text
// shows the secret (or, for a comparer, the other side's secret) where the
// control does not.
func checkSecretPrinting(t *testing.T, s shape, p printer) {
	n := s.n
	a, b, c, d := markers[0][:n], markers[1][:n], markers[2][:n], markers[3][:n]
	var text, control string
	var ms []*leakcheck.Matcher
	if p.diff != nil {
		text = p.diff(s.build(a), s.build(b))
		if n >= minMatched {
			ms = append(ms, matcher(0, n), matcher(1, n))
		}
	} else {
		text = p.print(s.build(a))
		if n >= minMatched {
			ms = append(ms, matcher(0, n))
		}
	}
	for _, m := range ms {
		f := m.Find(text)
		if f == "" {
			continue
		}
		if control == "" { // printed only when needed: most inputs show nothing
			if p.diff != nil {
				control = p.diff(s.build(c), s.build(d))
			} else {
				control = p.print(s.build(c))
			}
		}
		if m.Find(control) != "" {
			continue // the other fields show it, not the secret
		}
		t.Fatalf("kind %d wrapped %v printed with %s shows the secret (%d bytes) as %q:\n%s", s.kind, s.wraps, p.name, n, f, text)
	}
}

// serverAfterBind is a 0.11.1 server after a login whose bind secret is
// secret repeated to 32 bytes (the first 32 bytes of a longer one).
func serverAfterBind(secret []byte) *lifecycle.Server {
	bind := make([]byte, 0, codec.BindSecretLen)
	for len(secret) > 0 && len(bind) < codec.BindSecretLen {
		bind = append(bind, secret[:min(len(secret), codec.BindSecretLen-len(bind))]...)
	}
	bind = bind[:codec.BindSecretLen]
	auth := lifecycle.StaticAuth{Users: []lifecycle.User{{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("pw"))}}}
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.ServeWindow(codec.Protocol0111), Auth: auth})
	if err != nil {
		panic(err)
	}
	body, err := codec.LoginRegister{Info: codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"),
		SDKVersion: []byte("0.1.0")}, Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(bind),
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("pw"))}.AppendBinary(nil)
	if err != nil {
		panic(err)
	}
	frame, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: codec.Uint128From(7), Operation: codec.OperationRegister}, body)
	if err != nil {
		panic(err)
	}
	if _, o, err := srv.NewConn().Handle(frame, nil); err != nil || !o.LoggedIn() {
		panic(fmt.Sprintf("the 0.11.1 login did not log in: %v", err))
	}
	return srv
}
