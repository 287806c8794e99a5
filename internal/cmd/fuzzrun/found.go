package main

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// saveCrasher moves a failing input, raw or in Go's encoding, to
// crashers/<target>/ as raw bytes named by their content, adds its line
// to crashers/README.md, and returns the new path relative to root.
func saveCrasher(root, failing, target string) (string, error) {
	in, err := fuzzload.ReadFile(failing)
	if err != nil {
		return "", err
	}
	name := contentName("crash", in.Data)
	rel := filepath.Join(fuzzload.CrashersDir, target, name)
	if err := writeNew(filepath.Join(root, rel), in.Data); err != nil {
		return "", err
	}
	f, err := os.OpenFile(filepath.Join(root, fuzzload.CrashersDir, "README.md"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = fmt.Fprintf(f, "- `%s/%s` (found %s): what it found: TODO; fixed in: open\n",
			target, name, time.Now().UTC().Format("2006-01-02"))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		return "", err
	}
	return filepath.ToSlash(rel), os.Remove(failing)
}

// contentName names an input by the first 8 bytes of its SHA-256.
func contentName(kind string, data []byte) string {
	sum := sha256.Sum256(data)
	return kind + "-" + hex.EncodeToString(sum[:8])
}

func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// maxPerTarget caps the promoted files (found-*) of one
// corpus/<Target>/. Seeds do not count: corpusseed writes as many as a
// target's shapes need (FuzzDifferential's are over a hundred), and a cap
// they filled would stop promotion for good.
const maxPerTarget = 64

// promoteAll copies, for every target, the inputs found in Go's fuzz cache
// and in fuzz/testdata/fuzz/ into corpus/<Target>/.
func promoteAll(c config, stdout io.Writer) error {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return fmt.Errorf("go env GOCACHE: %w", err)
	}
	cache := filepath.Join(strings.TrimSpace(string(out)), "fuzz", filepath.FromSlash(modulePath+"/fuzz"))
	targets, err := selectTargets(c)
	if err != nil {
		return err
	}
	for _, t := range targets {
		srcs := []string{filepath.Join(cache, t), filepath.Join(c.root, fuzzPkg, "testdata", "fuzz", t)}
		n, held, err := Promote(filepath.Join(c.root, fuzzload.CorpusDir, t), srcs, maxPerTarget)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%-24s %d promoted, %d of at most %d promoted files held\n", t, n, held, maxPerTarget)
	}
	return nil
}

// Promote copies inputs from the srcs directories into dst as raw files
// named found-<hash>, skipping any whose content dst already holds, until
// dst holds max such files. Smaller inputs go first: they are easier to read
// and cheaper to replay, and the fuzzer keeps only inputs that reached new
// code, so a small one loses little. It returns how many it copied and how
// many promoted files dst then holds.
func Promote(dst string, srcs []string, max int) (added, held int, err error) {
	have, errHave := fuzzload.ReadDir(dst)
	found, err := fuzzload.ReadDir(srcs...)
	if err := cmp.Or(errHave, err); err != nil {
		return 0, 0, err
	}
	seen := make(map[[32]byte]bool, len(have))
	for _, x := range have {
		seen[sha256.Sum256(x.Data)] = true
		if strings.HasPrefix(filepath.Base(x.Path), "found-") {
			held++
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return len(found[i].Data) < len(found[j].Data) })
	for _, in := range found {
		sum := sha256.Sum256(in.Data)
		if held >= max || seen[sum] {
			continue
		}
		if err := writeNew(filepath.Join(dst, contentName("found", in.Data)), in.Data); err != nil {
			return added, held, err
		}
		seen[sum] = true
		added++
		held++
	}
	return added, held, nil
}
