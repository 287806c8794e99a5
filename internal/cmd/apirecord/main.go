// Command apirecord writes the exported API of the module's public
// packages to DIR/<package>.txt, one feature a line in the shape of the Go
// project's api/*.txt files, sorted, and deletes DIR's other .txt files:
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
// compile is an error, not an empty API. GOWORK=off: the record describes
// the module as its own go.mod builds it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

func main() {
	out := flag.String("o", "", "write the record to this `DIR`ectory (api for make api-update)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := record(".", *out); err != nil {
		fmt.Fprintln(os.Stderr, "apirecord:", err)
		os.Exit(1)
	}
}

// record writes the record of the module in dir to out, one file a
// package: its path in the module with / as _, plus .txt (codec.txt,
// lifecycle_tcp.txt). The .txt files already there go first, so that a
// package that is gone or no longer exports anything leaves no record.
func record(dir, out string) error {
	modulePath, pkgs, err := load(dir)
	if err != nil {
		return err
	}
	old, _ := filepath.Glob(filepath.Join(out, "*.txt")) // the pattern is valid
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for _, pkg := range pkgs {
		if lines := features(pkg); len(lines) > 0 {
			name := strings.ReplaceAll(strings.TrimPrefix(pkg.Path(), modulePath+"/"), "/", "_") + ".txt"
			if err := os.WriteFile(filepath.Join(out, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// load type-checks the public packages of the module in dir from the
// export data the compiler writes, so the types are exactly the compiled
// ones; a package that does not compile is an error naming it. A
// package's export data holds the types it uses from its dependencies.
func load(dir string) (modulePath string, pkgs []*types.Package, err error) {
	cmd := exec.Command("go", "list", "-e", "-export", "-f",
		"{{.ImportPath}}\t{{.Name}}\t{{.Export}}\t{{.Module.Path}}\t{{.GoFiles}}\t{{with .Error}}{{printf \"%q\" .Err}}{{end}}", "./...")
	cmd.Dir, cmd.Env, cmd.Stderr = dir, append(os.Environ(), "GOWORK=off"), os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", nil, fmt.Errorf("go list: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Split(line, "\t") // path, name, export data, module, Go files, error
		switch {
		case len(f) != 6 || strings.Contains("/"+f[0]+"/", "/internal/") || f[1] == "main" || f[4] == "[]" && f[5] == "":
			continue // whatever state they are in, they are no API
		case f[5] != "":
			msg, _ := strconv.Unquote(f[5])
			return "", nil, errors.New(f[0] + ": " + msg)
		case f[2] == "":
			return "", nil, errors.New(f[0] + ": no export data (does it compile?)")
		}
		modulePath, exports[f[0]] = f[3], f[2]
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		return os.Open(exports[path])
	})
	for path := range exports {
		pkg, err := imp.Import(path)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %v", path, err)
		}
		pkgs = append(pkgs, pkg)
	}
	return modulePath, pkgs, nil
}

// features lists the exported API of pkg, one feature a line, sorted and
// without duplicates:
//
//	pkg P, const C untyped int = 256
//	pkg P, func F([]byte) (T, error)
//	pkg P, type T struct, embedded *q.E
//	pkg P, method (*T) M(int) error
//	pkg P, type I interface, M(int) error
//	pkg P, type C interface{~int | ~uint}
//
// Types are spelled by types.TypeString, other packages' names qualified
// by the package's name. A method is recorded on every exported type
// whose method set holds it, promoted ones included: on (T) when T's
// method set has it, on (*T) when only *T's has. A constant is written
// exactly, so that a long string or a float that changes past its short
// form changes the line.
func features(pkg *types.Package) []string {
	r := &recorder{pkg: pkg}
	for _, name := range pkg.Scope().Names() {
		switch obj := pkg.Scope().Lookup(name).(type) {
		case *types.Const:
			r.emit(obj, "const", name, r.typ(obj.Type()), "=", obj.Val().ExactString())
		case *types.Var:
			r.emit(obj, "var", name, r.typ(obj.Type()))
		case *types.Func:
			r.emit(obj, "func", name+r.sig(obj.Type().(*types.Signature)))
		case *types.TypeName:
			if obj.Exported() {
				r.typeName(obj)
			}
		}
	}
	slices.Sort(r.lines)
	return slices.Compact(r.lines)
}

// recorder collects the features of one package.
type recorder struct {
	pkg   *types.Package
	lines []string
}

// emit records a feature of an exported obj: its words, joined by spaces.
func (r *recorder) emit(obj types.Object, words ...string) {
	if obj.Exported() {
		r.lines = append(r.lines, "pkg "+r.pkg.Path()+", "+strings.Join(words, " "))
	}
}

func (r *recorder) typ(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p == r.pkg {
			return ""
		}
		return p.Name()
	})
}

// sig is a signature without the func keyword and, as in cmd/api's
// record, without parameter names, so that renaming one changes no line
// (a func type inside it keeps them): [T Number](...T) T.
func (r *recorder) sig(s *types.Signature) string {
	var tparams []string
	for i := range s.TypeParams().Len() {
		tp := s.TypeParams().At(i)
		tparams = append(tparams, tp.Obj().Name()+" "+r.typ(tp.Constraint()))
	}
	var tuples [2][]*types.Var // the parameters', then the results' types
	for i, t := range []*types.Tuple{s.Params(), s.Results()} {
		for j := range t.Len() {
			tuples[i] = append(tuples[i], types.NewParam(token.NoPos, nil, "", t.At(j).Type()))
		}
	}
	f := r.typ(types.NewSignatureType(nil, nil, nil, types.NewTuple(tuples[0]...), types.NewTuple(tuples[1]...), s.Variadic()))
	if len(tparams) > 0 {
		return "[" + strings.Join(tparams, ", ") + "]" + f[len("func"):]
	}
	return f[len("func"):]
}

// typeName records a type declaration, its fields or methods, and the
// methods of its method sets.
func (r *recorder) typeName(obj *types.TypeName) {
	named, ok := obj.Type().(*types.Named)
	if obj.IsAlias() || !ok {
		r.emit(obj, "type", obj.Name(), "=", r.typ(types.Unalias(obj.Type())))
		return
	}
	decl := r.typ(named) // with its type parameters: List[T any, K comparable]
	switch u := named.Underlying().(type) {
	case *types.Struct:
		r.emit(obj, "type", decl, "struct")
		r.fields(named, decl+" struct,", u, map[*types.Struct]bool{})
	case *types.Interface:
		if !u.IsMethodSet() { // a constraint: its type set is the feature
			r.emit(obj, "type", decl, r.typ(u))
			return
		}
		r.emit(obj, "type", decl, "interface")
		for i := range u.NumMethods() { // its methods are its own features
			m := u.Method(i)
			r.emit(m, "type", decl, "interface,", m.Name()+r.sig(m.Type().(*types.Signature)))
			// As in cmd/api's record: only this package can implement it,
			// so a method added breaks no importer.
			if !m.Exported() {
				r.emit(obj, "type", decl, "interface, unexported methods")
			}
		}
		return
	default:
		r.emit(obj, "type", decl, r.typ(u))
	}
	values, pointers := types.NewMethodSet(named), types.NewMethodSet(types.NewPointer(named))
	for i := range pointers.Len() { // *T's method set holds T's
		m, recv := pointers.At(i), "(*"+obj.Name()+")"
		if values.Lookup(r.pkg, m.Obj().Name()) != nil {
			recv = "(" + obj.Name() + ")"
		}
		r.emit(m.Obj(), "method", recv, m.Obj().Name()+r.sig(m.Type().(*types.Signature)))
	}
}

// fields records the exported fields of s as fields of named, embedded
// ones as "embedded T". Unlike cmd/api, it also records the exported
// fields promoted from structs embedded under unexported names, at any
// depth (their own fields are recorded nowhere else), when they are not
// shadowed or ambiguous.
func (r *recorder) fields(named *types.Named, decl string, s *types.Struct, seen map[*types.Struct]bool) {
	for i := range s.NumFields() {
		f, t := s.Field(i), s.Field(i).Type()
		if obj, _, _ := types.LookupFieldOrMethod(named, true, r.pkg, f.Name()); obj == f {
			name := f.Name()
			if f.Embedded() {
				name = "embedded"
			}
			r.emit(f, "type", decl, name, r.typ(t))
		}
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if inner, ok := t.Underlying().(*types.Struct); ok && f.Embedded() && !f.Exported() && !seen[inner] {
			seen[inner] = true
			r.fields(named, decl, inner, seen)
		}
	}
}
