// Package doctest holds the README to the runnable examples it quotes:
// the one check that codec's and lifecycle's tests both use, so that the
// front door shows code that compiles and whose output is checked.
// It imports only the standard library, as the product's tests must.
package doctest

import (
	"cmp"
	"os"
	"strings"
	"testing"
)

// QuotesExamples fails t unless readme quotes each named Example function
// of the Go file src whole, as a ```go block.
func QuotesExamples(t *testing.T, readme, src string, names ...string) {
	t.Helper()
	md, errMD := os.ReadFile(readme)
	code, errCode := os.ReadFile(src)
	if err := cmp.Or(errMD, errCode); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		start := strings.Index(string(code), "func "+name+"() {")
		end := strings.Index(string(code[max(start, 0):]), "\n}\n")
		if start < 0 || end <= 0 {
			t.Fatalf("%s not found whole in %s", name, src)
		}
		fn := string(code[start : start+end+3])
		if !strings.Contains(string(md), "```go\n"+fn+"```\n") {
			t.Errorf("%s does not quote %s as it is; want it to contain:\n```go\n%s```", readme, name, fn)
		}
	}
}
