package codectest

import (
	"reflect"

	"github.com/iggywire/iggywire/codec"
)

// Same reports whether a and b are the same value as reflect.DeepEqual
// would say, except that a codec.Secret, at any depth of struct nesting and
// in slices and arrays of structs, compares by its bytes: DeepEqual
// compares the memory a Secret holds, so a body decoded twice would differ
// from itself. Nil and empty byte slices still differ, as they do for
// DeepEqual.
func Same(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return same(reflect.ValueOf(a), reflect.ValueOf(b))
}

// same walks structs whose fields are all exported, and slices and arrays
// of structs, down to a Secret or to what DeepEqual compares.
func same(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch k := a.Kind(); {
	case a.Type() == reflect.TypeOf(codec.Secret{}):
		return a.Interface().(codec.Secret).Equal(b.Interface().(codec.Secret))
	case k == reflect.Struct && every(a.NumField(), func(i int) bool { return a.Type().Field(i).IsExported() }):
		return every(a.NumField(), func(i int) bool { return same(a.Field(i), b.Field(i)) })
	case (k == reflect.Slice || k == reflect.Array) && a.Type().Elem().Kind() == reflect.Struct:
		if k == reflect.Slice && (a.IsNil() != b.IsNil() || a.Len() != b.Len()) {
			return false
		}
		return every(a.Len(), func(i int) bool { return same(a.Index(i), b.Index(i)) })
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// every reports whether f holds for each of 0..n-1.
func every(n int, f func(int) bool) bool {
	for i := range n {
		if !f(i) {
			return false
		}
	}
	return true
}
