// Command vectorgen writes the conformance vectors under vectors/: one JSON
// file per message kind, the rules they exercise (rules.json) and the
// append-only registry of case ids (ids.json). Every case is checked
// against package codec and package lifecycle before anything is written,
// and the output depends on nothing but the sources: no time, no
// randomness.
//
//	go run ./internal/cmd/vectorgen [-root .] [-out vectors]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	root := flag.String("root", ".", "module root (crashers/ is read from here)")
	out := flag.String("out", "vectors", "output directory")
	flag.Parse()
	files, err := render(*root, *out)
	if err == nil {
		err = os.MkdirAll(*out, 0o755)
	}
	for n, b := range files {
		if err == nil {
			err = os.WriteFile(filepath.Join(*out, n), b, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vectorgen:", err)
		os.Exit(1)
	}
	fmt.Printf("vectorgen: wrote %d files to %s\n", len(files), *out)
}
