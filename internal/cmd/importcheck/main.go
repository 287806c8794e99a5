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
// Then an importer like an SDK: one that already requires older versions
// of two of the workbench's test tools (testify v1.9.0, go-cmp v0.6.0) and
// uses them in its tests. Minimal version selection raises those to the
// versions this go.mod requires, by design (docs/importing.md): the check
// prints every require the tidy raised or added, and fails if its go line
// moved, it gained a toolchain line, or a require went to a version this
// go.mod does not name. Its old versions' go.mod files are fetched through
// GOPROXY once when the module cache lacks them.
//
//	go run ./internal/cmd/importcheck [-keep] [-v]
//
// Run it from the root module (make importcheck does). It takes a few
// seconds, and needs no network once the module cache holds the old
// versions.
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
	res, err := checkOlder(root, *keep)
	if err != nil {
		fmt.Fprintf(os.Stderr, "importcheck: an importer with older requires: %v\n", err)
		os.Exit(2)
	}
	if *keep {
		fmt.Printf("importcheck: an importer with older requires: scratch module kept in %s\n", res.dir)
	}
	if *verbose {
		fmt.Printf("--- an importer with older requires: go.mod after go mod tidy\n%s", res.goMod)
	}
	status := "ok  "
	if len(res.problems) > 0 {
		status = "FAIL"
	}
	fmt.Printf("%s an importer requiring %s that imports every product package pays (docs/importing.md):\n", status, strings.Join(olderRequires, ", "))
	for _, c := range res.changes {
		fmt.Printf("  - %s\n", c)
	}
	for _, p := range res.problems {
		fmt.Printf("  - FAIL: %s\n", p)
	}
	if len(res.problems) > 0 {
		fmt.Println("importcheck: FAIL: an importer may be raised only to the versions this go.mod requires, and keep its go line")
		os.Exit(1)
	}
}

// olderRequires are what the second importer requires before it imports
// the product: older versions of two of the workbench's test tools, as
// the Iggy Go SDK did (testify) and many modules do.
var olderRequires = []string{"github.com/stretchr/testify v1.9.0", "github.com/google/go-cmp v0.6.0"}

// module is the root module as go list -m sees it.
type module struct {
	path, dir, goVersion string
}

// goEnv is the environment every go command here runs with: one module,
// no toolchain switch, go.mod updates allowed, and no network unless
// online (then GOPROXY and GOSUMDB are the caller's).
func goEnv(online bool) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		switch k := strings.SplitN(kv, "=", 2)[0]; k {
		case "GOWORK", "GOFLAGS", "GOTOOLCHAIN":
			continue
		case "GOPROXY", "GOSUMDB":
			if !online {
				continue
			}
		}
		env = append(env, kv)
	}
	env = append(env, "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	if !online {
		env = append(env, "GOPROXY=off", "GOSUMDB=off")
	}
	return env
}

func goCmd(dir string, args ...string) ([]byte, error) { return goCmdEnv(dir, false, args...) }

func goCmdEnv(dir string, online bool, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = goEnv(online)
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
	changes  []string // the requires the tidy raised or added (checkOlder)
}

func check(root module, pkg string, keep bool) (result, error) {
	res, _, sum, err := scratch(root, []string{pkg}, nil, "", keep)
	if err != nil {
		return res, fmt.Errorf("%v\n(offline: every module the tidy needs must already be in the module cache; `go mod download` in the root module fills it)", err)
	}
	res.problems, res.modules = judge(root, parseGoMod(res.goMod), sum)
	return res, nil
}

// checkOlder tidies a scratch module that requires olderRequires, imports
// every product package, and uses testify and go-cmp in its test, as an SDK
// does; judgeOlder says what the tidy did to its go.mod.
func checkOlder(root module, keep bool) (result, error) {
	var pkgs []string
	for _, rel := range products {
		pkgs = append(pkgs, root.path+"/"+rel)
	}
	res, before, _, err := scratch(root, pkgs, olderRequires, "import (\n\t\"testing\"\n\n\t\"github.com/google/go-cmp/cmp\"\n\t"+
		"\"github.com/stretchr/testify/require\"\n)\n\nfunc TestDiff(t *testing.T) { require.Empty(t, cmp.Diff(1, 1)) }\n", keep)
	if err != nil {
		return res, err
	}
	own, err := os.ReadFile(filepath.Join(root.dir, "go.mod"))
	if err != nil {
		return res, err
	}
	res.changes, res.problems = judgeOlder(root, parseGoMod(before), parseGoMod(res.goMod), parseGoMod(string(own)))
	return res, nil
}

// scratch writes a module at this module's go line that requires this one
// (replaced by the checkout) and requires, imports pkgs in main.go and has
// test (when not "") after its package clause in main_test.go; then it runs
// go mod tidy there, offline. When that fails and requires is not empty,
// it runs it once more through GOPROXY: the older versions are no
// dependency of this module, so a module cache its builds filled lacks
// them. It returns the go.mod before the tidy and the go.sum after.
func scratch(root module, pkgs, requires []string, test string, keep bool) (res result, before, sum string, err error) {
	if res.dir, err = os.MkdirTemp("", "importcheck"); err != nil {
		return res, "", "", err
	}
	if !keep {
		defer os.RemoveAll(res.dir)
	}
	var reqs, imports string
	for _, r := range requires {
		reqs += "\t" + r + "\n"
	}
	for _, p := range pkgs {
		imports += fmt.Sprintf("\t_ %q\n", p)
	}
	before = fmt.Sprintf("module example.com/importcheck\n\ngo %s\n\nrequire (\n\t%s v0.0.0\n%s)\n\nreplace %s => %s\n",
		root.goVersion, root.path, reqs, root.path, strconv.Quote(root.dir))
	files := map[string]string{"go.mod": before, "main.go": "package main\n\nimport (\n" + imports + ")\n\nfunc main() {}\n"}
	if test != "" {
		files["main_test.go"] = "package main\n\n" + test
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(res.dir, name), []byte(text), 0o644); err != nil {
			return res, before, "", err
		}
	}
	if _, err = goCmd(res.dir, "mod", "tidy"); err != nil && len(requires) > 0 {
		fmt.Println("importcheck: the module cache lacks the older requires; fetching them through GOPROXY")
		_, err = goCmdEnv(res.dir, true, "mod", "tidy")
	}
	if err != nil {
		return res, before, "", err
	}
	after, err := os.ReadFile(filepath.Join(res.dir, "go.mod"))
	if err != nil {
		return res, before, "", err
	}
	res.goMod = string(after)
	b, err := os.ReadFile(filepath.Join(res.dir, "go.sum"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return res, before, "", err
	}
	return res, before, string(b), nil
}

// judgeOlder lists each require the tidy raised, added or dropped, and as
// problems a moved go line, a toolchain line, and a require raised or added
// at a version other than the one own (this module's go.mod) requires.
func judgeOlder(root module, before, after, own goModFile) (changes, problems []string) {
	versions := func(mf goModFile) map[string]string {
		m := map[string]string{}
		for _, r := range mf.requires {
			f := strings.Fields(r)
			m[f[0]] = f[1]
		}
		return m
	}
	was, ours := versions(before), versions(own)
	if after.goVersion != before.goVersion {
		problems = append(problems, fmt.Sprintf("its go line went from go %s to go %s", before.goVersion, after.goVersion))
	}
	if after.toolchain != "" {
		problems = append(problems, "it gained a toolchain line: toolchain "+after.toolchain)
	}
	for _, r := range after.requires {
		f := strings.Fields(r)
		path, v := f[0], f[1]
		old, had := was[path]
		delete(was, path)
		switch {
		case path == root.path || had && old == v:
			continue
		case had:
			changes = append(changes, fmt.Sprintf("%s raised from %s to %s", path, old, v))
		default:
			changes = append(changes, fmt.Sprintf("%s %s added", path, v))
		}
		if ours[path] != v {
			problems = append(problems, fmt.Sprintf("%s went to %s, a version this go.mod does not require", path, v))
		}
	}
	for path, v := range was {
		changes = append(changes, fmt.Sprintf("%s %s dropped", path, v))
	}
	sort.Strings(changes)
	return changes, problems
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
