package lifecycle_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSansIO: the package's own files import nothing of the network, system
// calls, logging or JSON; the TCP adapter that needs them is lifecycle/tcp.
func TestSansIO(t *testing.T) {
	banned := map[string]bool{"net": true, "net/netip": true, "syscall": true, "os": true, "log": true, "log/slog": true, "encoding/json": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import path %s: %v", name, imp.Path.Value, err)
			}
			if banned[path] {
				t.Fatalf("%s imports %s", name, path)
			}
		}
		checked++
	}
	if checked <= 0 {
		t.Fatalf("no source files found: checked %d files, want at least 1", checked)
	}
}
