// Command apirecord writes the exported API of the module's public
// packages to DIR/<package>.txt, one feature a line in the format of the
// Go project's api/*.txt files, and deletes DIR's other .txt files:
//
//	go run ./internal/cmd/apirecord -o api   # make api-update
//
// `make api` writes the record to a temporary directory, compares it with
// api/ (diff -ru: the +/- features), and when they differ also prints
// golang.org/x/exp/cmd/apidiff's compatible and incompatible changes
// against the last commit. apidiff classifies but keeps no record a
// reviewer can read (its -w export data is binary and holds the clone's
// absolute paths), which is what this command adds.
//
// The public packages are those of ./... that are not main, not under an
// internal/ directory and export something. Types come from the
// compiler's export data (go list -export), so a package that does not
// compile is an error, not an empty API.
//
// The lines are cmd/api's, with these differences: an untyped constant's
// type is "untyped int" (cmd/api: "ideal-int"); an anonymous struct or
// interface type is written out with its fields or method signatures
// (cmd/api: "struct", method names only); a constraint's type set is
// recorded ("type Number interface { ~int | ~float64 }"); the exported
// fields a struct gets from embedding an unexported type are recorded as
// its own; and there are no "//deprecated" lines, since export data holds
// no doc comments.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("apirecord", flag.ContinueOnError)
	fs.SetOutput(stderr)
	module := fs.String("C", ".", "the module's `DIR`ectory")
	out := fs.String("o", "", "write the record to this `DIR`ectory (api for make api-update)")
	if err := fs.Parse(args); err != nil || *out == "" || fs.NArg() > 0 {
		if err == nil {
			fs.Usage()
		}
		return 2
	}
	if err := record(*module, *out, stdout); err != nil {
		fmt.Fprintln(stderr, "apirecord:", err)
		return 1
	}
	return 0
}

// record writes the record of the module in dir to out.
func record(dir, out string, stdout io.Writer) error {
	modulePath, pkgs, err := Load(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, pkg := range pkgs {
		features := Features(pkg)
		if len(features) == 0 {
			continue // no exported API: not a public package
		}
		name := FileName(modulePath, pkg.Path())
		keep[name] = true
		text := strings.Join(features, "\n") + "\n"
		if err := os.WriteFile(filepath.Join(out, name), []byte(text), 0o644); err != nil {
			return err
		}
	}
	stale, err := filepath.Glob(filepath.Join(out, "*.txt"))
	if err != nil {
		return err
	}
	for _, f := range stale {
		if !keep[filepath.Base(f)] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(stdout, "apirecord: the exported API of %d packages written to %s\n", len(keep), out)
	return nil
}

// FileName is the record file of the package with import path pkgPath in
// the module modulePath: its path in the module with / as _, plus .txt
// (codec.txt, lifecycle_tcp.txt); the module's root package is named after
// the module's last element.
func FileName(modulePath, pkgPath string) string {
	rel := path.Base(modulePath)
	if pkgPath != modulePath {
		rel = strings.TrimPrefix(pkgPath, modulePath+"/")
	}
	return strings.ReplaceAll(rel, "/", "_") + ".txt"
}
