package release

import (
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionIsSemver(t *testing.T) {
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(Version) {
		t.Fatalf("Version %q is not MAJOR.MINOR.PATCH", Version)
	}
}

func TestLine(t *testing.T) {
	full := &debug.BuildInfo{
		GoVersion: "go1.26.0",
		Main:      debug.Module{Path: "github.com/iggywire/iggywire/cmd", Version: "v0.1.0"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "254dd44c1a2b3c4d5e6f708192a3b4c5d6e7f809"},
			{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"full", full, "wiredump 0.1.0 module=v0.1.0 vcs.revision=254dd44c1a2b vcs.modified=true go=go1.26.0"},
		{"devel", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.modified", Value: "false"}, {Key: "vcs.revision", Value: "abc"}}},
			"wiredump 0.1.0 vcs.revision=abc vcs.modified=false go=go1.26.1"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"}},
			"wiredump 0.1.0 module=v1.2.3 go=go1.26.0"},
		{"no build info", nil, "wiredump 0.1.0 go=" + runtime.Version()},
	} {
		if got := line("wiredump", tc.bi); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

// TestLineOfThisBinary: the test binary's own line starts with the name
// and Version, ends with the Go version, and is one line.
func TestLineOfThisBinary(t *testing.T) {
	got := Line("cmd")
	if !strings.HasPrefix(got, "cmd "+Version+" ") || !strings.HasSuffix(got, " go="+runtime.Version()) ||
		strings.ContainsAny(got, "\n\r") {
		t.Fatalf("Line(%q) = %q", "cmd", got)
	}
}
