package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// DefaultMaxPerTarget caps the promoted files (found-*) of one
// corpus/<Target>/. Seeds do not count: corpusseed writes as many as a
// target's shapes need (FuzzDifferential's are over a hundred), and a cap
// they filled would stop promotion for good.
const DefaultMaxPerTarget = 64

// modulePath names the fuzz cache directory of this module's targets.
const fuzzCachePkg = "github.com/iggywire/iggywire/fuzz"

// promoteAll copies, for every target, the inputs found in Go's fuzz cache
// and in fuzz/testdata/fuzz/ into corpus/<Target>/.
func promoteAll(c config, stdout io.Writer) error {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOCACHE: %w", err)
	}
	cache := filepath.Join(strings.TrimSpace(string(out)), "fuzz", filepath.FromSlash(fuzzCachePkg))
	targets, err := listTargets(c.root, c.pkg)
	if err != nil {
		return err
	}
	for _, t := range targets {
		srcs := []string{filepath.Join(cache, t), filepath.Join(c.pkg, "testdata", "fuzz", t)}
		dst := filepath.Join(c.root, fuzzload.CorpusDir, t)
		n, err := Promote(dst, srcs, c.max)
		if err != nil {
			return err
		}
		held, err := promoted(dst)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-24s %d promoted, %d of at most %d promoted files held%s\n", t, n, held, c.max, atCap(held, c.max))
	}
	return nil
}

// atCap says why nothing more can be promoted into a full folder.
func atCap(held, max int) string {
	if held < max {
		return ""
	}
	return " (at the cap: -max N raises it)"
}

// Promote copies inputs from the srcs directories into dst as raw files
// named found-<hash>, skipping any whose content dst already holds, until
// dst holds max such files. Smaller inputs go first: they are easier to read
// and cheaper to replay, and the fuzzer keeps only inputs that reached new
// code, so a small one loses little. It returns how many it copied.
func Promote(dst string, srcs []string, max int) (int, error) {
	have, err := contentHashes(dst)
	if err != nil {
		return 0, err
	}
	var found []fuzzload.Input
	for _, dir := range srcs {
		in, err := fuzzload.ReadDir(dir)
		if err != nil {
			return 0, err
		}
		found = append(found, in...)
	}
	sort.SliceStable(found, func(i, j int) bool { return len(found[i].Data) < len(found[j].Data) })
	held, err := promoted(dst)
	if err != nil {
		return 0, err
	}
	added := 0
	for _, in := range found {
		if held+added >= max {
			break
		}
		sum := sha256.Sum256(in.Data)
		if have[sum] {
			continue
		}
		if err := writeNew(filepath.Join(dst, contentName("found", in.Data)), in.Data); err != nil {
			return added, err
		}
		have[sum] = true
		added++
	}
	return added, nil
}

// promoted counts the files of dir that promotion wrote (found-*).
func promoted(dir string) (int, error) {
	in, err := fuzzload.ReadDir(dir)
	n := 0
	for _, x := range in {
		if strings.HasPrefix(filepath.Base(x.Path), "found-") {
			n++
		}
	}
	return n, err
}

// contentHashes returns the SHA-256 of every input dir holds.
func contentHashes(dir string) (map[[32]byte]bool, error) {
	in, err := fuzzload.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	have := make(map[[32]byte]bool, len(in))
	for _, x := range in {
		have[sha256.Sum256(x.Data)] = true
	}
	return have, nil
}
