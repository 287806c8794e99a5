package codectest

import (
	"reflect"

	"github.com/iggywire/iggywire/codec"
)

var secretType = reflect.TypeOf(codec.Secret{})

// Same reports whether a and b are the same value as reflect.DeepEqual
// would say, except that a codec.Secret, at any depth of struct nesting and
// in slices and arrays of structs, compares by its bytes: DeepEqual
// compares the memory a Secret holds, so a body decoded twice would differ
// from itself. Nil and empty byte slices still differ, as they do for
// DeepEqual.
func Same(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() {
		return !va.IsValid() && !vb.IsValid()
	}
	return same(va, vb)
}

// same walks structs whose fields are all exported, and slices and arrays
// of structs, down to a Secret or to what DeepEqual compares.
func same(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch {
	case a.Type() == secretType:
		return a.Interface().(codec.Secret).Equal(b.Interface().(codec.Secret))
	case a.Kind() == reflect.Struct && exportedOnly(a.Type()):
		for i := range a.NumField() {
			if !same(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case (a.Kind() == reflect.Slice || a.Kind() == reflect.Array) && a.Type().Elem().Kind() == reflect.Struct:
		if a.Kind() == reflect.Slice && (a.IsNil() != b.IsNil() || a.Len() != b.Len()) {
			return false
		}
		for i := range a.Len() {
			if !same(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// exportedOnly reports whether every field of the struct type t is
// exported, so that each can be compared on its own.
func exportedOnly(t reflect.Type) bool {
	for i := range t.NumField() {
		if !t.Field(i).IsExported() {
			return false
		}
	}
	return true
}
