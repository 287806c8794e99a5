// Command importcheck checks that importing the product costs an importer
// nothing. For each product package (codec, lifecycle, lifecycle/tcp) it
// writes a scratch module in a temporary directory that imports only that
// package, points github.com/iggywire/iggywire at this checkout with a
// replace, and runs go mod tidy there offline (GOPROXY=off, GOWORK=off,
// GOFLAGS=-mod=mod, the module cache as it is). The scratch module starts at
// this module's own go line. It fails if, after the tidy, the scratch go.mod
// requires any module but this one, has a toolchain line or a different go
// line, or if its go.sum has a line at all: with the replace, this module
// itself needs none, so every line is a module the importer would be made
// to download and trust. A failure names the modules and the files of this
// module that import them.
//
//	go run ./internal/cmd/importcheck [-keep] [-v]
//
// Run it from the root module (make importcheck does). It takes a few
// seconds and needs no network.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// products are the packages an importer may import, each checked alone.
var products = []string{"codec", "lifecycle", "lifecycle/tcp"}

func main() {
	keep := flag.Bool("keep", false, "keep the scratch modules and print where they are")
	verbose := flag.Bool("v", false, "print each scratch go.mod after the tidy")
	flag.Parse()
	root, err := loadRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "importcheck:", err)
		os.Exit(2)
	}
	failed := false
	for _, rel := range products {
		pkg := root.path + "/" + rel
		res, err := check(root, pkg, *keep)
		if err != nil {
			fmt.Fprintf(os.Stderr, "importcheck: %s: %v\n", pkg, err)
			os.Exit(2)
		}
		if *keep {
			fmt.Printf("importcheck: %s: scratch module kept in %s\n", pkg, res.dir)
		}
		if *verbose {
			fmt.Printf("--- %s: go.mod after go mod tidy\n%s", pkg, res.goMod)
		}
		if len(res.problems) == 0 {
			fmt.Printf("ok   importing %s adds nothing to the importer (go %s, no other require, empty go.sum)\n", pkg, root.goVersion)
			continue
		}
		failed = true
		fmt.Printf("FAIL importing %s costs the importer:\n", pkg)
		for _, p := range res.problems {
			fmt.Printf("  - %s\n", p)
		}
		if len(res.modules) > 0 {
			fmt.Printf("  why (the imports of %s and of its tests, which go mod tidy keeps sums for):\n", pkg)
			for _, line := range explain(root, pkg, res.modules) {
				fmt.Printf("    %s\n", line)
			}
		}
	}
	if failed {
		fmt.Println("importcheck: FAIL: a product package must import, in its code and in its tests, only the standard library and this module's own packages")
		os.Exit(1)
	}
}

// module is the root module as go list -m sees it.
type module struct {
	path, dir, goVersion string
}

// goEnv is the environment every go command here runs with: one module,
// no network, no toolchain switch, and go.mod updates allowed.
func goEnv() []string {
	env := []string{}
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "GOWORK", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN", "GOSUMDB":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOWORK=off", "GOPROXY=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOSUMDB=off")
}

func goCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = goEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func loadRoot() (module, error) {
	out, err := goCmd("", "list", "-m", "-f", "{{.Path}}\t{{.Dir}}\t{{.GoVersion}}")
	if err != nil {
		return module{}, err
	}
	f := strings.Split(strings.TrimSpace(string(out)), "\t")
	if len(f) != 3 || f[2] == "" {
		return module{}, fmt.Errorf("go list -m: unexpected output %q (run from the root module)", out)
	}
	return module{path: f[0], dir: f[1], goVersion: f[2]}, nil
}

// result is what one scratch module ended with.
type result struct {
	dir      string
	goMod    string
	problems []string
	modules  []string // modules the importer was made to require or sum
}

func check(root module, pkg string, keep bool) (result, error) {
	dir, err := os.MkdirTemp("", "importcheck")
	if err != nil {
		return result{}, err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	res := result{dir: dir}
	goMod := fmt.Sprintf("module example.com/importcheck\n\ngo %s\n\nrequire %s v0.0.0\n\nreplace %s => %s\n",
		root.goVersion, root.path, root.path, strconv.Quote(root.dir))
	mainGo := fmt.Sprintf("package main\n\nimport _ %q\n\nfunc main() {}\n", pkg)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644); err != nil {
		return res, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(mainGo), 0o644); err != nil {
		return res, err
	}
	if _, err := goCmd(dir, "mod", "tidy"); err != nil {
		return res, fmt.Errorf("%v\n(offline: every module the tidy needs must already be in the module cache; `go mod download` in the root module fills it)", err)
	}
	after, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return res, err
	}
	res.goMod = string(after)
	sum, err := os.ReadFile(filepath.Join(dir, "go.sum"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	mf := parseGoMod(string(after))
	res.problems, res.modules = judge(root, mf, string(sum))
	return res, nil
}

// goModFile is the part of a go.mod this check looks at.
type goModFile struct {
	goVersion string
	toolchain string
	requires  []string // "path version"
}

// parseGoMod reads the go, toolchain and require lines of a go.mod,
// single-line and block forms, ignoring comments.
func parseGoMod(text string) goModFile {
	var mf goModFile
	inRequire := false
	s := bufio.NewScanner(strings.NewReader(text))
	for s.Scan() {
		line := s.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if inRequire {
			if f[0] == ")" {
				inRequire = false
			} else if len(f) >= 2 {
				mf.requires = append(mf.requires, f[0]+" "+f[1])
			}
			continue
		}
		switch {
		case f[0] == "go" && len(f) == 2:
			mf.goVersion = f[1]
		case f[0] == "toolchain" && len(f) == 2:
			mf.toolchain = f[1]
		case f[0] == "require" && len(f) == 2 && f[1] == "(":
			inRequire = true
		case f[0] == "require" && len(f) >= 3:
			mf.requires = append(mf.requires, f[1]+" "+f[2])
		}
	}
	return mf
}

// judge lists what the tidied scratch module gained, and the modules that
// brought it.
func judge(root module, mf goModFile, sum string) (problems, modules []string) {
	seen := map[string]bool{}
	add := func(m string) {
		if !seen[m] {
			seen[m] = true
			modules = append(modules, m)
		}
	}
	if mf.goVersion != root.goVersion {
		problems = append(problems, fmt.Sprintf("its go line went from go %s to go %s", root.goVersion, mf.goVersion))
	}
	if mf.toolchain != "" {
		problems = append(problems, fmt.Sprintf("it gained a toolchain line: toolchain %s", mf.toolchain))
	}
	for _, r := range mf.requires {
		path := strings.Fields(r)[0]
		if path == root.path {
			continue
		}
		problems = append(problems, "go.mod gained: require "+r)
		add(path)
	}
	var lines []string
	for _, l := range strings.Split(sum, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
			add(strings.Fields(l)[0])
		}
	}
	if len(lines) > 0 {
		problems = append(problems, fmt.Sprintf("go.sum has %d lines (it must have none):\n      %s",
			len(lines), strings.Join(lines, "\n      ")))
	}
	sort.Strings(modules)
	return problems, modules
}

// listed is one package of go list -deps -test.
type listed struct {
	importPath, module, dir string
	imports                 []string
	files                   []string
}

// explain says, for each module, which packages in the import graph of pkg
// and its tests import a package of it, and for this module's own
// packages in which files.
func explain(root module, pkg string, modules []string) []string {
	out, err := goCmd(root.dir, "list", "-e", "-deps", "-test", "-f",
		"{{.ImportPath}}\t{{with .Module}}{{.Path}}{{end}}\t{{.Dir}}\t{{join .Imports \" \"}}\t{{join .GoFiles \" \"}} {{join .TestGoFiles \" \"}} {{join .XTestGoFiles \" \"}}",
		pkg)
	if err != nil {
		return []string{fmt.Sprintf("(could not list the imports: %v)", err)}
	}
	var pkgs []listed
	moduleOf := map[string]string{}
	s := bufio.NewScanner(bytes.NewReader(out))
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		f := strings.Split(s.Text(), "\t")
		if len(f) != 5 {
			continue
		}
		p := listed{importPath: f[0], module: f[1], dir: f[2], imports: strings.Fields(f[3]), files: strings.Fields(f[4])}
		pkgs = append(pkgs, p)
		// A test variant "p [q.test]" is the same package as p.
		moduleOf[strings.SplitN(f[0], " ", 2)[0]] = f[1]
	}
	var lines []string
	for _, m := range modules {
		var why []string
		for _, p := range pkgs {
			if p.module == m {
				continue
			}
			for _, imp := range p.imports {
				if moduleOf[imp] != m {
					continue
				}
				if p.module == root.path {
					for _, file := range importingFiles(p, imp) {
						rel, err := filepath.Rel(root.dir, file)
						if err != nil {
							rel = file
						}
						why = append(why, fmt.Sprintf("%s imports %s", rel, imp))
					}
				} else {
					why = append(why, fmt.Sprintf("%s (module %s) imports %s", p.importPath, p.module, imp))
				}
			}
		}
		why = dedupe(why)
		if len(why) == 0 {
			lines = append(lines, m+": no package of it is imported; go mod tidy keeps its go.mod sum for the module graph")
			continue
		}
		lines = append(lines, m+":")
		for _, w := range why {
			lines = append(lines, "    "+w)
		}
	}
	return lines
}

// importingFiles returns the files of p that import imp.
func importingFiles(p listed, imp string) []string {
	var files []string
	for _, name := range p.files {
		path := filepath.Join(p.dir, name)
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, is := range f.Imports {
			if v, err := strconv.Unquote(is.Path.Value); err == nil && v == imp {
				files = append(files, path)
				break
			}
		}
	}
	return files
}

func dedupe(s []string) []string {
	sort.Strings(s)
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}
