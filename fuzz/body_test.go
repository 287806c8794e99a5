package fuzz

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// bodyAPI is the API every body type offers, bound to one type so that a
// single checker can hold all four to the same invariants.
type bodyAPI[T any] struct {
	name       string
	decode     func([]byte) (T, int, error)
	parse      func([]byte) (T, error)
	encodedLen func(T) int
	appendTo   func(T, []byte) ([]byte, error)
	validate   func(T) error
	clone      func(T) T
	fields     func(T) [][]byte // every byte field, in wire order
	// relabel, for a login body, reports whether v's Revision is not the
	// one its version selects (a decoder was told the other one), and
	// returns v with the version of its revision, and that version. nil
	// for other bodies.
	relabel func(v T) (T, codec.Version, bool)
}

// checkBody holds one input to every invariant of a body's API.
func checkBody[T any](t *testing.T, api bodyAPI[T], src []byte) {
	v, n, err := api.decode(src)
	p, perr := api.parse(src)
	if err != nil {
		checkErr(t, err, len(src))
		if n != 0 || !reflect.ValueOf(v).IsZero() || !reflect.ValueOf(p).IsZero() {
			t.Fatalf("%s: failed Decode returned n=%d and a non-zero value", api.name, n)
		}
		sameErr(t, api.name+": Parse after a failed Decode", perr, err)
		return
	}
	if n <= 0 || n > len(src) {
		t.Fatalf("%s: Decode used %d of %d bytes", api.name, n, len(src))
	}
	checkParseAgrees(t, api, src, v, n, p, perr)
	if got := api.encodedLen(v); got != n {
		t.Fatalf("%s: EncodedLen %d, Decode used %d", api.name, got, n)
	}
	enc := src[:n]
	if api.relabel != nil {
		if rv, ver, ok := api.relabel(v); ok {
			// The encoders write no body that a server would read in the
			// other layout: the one value a decoder returns that does not
			// encode again, until its version is its revision's.
			checkRevisionRefused(t, api, v, src)
			v, enc = rv, append([]byte(nil), src[:n]...)
			binary.LittleEndian.PutUint32(enc, uint32(ver))
		}
	}
	if err := api.validate(v); err != nil {
		t.Fatalf("%s: decoded value fails Validate: %v", api.name, err)
	}
	out, err := api.appendTo(v, append([]byte(nil), prefix...))
	if err != nil {
		t.Fatalf("%s: decoded value fails AppendBinary: %v", api.name, err)
	}
	checkAppended(t, api.name, out, enc)
	checkAPIs(t, api.name, v, enc)
	for i, fld := range api.fields(v) {
		checkAlias(t, fmt.Sprintf("%s field %d", api.name, i), src[:n], fld)
	}
	c := api.clone(v)
	if !codectest.Same(c, v) {
		t.Fatalf("%s: Clone differs from the value", api.name)
	}
	for i, fld := range api.fields(c) {
		checkDetached(t, fmt.Sprintf("%s clone field %d", api.name, i), src, fld)
	}
}

// checkRevisionRefused: Validate and AppendBinary refuse v, a login body
// decoded from src in the revision its version does not select, with
// ErrField at the offset after its ClientVersionInfo, rule
// body.revision.version.
func checkRevisionRefused[T any](t *testing.T, api bodyAPI[T], v T, src []byte) {
	t.Helper()
	off := 4 + 1 + int(src[4]) + 1 + int(src[5+int(src[4])])
	out, aerr := api.appendTo(v, append([]byte(nil), prefix...))
	checkUnchanged(t, api.name+": a body in the other revision than its version's", out)
	for _, err := range []error{api.validate(v), aerr} {
		ce, ok := err.(*codec.Error)
		if !ok || ce.Err != codec.ErrField || ce.Field != "revision" || ce.Offset != off || ce.Rule != "body.revision.version" {
			t.Fatalf("%s: a body in the other revision than its version's: %v, want ErrField revision at %d (rule body.revision.version)", api.name, err, off)
		}
	}
}

// relabelLogin is the relabel of LoginRegister in either revision.
func relabelLogin(l codec.LoginRegister) (codec.LoginRegister, codec.Version, bool) {
	if codec.RevisionOf(l.Info.Protocol) == l.Revision {
		return l, l.Info.Protocol, false
	}
	l.Info.Protocol = l.Revision.Protocol()
	return l, l.Info.Protocol, true
}

// relabelPAT is relabelLogin for LoginRegisterPAT.
func relabelPAT(l codec.LoginRegisterPAT) (codec.LoginRegisterPAT, codec.Version, bool) {
	if codec.RevisionOf(l.Info.Protocol) == l.Revision {
		return l, l.Info.Protocol, false
	}
	l.Info.Protocol = l.Revision.Protocol()
	return l, l.Info.Protocol, true
}

// checkParseAgrees: Decode used n bytes, so Parse succeeds with the same
// value when n is the whole input and reports ErrTrailing at n otherwise;
// and Decode of exactly those n bytes gives the same value.
func checkParseAgrees[T any](t *testing.T, api bodyAPI[T], src []byte, v T, n int, p T, perr error) {
	if n == len(src) {
		if perr != nil || !codectest.Same(p, v) {
			t.Fatalf("%s: Decode used the whole input but Parse says %v", api.name, perr)
		}
	} else {
		ce := checkErr(t, perr, len(src))
		if ce.Err != codec.ErrTrailing || ce.Offset != n || !reflect.ValueOf(p).IsZero() {
			t.Fatalf("%s: Decode used %d of %d bytes but Parse says %v", api.name, n, len(src), perr)
		}
	}
	v2, n2, err := api.decode(src[:n])
	if err != nil || n2 != n || !codectest.Same(v2, v) {
		t.Fatalf("%s: Decode of its own prefix differs: n=%d err=%v", api.name, n2, err)
	}
}

var clientInfoAPI = bodyAPI[codec.ClientVersionInfo]{
	name:       "ClientVersionInfo",
	decode:     codec.DecodeClientVersionInfo,
	parse:      codec.ParseClientVersionInfo,
	encodedLen: codec.ClientVersionInfo.EncodedLen,
	appendTo:   codec.ClientVersionInfo.AppendBinary,
	validate:   codec.ClientVersionInfo.Validate,
	clone:      codec.ClientVersionInfo.Clone,
	fields:     func(c codec.ClientVersionInfo) [][]byte { return [][]byte{c.SDKName, c.SDKVersion} },
}

var loginRegisterAPI = bodyAPI[codec.LoginRegister]{
	name:       "LoginRegister",
	decode:     codec.DecodeLoginRegister,
	parse:      codec.ParseLoginRegister,
	encodedLen: codec.LoginRegister.EncodedLen,
	appendTo:   codec.LoginRegister.AppendBinary,
	validate:   codec.LoginRegister.Validate,
	clone:      codec.LoginRegister.Clone,
	fields: func(l codec.LoginRegister) [][]byte {
		return [][]byte{l.Info.SDKName, l.Info.SDKVersion, l.Username, l.Password.Bytes(), l.Context}
	},
	relabel: relabelLogin,
}

var loginRegisterPATAPI = bodyAPI[codec.LoginRegisterPAT]{
	name:       "LoginRegisterPAT",
	decode:     codec.DecodeLoginRegisterPAT,
	parse:      codec.ParseLoginRegisterPAT,
	encodedLen: codec.LoginRegisterPAT.EncodedLen,
	appendTo:   codec.LoginRegisterPAT.AppendBinary,
	validate:   codec.LoginRegisterPAT.Validate,
	clone:      codec.LoginRegisterPAT.Clone,
	fields: func(l codec.LoginRegisterPAT) [][]byte {
		return [][]byte{l.Info.SDKName, l.Info.SDKVersion, l.Token.Bytes(), l.Context}
	},
	relabel: relabelPAT,
}

var loginReplyAPI = bodyAPI[codec.LoginReply]{
	name:       "LoginReply",
	decode:     codec.DecodeLoginReply,
	parse:      codec.ParseLoginReply,
	encodedLen: codec.LoginReply.EncodedLen,
	appendTo:   codec.LoginReply.AppendBinary,
	validate:   codec.LoginReply.Validate,
	clone:      codec.LoginReply.Clone,
	fields:     func(l codec.LoginReply) [][]byte { return [][]byte{l.ServerVersion} },
}

// printVerbs are the ways a program might print a value.
const printVerbs = "%v|%+v|%#v|%s|%x|%X|%q"

// checkRedacted fails if printing v shows anything of its secret: the
// output must not change when the secret is swapped for another one.
func checkRedacted(t *testing.T, what string, v, swapped any, secret codec.Secret) {
	text, _ := secret.MarshalText()
	if secret.String() != string(text) || fmt.Sprint(secret) != secret.String() {
		t.Fatalf("%s: the secret's printed forms disagree", what)
	}
	b := secret.Bytes()
	if secret.Len() != len(b) || secret.IsZero() != (len(b) == 0) || !secret.Equal(codec.NewSecret(b)) ||
		secret.Equal(codec.NewSecret(append(b[:len(b):len(b)], 0))) {
		t.Fatalf("%s: Len, IsZero, Equal and Bytes disagree", what)
	}
	if fmt.Sprintf(printVerbs, v, v, v, v, v, v, v) != fmt.Sprintf(printVerbs, swapped, swapped, swapped, swapped, swapped, swapped, swapped) {
		t.Fatalf("%s: printing the value depends on its secret", what)
	}
}

// decoy is a secret no input is likely to hold.
var decoy = codec.NewSecret([]byte("\x00decoy\x00"))

// fuzzBody fuzzes one body type: every invariant of its API and, when
// secret names the field holding its secret, that printing a decoded value
// shows nothing of that secret.
func fuzzBody[T any](f *testing.F, api bodyAPI[T], secret func(*T) *codec.Secret) {
	seed(f)
	fuzzBytes(f, func(t *testing.T, src []byte) {
		checkBody(t, api, src)
		if secret == nil {
			return
		}
		if v, _, err := api.decode(src); err == nil {
			swapped := v
			*secret(&swapped) = decoy
			checkRedacted(t, api.name, v, swapped, *secret(&v))
		}
	})
}

func FuzzClientVersionInfo(f *testing.F) { fuzzBody(f, clientInfoAPI, nil) }

func FuzzLoginRegister(f *testing.F) {
	fuzzBody(f, loginRegisterAPI, func(l *codec.LoginRegister) *codec.Secret { return &l.Password })
}

func FuzzLoginRegisterPAT(f *testing.F) {
	fuzzBody(f, loginRegisterPATAPI, func(l *codec.LoginRegisterPAT) *codec.Secret { return &l.Token })
}

func FuzzLoginReply(f *testing.F) { fuzzBody(f, loginReplyAPI, nil) }
