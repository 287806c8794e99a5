package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"strings"
)

// listed is what go list says of one package.
type listed struct {
	ImportPath string
	Name       string
	Export     string
	DepOnly    bool
	GoFiles    []string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
}

// goList runs go list -json in dir with args and decodes its packages.
// GOWORK=off: the record describes the module as its own go.mod builds it.
func goList(dir string, args ...string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-e", "-json=ImportPath,Name,Export,DepOnly,GoFiles,Module,Error"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	var pkgs []listed
	for dec := json.NewDecoder(&stdout); ; {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return pkgs, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %v", err)
		}
		pkgs = append(pkgs, p)
	}
}

// Module is the module in a directory and the candidates for its public
// packages: those matching ./... (so not in testdata/ or a nested module)
// that are not main, not under an internal/ directory, and have non-test
// Go files.
func Module(dir string) (modulePath string, public []string, err error) {
	pkgs, err := goList(dir, "./...")
	if err != nil {
		return "", nil, err
	}
	for _, p := range pkgs {
		if p.Module != nil && modulePath == "" {
			modulePath = p.Module.Path
		}
		if isInternal(p.ImportPath) || p.Name == "main" {
			continue // whatever state they are in, they are no API
		}
		if p.Error != nil {
			return "", nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		}
		if len(p.GoFiles) > 0 {
			public = append(public, p.ImportPath)
		}
	}
	if modulePath == "" {
		return "", nil, fmt.Errorf("no module in %s", dir)
	}
	return modulePath, public, nil
}

func isInternal(path string) bool {
	return strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") ||
		strings.HasSuffix(path, "/internal") || path == "internal"
}

// Load type-checks the packages with the given import paths, built in
// dir, from the export data the compiler writes (go list -export -deps),
// so the types are exactly the compiled ones. A package, or a dependency,
// that does not compile is an error naming it (-deps lists each one).
func Load(dir string, paths []string) (map[string]*types.Package, error) {
	pkgs, err := goList(dir, append([]string{"-export", "-deps"}, paths...)...)
	if err != nil {
		return nil, err
	}
	exports := map[string]string{}
	var problems []string
	for _, p := range pkgs {
		if p.Error != nil {
			problems = append(problems, p.ImportPath+": "+p.Error.Err)
		}
		if p.Export != "" {
			exports[p.ImportPath] = p.Export
		} else if p.Error == nil && !p.DepOnly {
			problems = append(problems, p.ImportPath+": no export data (does it compile?)")
		}
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	out := make(map[string]*types.Package, len(paths))
	for _, path := range paths {
		pkg, err := imp.Import(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		out[path] = pkg
	}
	return out, nil
}
