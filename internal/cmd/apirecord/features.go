package main

import (
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// Features lists the exported API of pkg, one feature a line in the format
// of the Go project's api/*.txt files (cmd/api), sorted and without
// duplicates:
//
//	pkg P, func F([]uint8) (T, error)
//	pkg P, method (*T) M(int) error
//	pkg P, type T struct
//	pkg P, type T struct, Field Type
//	pkg P, type T struct, embedded *E
//	pkg P, type I interface { M, N }
//	pkg P, type I interface, M(int) error
//	pkg P, type I interface, unexported methods
//	pkg P, type N int
//	pkg P, type A = B
//	pkg P, const C = 256
//	pkg P, const C untyped int
//	pkg P, var V error
//
// Types are written as cmd/api writes them: byte as uint8, rune as int32,
// any as interface{}, aliases by what they stand for, names of other
// packages qualified by the package name, type parameters as $0, $1, ...
// A method is recorded on every exported type whose method set holds it,
// promoted ones included: on (T) when T's method set has it, on (*T) when
// only *T's has.
func Features(pkg *types.Package) []string {
	w := &walker{pkg: pkg, prefix: "pkg " + pkg.Path() + ", "}
	scope := pkg.Scope()
	for _, name := range scope.Names() { // sorted
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			w.emit("const " + name + " " + w.typ(obj.Type()))
			short, exact := obj.Val().String(), obj.Val().ExactString()
			if short == exact {
				w.emit("const " + name + " = " + short)
			} else {
				w.emit("const " + name + " = " + short + "  // " + exact)
			}
		case *types.Var:
			w.emit("var " + name + " " + w.typ(obj.Type()))
		case *types.Func:
			w.emit("func " + name + w.signature(obj.Type().(*types.Signature)))
		case *types.TypeName:
			w.typeName(obj)
		}
	}
	slices.Sort(w.features)
	return slices.Compact(w.features)
}

// walker collects the features of one package.
type walker struct {
	pkg      *types.Package
	prefix   string
	features []string
}

func (w *walker) emit(feature string) {
	w.features = append(w.features, w.prefix+feature)
}

// typeName records a type declaration, its fields or methods, and the
// methods of its method sets.
func (w *walker) typeName(obj *types.TypeName) {
	name := obj.Name()
	if obj.IsAlias() {
		w.emit("type " + name + " = " + w.typ(types.Unalias(obj.Type())))
		return
	}
	named, ok := obj.Type().(*types.Named)
	if !ok { // a predeclared-like type name; not in a package scope
		return
	}
	tparams := named.TypeParams()
	decl := name + w.typeParams(tparams, true)
	switch u := named.Underlying().(type) {
	case *types.Struct:
		w.structType(named, decl, u)
	case *types.Interface:
		w.interfaceType(decl, u)
		return // its methods are its own features
	default:
		w.emit("type " + decl + " " + w.typ(u))
	}
	recv := name + w.typeParams(tparams, false)
	valueSet := types.NewMethodSet(named)
	done := map[string]bool{}
	for i := range valueSet.Len() {
		sel := valueSet.At(i)
		if m := sel.Obj(); m.Exported() {
			done[m.Name()] = true
			w.emit("method (" + recv + ") " + m.Name() + w.signature(sel.Type().(*types.Signature)))
		}
	}
	pointerSet := types.NewMethodSet(types.NewPointer(named))
	for i := range pointerSet.Len() {
		sel := pointerSet.At(i)
		if m := sel.Obj(); m.Exported() && !done[m.Name()] {
			w.emit("method (*" + recv + ") " + m.Name() + w.signature(sel.Type().(*types.Signature)))
		}
	}
}

// structType records a struct type and its exported fields, embedded
// ones as "embedded T", as cmd/api does. Unlike cmd/api, it also records
// the exported fields promoted from embedded structs of unexported types
// (whose own fields are recorded nowhere else), as fields of named.
// Unexported fields are not recorded.
func (w *walker) structType(named *types.Named, decl string, s *types.Struct) {
	scope := "type " + decl + " struct"
	w.emit(scope)
	for i := range s.NumFields() {
		if f := s.Field(i); f.Exported() {
			w.emit(scope + ", " + w.field(f))
		}
	}
	for _, f := range promotedFields(s) {
		obj, _, _ := types.LookupFieldOrMethod(named, true, w.pkg, f.Name())
		if obj == f { // not shadowed, not ambiguous
			w.emit(scope + ", " + w.field(f))
		}
	}
}

// field is "Name Type", or "embedded Type" for an embedded field.
func (w *walker) field(f *types.Var) string {
	if f.Embedded() {
		return "embedded " + w.typ(f.Type())
	}
	return f.Name() + " " + w.typ(f.Type())
}

// promotedFields lists the exported fields of the structs that s embeds
// under unexported names, at any depth through such embeddings.
func promotedFields(s *types.Struct) []*types.Var {
	var out []*types.Var
	seen := map[*types.Struct]bool{s: true}
	var walk func(*types.Struct)
	walk = func(s *types.Struct) {
		for i := range s.NumFields() {
			f := s.Field(i)
			if !f.Embedded() || f.Exported() {
				continue
			}
			t := f.Type()
			if p, ok := t.Underlying().(*types.Pointer); ok {
				t = p.Elem()
			}
			inner, ok := t.Underlying().(*types.Struct)
			if !ok || seen[inner] {
				continue
			}
			seen[inner] = true
			for j := range inner.NumFields() {
				if g := inner.Field(j); g.Exported() {
					out = append(out, g)
				}
			}
			walk(inner)
		}
	}
	walk(s)
	return out
}

// interfaceType records an interface type's methods, embedded ones
// included, and, as cmd/api does, either the list of their names or, when
// some are unexported (so that only this package can implement it and it
// may gain methods), the marker "unexported methods". A constraint's type
// set is recorded with the names, as "type C interface { ~int | ~uint }".
func (w *walker) interfaceType(decl string, it *types.Interface) {
	scope := "type " + decl + " interface"
	var names []string
	complete := true
	for i := range it.NumMethods() {
		m := it.Method(i)
		if !m.Exported() {
			complete = false
			continue
		}
		names = append(names, m.Name())
		w.emit(scope + ", " + m.Name() + w.signature(m.Type().(*types.Signature)))
	}
	if !complete {
		w.emit(scope + ", unexported methods")
		return
	}
	var terms []string
	if !it.IsMethodSet() {
		for i := range it.NumEmbeddeds() {
			e := it.EmbeddedType(i)
			if u, ok := types.Unalias(e).Underlying().(*types.Interface); ok && u.IsMethodSet() {
				continue // its methods are listed already
			}
			terms = append(terms, w.typ(e))
		}
	}
	slices.Sort(names)
	elems := append(terms, names...)
	if len(elems) == 0 {
		w.emit(scope + " {}")
		return
	}
	w.emit(scope + " { " + strings.Join(elems, ", ") + " }")
}

// typeParams writes [$0 C0, $1 C1] (with constraints) or [$0, $1].
func (w *walker) typeParams(list *types.TypeParamList, constraints bool) string {
	if list.Len() == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := range list.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		tp := list.At(i)
		b.WriteString(w.typ(tp))
		if constraints {
			b.WriteByte(' ')
			b.WriteString(w.typ(tp.Constraint()))
		}
	}
	b.WriteByte(']')
	return b.String()
}

// signature writes a func's type parameters, parameters and results
// without the func keyword: [$0 C](int, ...string) (T, error).
func (w *walker) signature(sig *types.Signature) string {
	var b strings.Builder
	b.WriteString(w.typeParams(sig.TypeParams(), true))
	b.WriteString(w.params(sig.Params(), sig.Variadic()))
	switch res := sig.Results(); res.Len() {
	case 0:
	case 1:
		b.WriteByte(' ')
		b.WriteString(w.typ(res.At(0).Type()))
	default:
		b.WriteByte(' ')
		b.WriteString(w.params(res, false))
	}
	return b.String()
}

// params writes a tuple's types in parentheses, the last as ...T when
// variadic.
func (w *walker) params(t *types.Tuple, variadic bool) string {
	var b strings.Builder
	b.WriteByte('(')
	for i := range t.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		typ := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			b.WriteString("...")
			typ = typ.(*types.Slice).Elem()
		}
		b.WriteString(w.typ(typ))
	}
	b.WriteByte(')')
	return b.String()
}

// typ writes a type as cmd/api does.
func (w *walker) typ(t types.Type) string {
	switch t := t.(type) {
	case *types.Alias:
		return w.typ(types.Unalias(t))
	case *types.Basic:
		if t.Kind() == types.UnsafePointer {
			return "unsafe.Pointer"
		}
		return types.Typ[t.Kind()].Name() // byte is uint8, rune int32
	case *types.Pointer:
		return "*" + w.typ(t.Elem())
	case *types.Slice:
		return "[]" + w.typ(t.Elem())
	case *types.Array:
		return "[" + strconv.FormatInt(t.Len(), 10) + "]" + w.typ(t.Elem())
	case *types.Map:
		return "map[" + w.typ(t.Key()) + "]" + w.typ(t.Elem())
	case *types.Chan:
		elem := w.typ(t.Elem())
		switch t.Dir() {
		case types.SendOnly:
			return "chan<- " + elem
		case types.RecvOnly:
			return "<-chan " + elem
		}
		if c, ok := t.Elem().(*types.Chan); ok && c.Dir() == types.RecvOnly {
			elem = "(" + elem + ")"
		}
		return "chan " + elem
	case *types.Signature:
		return "func" + w.signature(t)
	case *types.Struct:
		var fields []string
		for i := range t.NumFields() {
			f := t.Field(i)
			if f.Embedded() {
				fields = append(fields, w.typ(f.Type()))
			} else {
				fields = append(fields, f.Name()+" "+w.typ(f.Type()))
			}
		}
		if len(fields) == 0 {
			return "struct{}"
		}
		return "struct{ " + strings.Join(fields, "; ") + " }"
	case *types.Interface:
		var elems []string
		for i := range t.NumEmbeddeds() {
			elems = append(elems, w.typ(t.EmbeddedType(i)))
		}
		for i := range t.NumExplicitMethods() {
			m := t.ExplicitMethod(i)
			elems = append(elems, m.Name()+w.signature(m.Type().(*types.Signature)))
		}
		if len(elems) == 0 {
			return "interface{}"
		}
		return "interface{ " + strings.Join(elems, "; ") + " }"
	case *types.Union:
		terms := make([]string, t.Len())
		for i := range t.Len() {
			term := t.Term(i)
			terms[i] = w.typ(term.Type())
			if term.Tilde() {
				terms[i] = "~" + terms[i]
			}
		}
		return strings.Join(terms, " | ")
	case *types.TypeParam:
		return "$" + strconv.Itoa(t.Index())
	case *types.Named:
		var b strings.Builder
		if p := t.Obj().Pkg(); p != nil && p != w.pkg {
			b.WriteString(p.Name())
			b.WriteByte('.')
		}
		b.WriteString(t.Obj().Name())
		if args := t.TypeArgs(); args.Len() > 0 {
			b.WriteByte('[')
			for i := range args.Len() {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(w.typ(args.At(i)))
			}
			b.WriteByte(']')
		}
		return b.String()
	case *types.Tuple:
		return w.params(t, false)
	}
	return t.String()
}
