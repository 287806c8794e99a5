package codectest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/internal/codectest"
)

// TestSentinelsAreErrorsGo: the list holds, in order, one value for each
// exported errors.New variable of codec/errors.go, with its text; a sentinel
// added to the codec and forgotten here fails this test.
func TestSentinelsAreErrorsGo(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "../../codec/errors.go", nil, 0)
	require.NoError(t, err)
	var want []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				call, ok := vs.Values[i].(*ast.CallExpr)
				if !n.IsExported() || !ok || len(call.Args) != 1 {
					continue
				}
				lit, ok := call.Args[0].(*ast.BasicLit)
				require.True(t, ok, "%s is not errors.New of a literal", n.Name)
				text, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				want = append(want, text)
			}
		}
	}
	var got []string
	all := codectest.Sentinels()
	for i, s := range all {
		got = append(got, s.Error())
		for j, o := range all[:i] {
			assert.NotSame(t, o, s, "sentinels %d and %d are one value", j, i)
		}
	}
	require.Equal(t, want, got)
}
