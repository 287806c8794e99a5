package main

import (
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

func TestParseConfig(t *testing.T) {
	got, err := parseConfig([]string{"-addr", "127.0.0.1:0", "-user", "iggy:iggy", "-user", "bob:p:w",
		"-token", "a=b=iggy", "-token", "t2=bob", "-inactive", "bob", "-version", "0.12.3-edge.1"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := config{Addr: "127.0.0.1:0", Version: codec.MustPack(0, 12, 3), Auth: lifecycle.StaticAuth{
		Users: []lifecycle.User{
			{ID: 1, Name: "iggy", Password: codec.Secret("iggy")},
			{ID: 2, Name: "bob", Password: codec.Secret("p:w"), Inactive: true},
		},
		Tokens: []lifecycle.Token{{Value: codec.Secret("a=b"), User: "iggy"}, {Value: codec.Secret("t2"), User: "bob"}},
	}}
	if !reflect.DeepEqual(want, got) {
		t.Fatalf("want %+v\ngot  %+v", want, got)
	}
	if s := fmt.Sprintf("%v %+v %#v", got, got, got); strings.Contains(s, "p:w") || strings.Contains(s, "a=b") {
		t.Fatalf("a printed config shows a secret: %s", s)
	}

	defaults, err := parseConfig(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if defaults.Addr != "127.0.0.1:8090" || defaults.Version != codec.MustPack(0, 11, 0) {
		t.Fatalf("defaults: %+v", defaults)
	}
}

// TestParseConfigErrors: every bad command line is refused, and neither the
// error nor what is printed to stderr shows a password or token, not even
// one that was rejected.
func TestParseConfigErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-user", "nopassword-s3cr3t"},
		{"-user", ":pw-s3cr3t"},
		{"-user", "a:1-s3cr3t", "-user", "a:2-s3cr3t"},
		{"-token", "tok-s3cr3t"},
		{"-token", "tok-s3cr3t="},
		{"-token", "=tok-s3cr3t"},
		{"-token", "tok-s3cr3t=ghost"},
		{"-inactive", "ghost"},
		{"-version", "1.2"},
		{"-version", "0.0.0"},
		{"-nosuchflag"},
		{"extra"},
	} {
		var stderr strings.Builder
		_, err := parseConfig(args, &stderr)
		if err == nil {
			t.Errorf("%q: no error", args)
			continue
		}
		if out := err.Error() + stderr.String(); strings.Contains(out, "s3cr3t") {
			t.Errorf("%q: the error shows a secret: %s", args, out)
		}
	}
}
