package lifecycle_test

import (
	"testing"

	"github.com/iggywire/iggywire/internal/doctest"
)

// TestREADMEQuotesLifecycle holds the README's lifecycle snippet to the
// runnable example it quotes, so that the front door shows code that
// compiles and whose output is checked.
func TestREADMEQuotesLifecycle(t *testing.T) {
	doctest.QuotesExamples(t, "../README.md", "example_test.go", "ExampleConn_Handle")
}
