// Command apirecord writes the exported API of the module's public
// packages to DIR/<package>.txt, one feature a line in the layout of the
// Go project's api/*.txt files, sorted:
//
//	go run ./internal/cmd/apirecord -o api   # make api-update
//
// `make api` compares a fresh record with api/ (diff -ru: the +/-
// features) and, when they differ, prints golang.org/x/exp/cmd/apidiff's
// compatible and incompatible changes against the last commit. apidiff
// classifies but keeps no record a reviewer can read (its -w export data
// is binary and holds the clone's absolute paths): this command adds that.
package main

import (
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
// package (codec.txt, lifecycle_tcp.txt), and deletes out's other .txt
// files. The packages are those of ./... not main nor under an internal/
// directory; their types come from the compiler's export data, so that a
// package that does not compile is an error naming it. GOWORK=off: the
// module as its own go.mod builds it.
func record(dir, out string) error {
	cmd := exec.Command("go", "list", "-e", "-export", "-f",
		"{{.ImportPath}}\t{{.Name}}\t{{.Export}}\t{{.Module.Path}}\t{{.GoFiles}}\t{{with .Error}}{{printf \"%q\" .Err}}{{end}}", "./...")
	cmd.Dir, cmd.Env, cmd.Stderr = dir, append(os.Environ(), "GOWORK=off"), os.Stderr
	listed, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list: %v", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	written := map[string]bool{}
	for _, line := range strings.Split(string(listed), "\n") {
		f := strings.Split(line, "\t") // path, name, export data, module, Go files, error
		switch {
		case len(f) != 6 || strings.Contains("/"+f[0]+"/", "/internal/") || f[1] == "main" || f[4] == "[]" && f[5] == "":
			continue // whatever state they are in, they are no API
		case f[5] != "" || f[2] == "":
			msg, _ := strconv.Unquote(f[5])
			return fmt.Errorf("%s: no export data: it or a package it imports does not compile\n%s", f[0], msg)
		}
		// A package's export data holds what it uses of its dependencies:
		// its importer reads no other file.
		pkg, err := importer.ForCompiler(token.NewFileSet(), "gc", func(string) (io.ReadCloser, error) {
			return os.Open(f[2])
		}).Import(f[0])
		if err != nil {
			return fmt.Errorf("%s: %v", f[0], err)
		}
		if lines := features(pkg); len(lines) > 0 {
			name := strings.ReplaceAll(strings.TrimPrefix(f[0], f[3]+"/"), "/", "_") + ".txt"
			written[name] = true
			if err := os.WriteFile(filepath.Join(out, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				return err
			}
		}
	}
	old, _ := filepath.Glob(filepath.Join(out, "*.txt")) // the pattern is valid
	for _, f := range old {
		if !written[filepath.Base(f)] {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// features lists the exported API of pkg, sorted, without duplicates:
//
//	pkg P, const C untyped int = 256
//	pkg P, type T struct, embedded *q.E
//	pkg P, method (*T) M(int) error
//
// Types are spelled by types.TypeString, other packages qualified by
// their name. A constant is written exactly, so that a long string or a
// float that changes past its short form changes the line.
func features(pkg *types.Package) []string {
	r := &recorder{pkg: pkg}
	for _, name := range pkg.Scope().Names() {
		switch obj := pkg.Scope().Lookup(name).(type) {
		case *types.Const:
			r.emit(obj, "const", name, types.TypeString(obj.Type(), r.qual), "=", obj.Val().ExactString())
		case *types.Var:
			r.emit(obj, "var", name, types.TypeString(obj.Type(), r.qual))
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

// qual qualifies other packages' names by their name, as cmd/api does.
func (r *recorder) qual(p *types.Package) string {
	if p == r.pkg {
		return ""
	}
	return p.Name()
}

// sig is a signature without the func keyword and, as in cmd/api's
// record, without parameter names, so that renaming one changes no line
// (a func type inside it keeps them): [T Number](...T) T.
func (r *recorder) sig(s *types.Signature) string {
	var tparams []string
	for i := range s.TypeParams().Len() {
		tp := s.TypeParams().At(i)
		tparams = append(tparams, tp.Obj().Name()+" "+types.TypeString(tp.Constraint(), r.qual))
	}
	var tuples [2][]*types.Var // the parameters', then the results' types
	for i, t := range []*types.Tuple{s.Params(), s.Results()} {
		for j := range t.Len() {
			tuples[i] = append(tuples[i], types.NewParam(token.NoPos, nil, "", t.At(j).Type()))
		}
	}
	f := types.TypeString(types.NewSignatureType(nil, nil, nil, types.NewTuple(tuples[0]...), types.NewTuple(tuples[1]...), s.Variadic()), r.qual)
	return strings.TrimPrefix("["+strings.Join(tparams, ", ")+"]", "[]") + f[len("func"):] // [] when not generic
}

// typeName records a type declaration, its fields, and, as cmd/api does,
// every method of its method sets, promoted ones included: on (T) when T's
// method set has it, on (*T) when only *T's has (an interface's on (I)).
func (r *recorder) typeName(obj *types.TypeName) {
	named, ok := obj.Type().(*types.Named)
	if obj.IsAlias() || !ok {
		r.emit(obj, "type", obj.Name(), "=", types.TypeString(types.Unalias(obj.Type()), r.qual))
		return
	}
	decl := types.TypeString(named, r.qual) // with its type parameters: List[T any, K comparable]
	if s, ok := named.Underlying().(*types.Struct); ok {
		r.emit(obj, "type", decl, "struct")
		r.fields(named, decl+" struct,", s, map[*types.Struct]bool{})
	} else if i, ok := named.Underlying().(*types.Interface); ok && i.IsMethodSet() {
		r.emit(obj, "type", decl, "interface")
	} else { // a constraint with its type set
		r.emit(obj, "type", decl, types.TypeString(named.Underlying(), r.qual))
	}
	values, pointers := types.NewMethodSet(named), types.NewMethodSet(types.NewPointer(named))
	if types.IsInterface(named) { // a pointer to one has no methods
		pointers = values
	}
	for i := range pointers.Len() { // *T's method set holds T's
		m, recv := pointers.At(i), "(*"+obj.Name()+")"
		if values.Lookup(r.pkg, m.Obj().Name()) != nil {
			recv = "(" + obj.Name() + ")"
		}
		r.emit(m.Obj(), "method", recv, m.Obj().Name()+r.sig(m.Type().(*types.Signature)))
		if !m.Obj().Exported() && types.IsInterface(named) { // as cmd/api says: only this package can implement it
			r.emit(obj, "type", decl, "interface, unexported methods")
		}
	}
}

// fields records the exported fields of s as named's, embedded ones as
// "embedded T", and, unlike cmd/api, those promoted from structs embedded
// under unexported names, whose fields no other line records.
func (r *recorder) fields(named *types.Named, decl string, s *types.Struct, seen map[*types.Struct]bool) {
	for i := range s.NumFields() {
		f, t := s.Field(i), s.Field(i).Type()
		if obj, _, _ := types.LookupFieldOrMethod(named, true, r.pkg, f.Name()); obj == f {
			name := f.Name()
			if f.Embedded() {
				name = "embedded"
			}
			r.emit(f, "type", decl, name, types.TypeString(t, r.qual))
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
