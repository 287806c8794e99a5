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

// Load type-checks the candidates for the public packages of the module
// in dir (those of ./..., so not in testdata/ or a nested module, that are
// not main, not under an internal/ directory, and have non-test Go files)
// from the export data the compiler writes (go list -export -deps), so the
// types are exactly the compiled ones. A candidate or a dependency of one
// that does not compile is an error naming it. GOWORK=off: the record
// describes the module as its own go.mod builds it.
func Load(dir string) (modulePath string, pkgs []*types.Package, err error) {
	cmd := exec.Command("go", "list", "-e", "-export", "-deps", "-json=ImportPath,Name,Export,DepOnly,GoFiles,Module,Error", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", nil, fmt.Errorf("go list: %v\n%s", err, strings.TrimSpace(stderr.String()))
	}
	exports := map[string]string{}
	var public, problems []string
	for dec := json.NewDecoder(&stdout); ; {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return "", nil, fmt.Errorf("go list: %v", err)
		}
		exports[p.ImportPath] = p.Export
		if p.DepOnly || isInternal(p.ImportPath) || p.Name == "main" {
			continue // whatever state they are in, they are no API
		}
		if modulePath == "" && p.Module != nil {
			modulePath = p.Module.Path
		}
		switch {
		case p.Error != nil:
			problems = append(problems, p.ImportPath+": "+p.Error.Err)
		case p.Export == "" && len(p.GoFiles) > 0:
			problems = append(problems, p.ImportPath+": no export data (does it compile?)")
		case len(p.GoFiles) > 0:
			public = append(public, p.ImportPath)
		}
	}
	if len(problems) > 0 {
		return "", nil, errors.New(strings.Join(problems, "\n"))
	}
	if modulePath == "" {
		return "", nil, fmt.Errorf("no module in %s", dir)
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s (does it compile?)", path)
		}
		return os.Open(exports[path])
	})
	for _, path := range public {
		pkg, err := imp.Import(path)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %v", path, err)
		}
		pkgs = append(pkgs, pkg)
	}
	return modulePath, pkgs, nil
}

func isInternal(path string) bool {
	return strings.HasPrefix(path, "internal/") || strings.Contains(path, "/internal/") ||
		strings.HasSuffix(path, "/internal") || path == "internal"
}
