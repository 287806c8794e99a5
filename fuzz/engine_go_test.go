//go:build !libfuzzer

package fuzz

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// This file is the Go engine's half of what a target needs from its
// engine (engine_libfuzzer_test.go is libFuzzer's): where the seeds come
// from, and how an input reaches the target's body.

// root is the module root as seen from this package's directory, where
// `go test` runs.
const root = ".."

// corpusDirEnv names the directory OSS-Fuzz's coverage runner sets for
// the one target a coverage binary stands for (the binary is named after
// it). Outside such a run it is unset.
const corpusDirEnv = "FUZZ_CORPUS_DIR"

// fuzzBytes hands every input Go's engine generates (or replays) to body.
// Under libFuzzer the same call hands body the engine's bytes as they are,
// so the raw files of corpus/ and crashers/ mean the same to both engines.
func fuzzBytes(f *testing.F, body func(t *testing.T, data []byte)) {
	f.Fuzz(body)
}

// seed adds every corpus and crasher input of the running target. The
// target's name is the directory name, so each target seeds itself.
//
// Go names the seeds seed#0, seed#1, ... in the order they were added, not
// by file. So when the seeds are replayed as regression tests (no -fuzz)
// and the target fails, seed prints which file each seed#N is, just before
// the "--- FAIL: FuzzX/seed#N" lines. This runs even when a seed panics:
// the testing package runs the target's cleanups before it dies. (It
// prints to stdout, as the testing package does, because f.Log is refused
// while a seed's panic unwinds.)
//
// In a coverage run ($FUZZ_CORPUS_DIR set, see coverageSeeds) the seeds
// are that directory's files instead.
func seed(f *testing.F) {
	f.Helper()
	if dir, ok := os.LookupEnv(corpusDirEnv); ok {
		coverageSeeds(f, dir)
		return
	}
	inputs, err := fuzzload.Target(root, f.Name())
	if err != nil {
		f.Fatal(err)
	}
	for _, in := range inputs {
		f.Add(in.Data)
	}
	if fuzzing() {
		return
	}
	f.Cleanup(func() {
		if f.Failed() && len(inputs) > 0 {
			printSeedMap(os.Stdout, f.Name(), inputs)
		}
	})
}

// unitTest skips a plain test of this package in a coverage run: the
// profile a coverage binary writes is its target's alone, and a unit test
// that runs there would count what it reaches as the target's.
func unitTest(t *testing.T) {
	t.Helper()
	if _, ok := os.LookupEnv(corpusDirEnv); ok {
		t.Skipf("coverage run of %s", filepath.Base(os.Args[0]))
	}
}

// coverageSeeds seeds the target a coverage binary is named after with
// the raw files of dir (the engine's corpus, as libFuzzer wrote it) and
// skips every other target, so the profile is that target's alone.
func coverageSeeds(f *testing.F, dir string) {
	f.Helper()
	if filepath.Base(os.Args[0]) != f.Name() {
		f.Skipf("coverage run of %s", filepath.Base(os.Args[0]))
	}
	inputs, err := fuzzload.ReadDir(dir)
	if err != nil {
		f.Fatal(err)
	}
	for _, in := range inputs {
		f.Add(in.Data)
	}
}

// printSeedMap writes which file each seed#N of target is: seed#i is the
// i-th input given to f.Add, as Go names it. The paths are relative to the
// module root, slash-separated.
func printSeedMap(w io.Writer, target string, inputs []fuzzload.Input) {
	fmt.Fprintf(w, "%s failed: its seed#N are these files (replay one: go test ./fuzz -run '^%s$'):\n", target, target)
	for i, in := range inputs {
		p := in.Path
		if rel, err := filepath.Rel(root, p); err == nil {
			p = rel
		}
		fmt.Fprintf(w, "    %s/seed#%d = %s\n", target, i, filepath.ToSlash(p))
	}
}

// fuzzing reports whether this run generates inputs (-test.fuzz is set)
// rather than only replaying the seeds.
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}
