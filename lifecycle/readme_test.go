package lifecycle_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEQuotesLifecycle holds the README's lifecycle snippet to the
// runnable example it quotes, so that the front door shows code that
// compiles and whose output is checked.
func TestREADMEQuotesLifecycle(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	const name = "ExampleConn_Handle"
	start := strings.Index(string(src), "func "+name+"() {")
	end := strings.Index(string(src[max(start, 0):]), "\n}\n")
	if start < 0 || end <= 0 {
		t.Fatalf("%s not found whole in example_test.go", name)
	}
	fn := string(src[start : start+end+3])
	if !strings.Contains(string(readme), "```go\n"+fn+"```\n") {
		t.Errorf("the README does not quote %s as it is; want it to contain:\n```go\n%s```", name, fn)
	}
}
