// Command apirecord records the exported API of the module's public
// packages in api/<package>.txt, one feature a line in the format of the
// Go project's api/*.txt files, so that every change to that API is
// deliberate:
//
//	go run ./internal/cmd/apirecord -check   # exit 1 and list +/- features if the API differs from api/
//	go run ./internal/cmd/apirecord -write   # rewrite api/ from the API
//
// The public packages are those of ./... that are not main, not under an
// internal/ directory and export something (-pkgs names them instead).
// The record is exactly those packages: -check reports a record file of
// no such package as removed, and -write deletes it. Types come from the
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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Exit statuses.
const (
	exitOK      = 0
	exitDiffers = 1
	exitError   = 2
)

// hint is the last line of a -check that found a difference.
const hint = "apirecord: the exported API differs from its record; if that is deliberate, run `make api-update` and add the change to CHANGELOG.md"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed command line.
type options struct {
	check, write bool
	module, api  string
	pkgs         []string
}

func parseArgs(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("apirecord", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.BoolVar(&o.check, "check", false, "compare the exported API with the record; exit 1 and list the difference if they differ")
	fs.BoolVar(&o.write, "write", false, "rewrite the record from the exported API")
	fs.StringVar(&o.module, "C", ".", "the module's `DIR`ectory")
	fs.StringVar(&o.api, "api", "api", "the record's `DIR`ectory, relative to -C")
	fs.Func("pkgs", "record these `PACKAGES` (comma-separated import paths, or paths in the module like lifecycle/tcp) instead of the public ones", func(s string) error {
		o.pkgs = strings.Split(s, ",")
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	switch {
	case fs.NArg() > 0:
		return options{}, fmt.Errorf("unexpected arguments: %q", fs.Args())
	case o.check == o.write:
		return options{}, errors.New("give one of -check and -write")
	}
	if !filepath.IsAbs(o.api) {
		o.api = filepath.Join(o.module, o.api)
	}
	return o, nil
}

// run is main without the process: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "apirecord:", err)
		return exitError
	}
	records, err := current(o)
	if err != nil {
		fmt.Fprintln(stderr, "apirecord:", err)
		return exitError
	}
	if o.write {
		err = write(o.api, records, stdout)
	} else {
		var same bool
		same, err = check(o.api, records, stdout)
		if err == nil && !same {
			fmt.Fprintln(stdout, hint)
			return exitDiffers
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "apirecord:", err)
		return exitError
	}
	return exitOK
}

// current is the exported API now, as record file name to features.
func current(o options) (map[string][]string, error) {
	modulePath, paths, err := Module(o.module)
	if err != nil {
		return nil, err
	}
	if o.pkgs != nil {
		paths = nil
		for _, p := range o.pkgs {
			p = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), "./"), "/")
			if p != modulePath && !strings.HasPrefix(p, modulePath+"/") {
				p = modulePath + "/" + p
			}
			paths = append(paths, p)
		}
	}
	pkgs, err := Load(o.module, paths)
	if err != nil {
		return nil, err
	}
	records := map[string][]string{}
	for _, path := range paths {
		features := Features(pkgs[path])
		if len(features) == 0 && o.pkgs == nil {
			continue // no exported API: not a public package
		}
		records[FileName(modulePath, path)] = features
	}
	return records, nil
}

// check prints the difference between the record in dir and records, per
// file, and says whether there is none.
func check(dir string, records map[string][]string, stdout io.Writer) (bool, error) {
	names, err := fileNames(dir, records)
	if err != nil {
		return false, err
	}
	same := true
	for _, name := range names {
		file := filepath.Join(dir, name)
		old, err := ReadRecord(file)
		if err != nil {
			return false, err
		}
		diff := Diff(old, records[name])
		if len(diff) == 0 {
			continue
		}
		same = false
		header := file
		if !exists(file) {
			header += " (no such file)"
		}
		fmt.Fprintf(stdout, "--- %s\n+++ the exported API\n%s\n", header, strings.Join(diff, "\n"))
	}
	if same {
		fmt.Fprintf(stdout, "apirecord: %s matches the exported API (%d packages)\n", dir, len(records))
	}
	return same, nil
}

// write rewrites the files of dir that differ from records, deletes those
// of no package, and prints what changed.
func write(dir string, records map[string][]string, stdout io.Writer) error {
	names, err := fileNames(dir, records)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	changed := 0
	for _, name := range names {
		file := filepath.Join(dir, name)
		old, err := ReadRecord(file)
		if err != nil {
			return err
		}
		diff := Diff(old, records[name])
		plus := 0
		for _, d := range diff {
			if d[0] == '+' {
				plus++
			}
		}
		features, ok := records[name]
		switch {
		case !ok:
			err = os.Remove(file)
		case len(diff) > 0 || !exists(file):
			err = os.WriteFile(file, Format(features), 0o644)
		default:
			continue
		}
		if err != nil {
			return err
		}
		changed++
		fmt.Fprintf(stdout, "apirecord: %s: +%d -%d%s\n", file, plus, len(diff)-plus, map[bool]string{false: " (removed: no such package)"}[ok])
	}
	if changed == 0 {
		fmt.Fprintf(stdout, "apirecord: %s already matches the exported API (%d packages)\n", dir, len(records))
	}
	return nil
}

// fileNames is every record file name: those of records and the stale
// .txt files in dir, sorted.
func fileNames(dir string, records map[string][]string) ([]string, error) {
	keep := map[string]bool{}
	var names []string
	for name := range records {
		keep[name] = true
		names = append(names, name)
	}
	stale, err := staleRecords(dir, keep)
	if err != nil {
		return nil, err
	}
	for _, s := range stale {
		names = append(names, filepath.Base(s))
	}
	slices.Sort(names)
	return names, nil
}

func exists(file string) bool {
	_, err := os.Stat(file)
	return err == nil
}
