package codectest_test

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// TestSentinelsAreErrorsGo: the list (Classes) holds, in order, one value
// for each
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
	all := codectest.Classes()
	for i, c := range all {
		got = append(got, c.Err.Error())
		for j, o := range all[:i] {
			assert.NotSame(t, o.Err, c.Err, "sentinels %d and %d are one value", j, i)
		}
	}
	require.Equal(t, want, got)
}

// TestClassNames: every class has a name of its own, and Name finds it
// for the sentinel wrapped in a *codec.Error and wrapped again, and for
// nothing else.
func TestClassNames(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range codectest.Classes() {
		assert.NotEmpty(t, c.Name, "%v", c.Err)
		assert.False(t, seen[c.Name], "name %q given twice", c.Name)
		seen[c.Name] = true
		assert.Equal(t, c.Name, codectest.Name(c.Err))
		err := fmt.Errorf("context: %w", &codec.Error{Field: "f", Rule: "r", Err: c.Err})
		assert.Equal(t, c.Name, codectest.Name(err), "%v", err)
	}
	assert.Empty(t, codectest.Name(nil))
	assert.Empty(t, codectest.Name(errors.New("truncated")), "a look-alike is no sentinel")
	assert.Empty(t, codectest.Name(&codec.Error{Err: errors.New("other")}))
}
