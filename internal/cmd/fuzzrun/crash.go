package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	note := fmt.Sprintf("- `%s/%s` (found %s): what it found: TODO; fixed in: open\n",
		target, name, time.Now().UTC().Format("2006-01-02"))
	f, err := os.OpenFile(filepath.Join(root, fuzzload.CrashersDir, "README.md"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(note)
	if err = errors.Join(err, f.Close()); err != nil {
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

// selectTargets asks `go test -list`, run in c.root, for the fuzz targets
// of fuzzPkg, and returns them all, or c.run alone.
func selectTargets(c config) ([]string, error) {
	cmd := exec.Command("go", "test", "-list", "^Fuzz", fuzzPkg)
	cmd.Dir = c.root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go test -list %s: %w", fuzzPkg, err)
	}
	var targets []string
	for _, name := range strings.Fields(string(out)) {
		if strings.HasPrefix(name, "Fuzz") {
			targets = append(targets, name)
		}
	}
	if c.run == "" {
		return targets, nil
	}
	if !slices.Contains(targets, c.run) {
		return nil, fmt.Errorf("no fuzz target %q in %s (have %s)", c.run, fuzzPkg, strings.Join(targets, ", "))
	}
	return []string{c.run}, nil
}
