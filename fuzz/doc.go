// Package fuzz holds the native `go test -fuzz` targets of the codec and the
// connection lifecycle. It has no API: every target lives in a _test.go
// file, and `go test ./fuzz/` replays corpus/<Target>/ and
// crashers/<Target>/ (through internal/fuzzload) as regression tests.
//
// Each target checks invariants across APIs, not just the absence of a
// panic: decode then re-encode gives back the same bytes; the strict Parse
// and the prefix Decode of a body agree; EncodedLen matches; every error is
// a *codec.Error matching exactly one sentinel; returned byte fields alias
// the input within bounds with capacity capped; codec agrees with the plain
// reference decoder internal/refcodec value for value and error class for
// error class; AppendBinary's validation says what decoding the same bytes
// would say.
//
// Run them all with `make fuzz`, one with `make fuzz-one T=FuzzX` or with
// plain go test, anchoring the name (FuzzLoginRegister is also the start of
// FuzzLoginRegisterPAT):
//
//	go test ./fuzz -run '^$' -fuzz '^FuzzLoginRegister$' -fuzztime 30s
//
// The same targets build as libFuzzer binaries (make libfuzzer, and
// ClusterFuzzLite's build.sh): engine_go_test.go and
// engine_libfuzzer_test.go are the two engines' halves of what a target
// needs, so both engines read the same raw files.
package fuzz
