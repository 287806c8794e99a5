package lifecycle_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSansIO: the package's own files import nothing of the network, system
// calls, logging or JSON; the TCP adapter that needs them is lifecycle/tcp.
func TestSansIO(t *testing.T) {
	banned := map[string]bool{"net": true, "net/netip": true, "syscall": true, "os": true, "log": true, "log/slog": true, "encoding/json": true}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		require.NoError(t, err)
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			require.NoError(t, err)
			require.False(t, banned[path], "%s imports %s", name, path)
		}
		checked++
	}
	require.Positive(t, checked, "no source files found")
}
