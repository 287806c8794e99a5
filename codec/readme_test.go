package codec_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEQuotesExamples holds the README's codec snippets to the runnable
// examples they quote, so that the README shows code that compiles and whose
// output is checked.
func TestREADMEQuotesExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	src, err := os.ReadFile("example_test.go")
	require.NoError(t, err)
	for _, name := range []string{"ExampleAppendRequestFrame", "ExampleSplitResult"} {
		start := strings.Index(string(src), "func "+name+"() {")
		require.GreaterOrEqual(t, start, 0, "%s not in example_test.go", name)
		end := strings.Index(string(src[start:]), "\n}\n")
		require.Positive(t, end, "%s has no end", name)
		fn := string(src[start : start+end+3])
		assert.Contains(t, string(readme), "```go\n"+fn+"```\n", "the README does not quote %s as it is", name)
	}
}
