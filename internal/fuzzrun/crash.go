package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
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
