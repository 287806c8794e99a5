package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"reflect"
	"sort"
	"strings"
)

// apply returns the codec file at path with m applied. The file is parsed,
// the function m.Func is looked up, the node m.Find names is located inside
// it with go/ast and replaced, and the function's body, printed again with
// go/printer, replaces the old body in the file's text; everything outside
// that one body is copied unchanged. It fails, naming the mutant, when the
// function or the node is not found (or is ambiguous), so that a rename or
// a rewrite of the code a mutant breaks is noticed, while an edit anywhere
// else in the file leaves the mutant as it was.
func apply(path string, m mutation) ([]byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return applySource(path, src, m)
}

// applySource is apply on the text src of the file at path.
func applySource(path string, src []byte, m mutation) ([]byte, error) {
	where := "codec/" + m.File
	fail := func(format string, args ...any) error {
		return fmt.Errorf("mutant %s: %s: %s", m.Name, where, fmt.Sprintf(format, args...))
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fail("%v", err)
	}
	var fn *ast.FuncDecl
	for _, d := range f.Decls {
		if d, ok := d.(*ast.FuncDecl); ok && d.Body != nil && funcName(d) == m.Func {
			fn = d
			break
		}
	}
	if fn == nil {
		return nil, fail("no func %s (renamed or moved? the mutant names the function it breaks)", m.Func)
	}
	if err := rewrite(fset, fn.Body, m); err != nil {
		return nil, fail("in %s: %v", m.Func, err)
	}
	var body bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&body, fset, fn.Body); err != nil {
		return nil, fail("printing %s: %v", m.Func, err)
	}
	from, to := fset.Position(fn.Body.Lbrace).Offset, fset.Position(fn.Body.Rbrace).Offset+1
	out := make([]byte, 0, len(src)+body.Len())
	out = append(append(append(out, src[:from]...), body.Bytes()...), src[to:]...)
	if _, err := parser.ParseFile(token.NewFileSet(), path, out, parser.SkipObjectResolution); err != nil {
		return nil, fail("the mutated file does not parse: %v", err)
	}
	if bytes.Equal(out, src) {
		return nil, fail("in %s: the mutation changes nothing", m.Func)
	}
	return out, nil
}

// funcName is the name a mutant gives a function: "name" for a function,
// "T.name" for a method on T and "(*T).name" for a method on *T.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	star, ok := t.(*ast.StarExpr)
	if ok {
		t = star.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	recv := "?"
	if id, isID := t.(*ast.Ident); isID {
		recv = id.Name
	}
	if ok {
		return "(*" + recv + ")." + d.Name.Name
	}
	return recv + "." + d.Name.Name
}

// rewrite replaces, inside body, the node m.Find names by m.Repl. Find is
// an expression, or else one or more consecutive statements (case clauses
// when it starts with "case" or "default"); nodes are compared as go/printer
// prints them, whitespace aside, so layout and comments never matter.
// Nth picks the Nth match in source order; 0 requires exactly one.
func rewrite(fset *token.FileSet, body *ast.BlockStmt, m mutation) error {
	if find, err := parser.ParseExprFrom(fset, "find", m.Find, parser.SkipObjectResolution); err == nil {
		repl, err := parser.ParseExprFrom(fset, "replacement", m.Repl, parser.SkipObjectResolution)
		if err != nil {
			return fmt.Errorf("replacement %q is not an expression: %v", m.Repl, err)
		}
		want := show(fset, find)
		var hits []reflect.Value
		walk(reflect.ValueOf(body), func(v reflect.Value) {
			if show(fset, v.Interface().(ast.Node)) == want {
				hits = append(hits, v)
			}
		}, nil)
		sort.SliceStable(hits, func(i, j int) bool {
			return hits[i].Interface().(ast.Node).Pos() < hits[j].Interface().(ast.Node).Pos()
		})
		v, err := pick(len(hits), m, "expression")
		if err != nil {
			return err
		}
		at(repl, hits[v].Interface().(ast.Node).Pos())
		hits[v].Set(reflect.ValueOf(repl))
		return nil
	}
	find, err := parseStmts(fset, m.Find)
	if err != nil {
		return fmt.Errorf("%q is neither an expression nor statements: %v", m.Find, err)
	}
	if len(find) == 0 {
		return fmt.Errorf("nothing to find")
	}
	var repl []ast.Stmt
	if strings.TrimSpace(m.Repl) != "" {
		if repl, err = parseStmts(fset, m.Repl); err != nil {
			return fmt.Errorf("replacement %q: %v", m.Repl, err)
		}
	}
	want := make([]string, len(find))
	for i, s := range find {
		want[i] = show(fset, s)
	}
	type hit struct {
		list reflect.Value
		at   int
	}
	var hits []hit
	walk(reflect.ValueOf(body), nil, func(list reflect.Value) {
		stmts := list.Interface().([]ast.Stmt)
	next:
		for at := 0; at+len(want) <= len(stmts); at++ {
			for i, w := range want {
				if show(fset, stmts[at+i]) != w {
					continue next
				}
			}
			hits = append(hits, hit{list, at})
		}
	})
	sort.SliceStable(hits, func(i, j int) bool {
		return hits[i].list.Index(hits[i].at).Interface().(ast.Node).Pos() <
			hits[j].list.Index(hits[j].at).Interface().(ast.Node).Pos()
	})
	n, err := pick(len(hits), m, "statement")
	if err != nil {
		return err
	}
	h := hits[n]
	old := h.list.Interface().([]ast.Stmt)
	for _, s := range repl {
		at(s, old[h.at].Pos())
	}
	stmts := append(append(append([]ast.Stmt{}, old[:h.at]...), repl...), old[h.at+len(find):]...)
	h.list.Set(reflect.ValueOf(stmts))
	return nil
}

// pick is the index among n matches that m.Nth selects.
func pick(n int, m mutation, kind string) (int, error) {
	switch {
	case m.Nth == 0 && n == 1:
		return 0, nil
	case n == 0:
		return 0, fmt.Errorf("%s `%s` found 0 times (rewritten? the mutant names the code it breaks)", kind, m.Find)
	case m.Nth == 0:
		return 0, fmt.Errorf("%s `%s` found %d times, want exactly once (or set Nth)", kind, m.Find, n)
	case m.Nth > n:
		return 0, fmt.Errorf("%s `%s` found %d times, Nth is %d", kind, m.Find, n, m.Nth)
	}
	return m.Nth - 1, nil
}

// parseStmts parses src as statements, or as case clauses when it starts
// with "case" or "default".
func parseStmts(fset *token.FileSet, src string) ([]ast.Stmt, error) {
	t := strings.TrimSpace(src)
	clauses := strings.HasPrefix(t, "case ") || strings.HasPrefix(t, "default:")
	if clauses {
		t = "switch {\n" + t + "\n}"
	}
	f, err := parser.ParseFile(fset, "stmts", "package p\nfunc _() {\n"+t+"\n}\n", parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	list := f.Decls[0].(*ast.FuncDecl).Body.List
	if clauses {
		sw, ok := list[0].(*ast.SwitchStmt)
		if !ok || len(list) != 1 {
			return nil, fmt.Errorf("not case clauses")
		}
		list = sw.Body.List
	}
	return list, nil
}

// show is n as go/printer prints it, with every run of white space one
// space.
func show(fset *token.FileSet, n ast.Node) string {
	var b strings.Builder
	if err := printer.Fprint(&b, fset, n); err != nil {
		return "<" + err.Error() + ">"
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// at moves every position in the tree n to pos, the position of the node
// it replaces: parsed from a string, n's positions would otherwise point into
// another file and make go/printer break lines at random.
func at(n ast.Node, pos token.Pos) {
	setPos(reflect.ValueOf(n), pos)
}

var posType = reflect.TypeOf(token.NoPos)

func setPos(v reflect.Value, pos token.Pos) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			setPos(v.Elem(), pos)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.Type() == posType {
				if f.Int() != 0 {
					f.SetInt(int64(pos))
				}
			} else if !resolution(f.Type()) {
				setPos(f, pos)
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			setPos(v.Index(i), pos)
		}
	}
}

// resolution reports whether t is one of go/ast's deprecated identifier
// resolution types (*ast.Object, *ast.Scope), which point back up the tree
// and must not be walked. They are named by string so that the code does
// not use the deprecated types.
func resolution(t reflect.Type) bool {
	return t.String() == "*ast.Object" || t.String() == "*ast.Scope"
}

var (
	exprType  = reflect.TypeOf((*ast.Expr)(nil)).Elem()
	stmtsType = reflect.TypeOf([]ast.Stmt(nil))
)

// walk visits the syntax tree under v: expr (if not nil) gets every
// settable ast.Expr slot, stmts (if not nil) every []ast.Stmt (a block's
// statements, a case clause's body).
func walk(v reflect.Value, expr, stmts func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if _, ok := v.Interface().(*ast.CommentGroup); ok || resolution(v.Type()) {
			return
		}
		walk(v.Elem(), expr, stmts)
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		if v.Type() == exprType && expr != nil && v.CanSet() {
			expr(v)
		}
		walk(v.Elem(), expr, stmts)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			walk(v.Field(i), expr, stmts)
		}
	case reflect.Slice:
		if v.Type() == stmtsType && stmts != nil && v.CanSet() {
			stmts(v)
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), expr, stmts)
		}
	}
}
