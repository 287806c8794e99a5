package main

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// LibFuzzerInput returns the libFuzzer input that makes a native fuzz
// target built by OSS-Fuzz's compile_native_go_fuzzer see data as its one
// []byte argument. Such a build hands the engine's bytes to
// go-fuzz-headers, whose GetBytes reads a big-endian uint32 length first
// and then takes that many bytes (when the length equals what is left,
// exactly those). A raw corpus file zipped as it is would therefore lose
// its first four bytes to the length. An empty input has no encoding (a
// zero length means 30 to GetBytes) and reports ok false.
func LibFuzzerInput(data []byte) (in []byte, ok bool) {
	if len(data) == 0 || uint64(len(data)) > 1<<32-1 {
		return nil, false
	}
	in = binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(data)), uint32(len(data)))
	return append(in, data...), true
}

// writeSeeds writes, for every target, out/<Target>/<name> holding each
// input of corpus/<Target>/ and crashers/<Target>/ in LibFuzzerInput's
// form, ready to be zipped as <Target>_seed_corpus.zip.
func writeSeeds(c config, stdout io.Writer) error {
	targets, err := listTargets(c.root, c.pkg)
	if err != nil {
		return err
	}
	for _, t := range targets {
		n, err := writeTargetSeeds(c.root, t, filepath.Join(c.seeds, t))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d seeds\n", t, n)
	}
	return nil
}

func writeTargetSeeds(root, target, dir string) (int, error) {
	inputs, err := fuzzload.Target(root, target)
	if err != nil {
		return 0, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	n := 0
	for _, in := range inputs {
		enc, ok := LibFuzzerInput(in.Data)
		if !ok {
			continue
		}
		// Named by content: a corpus file and a crasher may share a name.
		if err := os.WriteFile(filepath.Join(dir, contentName("seed", in.Data)), enc, 0o644); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
