package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strings"
)

// apply returns the codec file src (at path) with m applied: the function
// m.Func is found with go/ast, and m.Find is replaced by m.Repl in that
// function's body alone, as text. Find must occur there exactly once;
// white space between its tokens may be any run of white space, so its
// indentation and line breaks need not be the file's, and it must be a
// whole expression or run of statements outside any comment (whole). It
// fails, naming the mutant, when the function is gone or Find occurs in it
// zero times, more than once or not whole: a rename or a rewrite of the
// code it breaks.
func apply(path string, src []byte, m mutation) ([]byte, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("mutant %s: codec/%s: %s", m.Name, m.File, fmt.Sprintf(format, args...))
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return nil, fail("%v", err)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || funcName(fn) != m.Func {
			continue
		}
		from, to := fset.Position(fn.Body.Lbrace).Offset, fset.Position(fn.Body.Rbrace).Offset
		hits := pattern(m.Find).FindAllIndex(src[from:to], -1)
		if len(hits) != 1 {
			return nil, fail("in %s: `%s` found %d times, want exactly once (renamed or rewritten? the mutant names the code it breaks)", m.Func, m.Find, len(hits))
		}
		start, end := from+hits[0][0], from+hits[0][1]
		if !whole(fset, f.Comments, fn.Body, start, end) {
			return nil, fail("in %s: `%s` is not a whole expression or statements (rewritten? the mutant names the code it breaks)", m.Func, m.Find)
		}
		out := append(append(append([]byte{}, src[:start]...), m.Repl...), src[end:]...)
		if _, err := parser.ParseFile(token.NewFileSet(), path, out, parser.SkipObjectResolution); err != nil {
			return nil, fail("the mutated file does not parse: %v", err)
		}
		if bytes.Equal(out, src) {
			return nil, fail("in %s: the mutation changes nothing", m.Func)
		}
		return out, nil
	}
	return nil, fail("no func %s (renamed or moved? the mutant names the function it breaks)", m.Func)
}

// funcName is the name a mutant gives a function: "name" for a function,
// "T.name" for a method on T and "(*T).name" for a method on *T.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	recv := types.ExprString(d.Recv.List[0].Type)
	if strings.HasPrefix(recv, "*") {
		recv = "(" + recv + ")"
	}
	return recv + "." + d.Name.Name
}

// pattern matches find's tokens separated by any white space, and not as
// a piece of a longer name or number (`8 - n` does not match `18 - n`).
func pattern(find string) *regexp.Regexp {
	t := strings.TrimSpace(find)
	p := regexp.MustCompile(`\s+`).ReplaceAllLiteralString(regexp.QuoteMeta(t), `\s+`) // QuoteMeta leaves white space
	if regexp.MustCompile(`^\w`).MatchString(t) {
		p = `\b` + p
	}
	if regexp.MustCompile(`\w$`).MatchString(t) {
		p += `\b`
	}
	return regexp.MustCompile(p)
}

// whole reports whether src[start:end] is a whole expression or a run of
// whole statements of body and overlaps no comment: the text left in a
// comment by a rewrite, or made part of a larger expression (`x > y` of
// `x > y*2`), would otherwise take a mutant that then breaks something
// else, or nothing.
func whole(fset *token.FileSet, comments []*ast.CommentGroup, body *ast.BlockStmt, start, end int) bool {
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	for _, c := range comments {
		if off(c.Pos()) < end && start < off(c.End()) {
			return false
		}
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case ast.Expr:
			found = found || off(n.Pos()) == start && off(n.End()) == end
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		}
		for i := range list {
			for _, last := range list[i:] {
				found = found || off(list[i].Pos()) == start && off(last.End()) == end
			}
		}
		return !found
	})
	return found
}
