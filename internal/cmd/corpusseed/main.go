// Command corpusseed writes the seed inputs of every fuzz target to
// corpus/<Target>/ (`make corpus-seed`). The output is reproducible: the
// same program always writes the same files with the same bytes.
//
// Seeds are raw wire bytes, one file per reason to exist, named for that
// reason (valid-login-register, eviction-reason14-window-ill-formed, ...):
// a valid frame of every message kind, every eviction reason, version
// edges, and one known-bad input per validation rule. The program owns
// every file of corpus/ except the found-* files promoted from fuzzing
// (see internal/cmd/fuzzrun), which it leaves alone.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	out := flag.String("out", "corpus", "directory that holds one subdirectory per target")
	flag.Parse()
	if err := write(*out, Seeds(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "corpusseed:", err)
		os.Exit(1)
	}
}

// promotedPrefix marks files that fuzzing found; the generator keeps them.
const promotedPrefix = "found-"

// write replaces the seeds under out with seeds, target by target.
func write(out string, seeds map[string][]Seed, log io.Writer) error {
	targets := make([]string, 0, len(seeds))
	for t := range seeds {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, t := range targets {
		dir := filepath.Join(out, t)
		if err := clearSeeds(dir); err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, s := range seeds[t] {
			if err := os.WriteFile(filepath.Join(dir, s.Name), s.Data, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(log, "%-24s %d seeds\n", t, len(seeds[t]))
	}
	return nil
}

// clearSeeds removes the previous seeds of dir so that a renamed or
// dropped seed does not linger.
func clearSeeds(dir string) error {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), promotedPrefix) {
			continue
		}
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
