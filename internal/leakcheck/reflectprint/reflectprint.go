// Package reflectprint is leakcheck for the third-party printers and
// comparers that walk a value by reflection, unexported fields included,
// and follow its pointers: go-spew (as testify's failure diff uses it,
// methods disabled), kr/pretty, go-cmp with every field exported, and
// testify's assert.Equal message. A secret that kept a typed pointer to its
// bytes would show its first byte through them (go-spew's (*uint8)(81)),
// even though every fmt verb prints a redaction; leakcheck's Matcher knows
// those forms. The printers and the check are its tests; StructTypes,
// which go-cmp needs, is shared with the fuzz targets.
//
// It is a package of its own because leakcheck is imported by the tests of
// the product packages (codec, lifecycle, lifecycle/tcp), which must import
// only the standard library: an importer's go.sum would otherwise grow.
// Only fuzz/, props/ and internal/ tests import this one.
package reflectprint

import "reflect"

// StructTypes returns a zero value of every struct type met by walking vs
// (fields, pointers, interfaces, elements, map keys and values): what
// cmp.AllowUnexported needs to compare them.
func StructTypes(vs ...any) []any {
	seen := map[reflect.Type]bool{}
	visited := map[uintptr]bool{}
	var out []any
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Struct:
			if !seen[v.Type()] {
				seen[v.Type()] = true
				out = append(out, reflect.Zero(v.Type()).Interface())
			}
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i))
			}
		case reflect.Pointer:
			if v.IsNil() || visited[v.Pointer()] {
				return
			}
			visited[v.Pointer()] = true
			walk(v.Elem())
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem())
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		case reflect.Map:
			for it := v.MapRange(); it.Next(); {
				walk(it.Key())
				walk(it.Value())
			}
		}
	}
	for _, v := range vs {
		walk(reflect.ValueOf(v))
	}
	return out
}
