package codec_test

import (
	"os"
	"strings"
	"testing"
)

// TestREADMEQuotesExamples holds the README's codec snippets to the runnable
// examples they quote, so that the README shows code that compiles and whose
// output is checked.
func TestREADMEQuotesExamples(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ExampleAppendRequestFrame", "ExampleReadFrame"} {
		start := strings.Index(string(src), "func "+name+"() {")
		if start < 0 {
			t.Fatalf("%s not in example_test.go", name)
		}
		end := strings.Index(string(src[start:]), "\n}\n")
		if end <= 0 {
			t.Fatalf("%s has no end", name)
		}
		fn := string(src[start : start+end+3])
		if !strings.Contains(string(readme), "```go\n"+fn+"```\n") {
			t.Errorf("the README does not quote %s as it is; want it to contain:\n```go\n%s```", name, fn)
		}
	}
}
