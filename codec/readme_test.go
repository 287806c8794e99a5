package codec_test

import (
	"testing"

	"github.com/iggywire/iggywire/internal/doctest"
)

// TestREADMEQuotesExamples holds the README's codec snippets to the runnable
// examples they quote, so that the README shows code that compiles and whose
// output is checked.
func TestREADMEQuotesExamples(t *testing.T) {
	doctest.QuotesExamples(t, "../README.md", "example_test.go", "ExampleAppendRequestFrame", "ExampleReadFrame")
}
