package lifecycle_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestSDKDocExamples: every example docs/sdk.md names is a function of the
// example files of codec or lifecycle, so that the page's calls are the
// ones `go test` runs.
func TestSDKDocExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/sdk.md")
	require.NoError(t, err)
	var src []byte
	for _, glob := range []string{"../codec/example*_test.go", "example*_test.go"} {
		files, err := filepath.Glob(glob)
		require.NoError(t, err)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			src = append(src, b...)
		}
	}
	names := regexp.MustCompile("`(Example[A-Za-z0-9_]*)`").FindAllSubmatch(doc, -1)
	require.True(t, len(names) > 0, "docs/sdk.md names no example")
	for _, m := range names {
		assert.True(t, bytes.Contains(src, []byte("func "+string(m[1])+"()")), "docs/sdk.md names %s, which no example file defines", m[1])
	}
}
