package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// saveCrasher moves the failing input Go wrote (in its v1 encoding) to
// crashers/<target>/ as raw bytes, named by content hash, and adds a line
// for it to crashers/README.md to be completed by whoever fixes it. The
// original under testdata/fuzz is removed, so `go test` replays the input
// once, from crashers/. It returns the new file's path.
func saveCrasher(root, failing, target string) (string, error) {
	if err := isFile(failing); err != nil {
		return "", err
	}
	in, err := fuzzload.ReadFile(failing)
	if err != nil {
		return "", err
	}
	name := contentName("crash", in.Data)
	path := filepath.Join(root, fuzzload.CrashersDir, target, name)
	if err := writeNew(path, in.Data); err != nil {
		return "", err
	}
	note := fmt.Sprintf("- `%s/%s` (found %s): what it found: TODO; fixed in: open\n",
		target, name, time.Now().UTC().Format("2006-01-02"))
	if err := appendFile(filepath.Join(root, fuzzload.CrashersDir, "README.md"), note); err != nil {
		return "", err
	}
	return path, os.Remove(failing)
}

// contentName is kind-<first 16 hex digits of the SHA-256 of data>, so the
// same input always gets the same name.
func contentName(kind string, data []byte) string {
	sum := sha256.Sum256(data)
	return kind + "-" + hex.EncodeToString(sum[:8])
}

// writeNew writes data to path, creating its directory.
func writeNew(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rerunHint is what fuzzrun prints after saveCrasher: Go's own "To re-run"
// hint names the file under testdata/fuzz that saveCrasher has just
// removed, so it says so, and gives the command that replays the crasher
// from crashers/ (every crasher is a seed of its target) and the name Go
// will give it there. failing is Go's path, relative to the package;
// saved is saveCrasher's result.
func rerunHint(root, pkg, target, failing, saved string) string {
	shown := saved
	if rel, err := filepath.Rel(root, saved); err == nil {
		shown = rel
	}
	shown = filepath.ToSlash(shown)
	pkgArg := "./" + strings.TrimPrefix(strings.TrimSuffix(filepath.ToSlash(pkg), "/"), "./")
	var b strings.Builder
	fmt.Fprintf(&b, "fuzzrun: the failing input is now %s (raw bytes; xxd reads it, make triage decodes it)\n", shown)
	fmt.Fprintf(&b, "fuzzrun: Go's \"To re-run\" hint above is stale: fuzzrun moved %s/%s there (it is gone)\n",
		strings.TrimPrefix(pkgArg, "./"), filepath.ToSlash(failing))
	fmt.Fprintf(&b, "fuzzrun: to re-run it: go test %s -run '^%s$'", pkgArg, target)
	if n := seedIndex(root, target, saved); n >= 0 {
		fmt.Fprintf(&b, "   (it fails as %s/%s)", target, fuzzload.SeedName(n))
	}
	b.WriteString("\n")
	return b.String()
}

// seedIndex is the position of path among target's seeds, as
// fuzzload.Add hands them to Go, or -1.
func seedIndex(root, target, path string) int {
	inputs, err := fuzzload.Target(root, target)
	if err != nil {
		return -1
	}
	for i, in := range inputs {
		if filepath.Clean(in.Path) == filepath.Clean(path) {
			return i
		}
	}
	return -1
}

// seedFileHint names the file behind target's seed#n: under -fuzz, Go
// reports a seed that fails in the baseline by its number alone. The seeds
// are the files fuzzload adds, in its order.
func seedFileHint(root, target string, n int) string {
	inputs, err := fuzzload.Target(root, target)
	if err != nil || n >= len(inputs) {
		return fmt.Sprintf("fuzzrun: %s/%s is not one of %s's corpus and crasher files (%d found)\n",
			target, fuzzload.SeedName(n), target, len(inputs))
	}
	p := inputs[n].Path
	if rel, err := filepath.Rel(root, p); err == nil {
		p = rel
	}
	return fmt.Sprintf("fuzzrun: %s/%s is %s\n", target, fuzzload.SeedName(n), filepath.ToSlash(p))
}
