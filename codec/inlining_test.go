package codec

import (
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// TestInlining checks that the small helpers the codec's speed relies on
// stay inlinable: a change that pushes one over the compiler's budget shows
// here, not as a slower benchmark weeks later. (The same test as net/netip's.)
func TestInlining(t *testing.T) {
	if runtime.Compiler != "gc" {
		t.Skipf("inlining decisions are the gc compiler's; this is %s", runtime.Compiler)
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to ask the compiler: %v", err)
	}
	out, err := exec.Command(goTool, "build", "--gcflags=-m", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	got := map[string]bool{}
	re := regexp.MustCompile(` can inline (\S+)`)
	for _, line := range strings.Split(string(out), "\n") {
		if m := re.FindStringSubmatch(line); m != nil {
			got[m[1]] = true
		}
	}
	want := []string{
		// header reads and writes at constant offsets
		"le32", "le64", "le128", "put32", "put64", "put128", "header", "growHeader", "getFrame", "putFrame", "get128", "copy128",
		"or32", "reqPadding", "repPadding", "checkSize",
		// header rules
		"Uint128.IsZero", "Window.IsValid", "EvictionReason.IsKnown", "Operation.IsKnown",
		"(*RequestHeader).wellFormed", "(*ReplyHeader).wellFormed",
		// body fast path and encoders
		"ascii", "asciiTop", "fitsU32", "(*scan).u32", "(*scan).take", "(*scan).text8",
		"appendText8", "appendText32", "ClientVersionInfo.lengthsOK", "ClientVersionInfo.appendTo",
		"LoginReply.appendTo",
		// the value-returning header decoders are wrappers of Decode
		"DecodeRequestHeader", "DecodeReplyHeader", "DecodeEviction",
	}
	for _, name := range want {
		if !got[name] {
			t.Errorf("%s is not inlinable", name)
		}
	}
}
