//go:build libfuzzer

package fuzz

import "testing"

// This file is libFuzzer's half of what a target needs from its engine
// (engine_go_test.go is Go's). It is compiled only by go-118-fuzz-build,
// which sets the libfuzzer build tag, in the build's copy of the package
// where every file imports go-118-fuzz-build's testing package as
// "testing" (see internal/cmd/fuzzrun/lfbuild.go): F.Data is the
// engine's input and F.T the *testing.T a body reports to.

// fuzzBytes hands body the engine's bytes as they are. The shim's own
// F.Fuzz would first cut a go-fuzz-headers length off them, so a raw file
// of corpus/ or crashers/ would not mean to libFuzzer what it means to Go;
// this way the two engines read the same files, and a crash libFuzzer
// writes is a crasher `go test ./fuzz/` replays as it is.
func fuzzBytes(f *testing.F, body func(t *testing.T, data []byte)) {
	body(f.T, f.Data)
}

// seed does nothing: libFuzzer reads the corpus from its directories (or
// OSS-Fuzz's seed zip) and calls the target once per input, so anything
// here would run on every input.
func seed(*testing.F) {}

// unitTest does nothing under libFuzzer, which runs a fuzz target only.
func unitTest(*testing.T) {}
