package vectors_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/iggywire/iggywire/vectors"
)

// TestFSIsTheDirectory: the embedded files are exactly the directory's
// *.json files, byte for byte.
func TestFSIsTheDirectory(t *testing.T) {
	onDisk, err := filepath.Glob("*.json")
	if err != nil || len(onDisk) == 0 {
		t.Fatalf("no *.json here: %v", err)
	}
	embedded, err := fs.Glob(vectors.FS(), "*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(embedded) != len(onDisk) {
		t.Fatalf("embedded %d files, the directory has %d", len(embedded), len(onDisk))
	}
	for _, name := range onDisk {
		want, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := fs.ReadFile(vectors.FS(), name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: embedded copy differs from the file", name)
		}
	}
}
