// Package release holds the module's release version and the one line the
// commands print for -version.
package release

import (
	"cmp"
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the release version of the module, without the leading v.
const Version = "0.1.0"

// Line is what a command named command prints for its version flag:
//
//	loginserver 0.1.0 module=v0.1.0 vcs.revision=254dd44c1a2b vcs.modified=false go=go1.26.0
//
// The command name and Version come first, always. From the binary's build
// information follow the main module's version unless it is "(devel)" or
// unknown, the VCS revision (its first 12 characters) and vcs.modified
// when the build recorded them, and last the Go version that built it.
func Line(command string) string {
	bi, _ := debug.ReadBuildInfo() // nil when the binary has none
	return line(command, bi)
}

// line is Line on given build information; bi may be nil.
func line(command string, bi *debug.BuildInfo) string {
	fields := []string{command, Version}
	goVersion := runtime.Version()
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			fields = append(fields, "module="+v)
		}
		// The revision is cut to 12 characters, as Go's pseudo-versions cut it.
		for _, key := range []string{"vcs.revision", "vcs.modified"} {
			for _, s := range bi.Settings {
				if s.Key == key && s.Value != "" {
					fields = append(fields, key+"="+s.Value[:min(len(s.Value), 12)])
				}
			}
		}
		goVersion = cmp.Or(bi.GoVersion, goVersion)
	}
	fields = append(fields, "go="+goVersion)
	return strings.Join(fields, " ")
}
