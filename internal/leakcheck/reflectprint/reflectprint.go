// Package reflectprint is leakcheck for the third-party printers and
// comparers that walk a value by reflection, unexported fields included,
// and follow its pointers: go-spew (as testify's failure diff uses it,
// methods disabled), kr/pretty, go-cmp with every field exported, and
// testify's assert.Equal message. A secret that kept a typed pointer to its
// bytes would show its first byte through them (go-spew's (*uint8)(81)),
// even though every fmt verb prints a redaction; leakcheck's Matcher knows
// those forms.
//
// It is a package of its own because leakcheck is imported by the tests of
// the product packages (codec, lifecycle, lifecycle/tcp), which must import
// only the standard library: an importer's go.sum would otherwise grow.
// Only fuzz/, props/ and internal/ tests import this one.
package reflectprint

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/davecgh/go-spew/spew"
	"github.com/google/go-cmp/cmp"
	"github.com/kr/pretty"
	"github.com/stretchr/testify/assert"

	"github.com/iggywire/iggywire/internal/leakcheck"
)

// The go-spew configurations printed with besides the default (which calls
// String and Error methods, also in unexported fields): methods disabled;
// methods disabled without addresses (testify's diff configuration, whose
// formatter prints addresses all the same); and methods called but the
// value walked after them.
var (
	spewNoMethods  = &spew.ConfigState{Indent: " ", DisableMethods: true}
	spewTestify    = &spew.ConfigState{Indent: " ", DisableMethods: true, DisablePointerAddresses: true, DisableCapacities: true, SortKeys: true}
	spewContinueOn = &spew.ConfigState{Indent: " ", ContinueOnMethod: true}
)

// PrintForms returns what each reflection-based printer prints for v, by
// printer.
func PrintForms(v any) map[string]string {
	return map[string]string{
		"spew.Sdump":                                      spew.Sdump(v),
		"spew DisableMethods":                             spewNoMethods.Sdump(v),
		"spew DisableMethods %#+v":                        spewNoMethods.Sprintf("%#+v", v),
		"spew DisableMethods DisablePointerAddresses":     spewTestify.Sdump(v),
		"spew ContinueOnMethod":                           spewContinueOn.Sdump(v),
		"pretty.Sprint":                                   pretty.Sprint(v),
		"pretty.Formatter %# v":                           fmt.Sprintf("%# v", pretty.Formatter(v)),
		"spew DisableMethods DisablePointerAddresses %+v": spewTestify.Sprintf("%+v", v),
	}
}

// DiffForms returns what each comparer prints for a and b, which should be
// of one type and differ (in the secret): go-cmp's Diff with every struct
// type met allowed unexported and with an Exporter for all, kr/pretty's
// Diff, and the failure message of testify's assert.Equal.
func DiffForms(a, b any) map[string]string {
	return map[string]string{
		"cmp.Diff AllowUnexported": cmp.Diff(a, b, cmp.AllowUnexported(StructTypes(a, b)...)),
		"cmp.Diff Exporter":        cmp.Diff(a, b, cmp.Exporter(func(reflect.Type) bool { return true })),
		"pretty.Diff":              strings.Join(pretty.Diff(a, b), "\n"),
		"testify assert.Equal":     AssertEqualMessage(a, b),
	}
}

// recorder is an assert.TestingT that keeps what it is told.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// AssertEqualMessage returns the failure message testify's assert.Equal
// gives for expected and actual, or "" when they are equal.
func AssertEqualMessage(expected, actual any) string {
	var r recorder
	assert.Equal(&r, expected, actual)
	return strings.Join(r.msgs, "\n")
}

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

// Other returns a secret of the same length as secret that differs from it
// in every character, valid UTF-8 when secret is: the other side of a
// comparison, which must show a difference from the first byte on. An
// ASCII byte moves by one (0x7f down, the others up); any other character
// has the low bit of its code point flipped, which keeps its encoded length
// and its validity (surrogates and the limits come in even-odd pairs).
func Other(secret []byte) []byte {
	out := make([]byte, 0, len(secret))
	for i := 0; i < len(secret); {
		r, size := utf8.DecodeRune(secret[i:])
		switch {
		case r < 0x7f:
			out = append(out, byte(r)+1)
		case r == 0x7f:
			out = append(out, 0x7e)
		case r == utf8.RuneError && size == 1:
			out = append(out, secret[i]^1)
		default:
			out = utf8.AppendRune(out, r^1)
		}
		i += size
	}
	return out
}

// Leak returns a description of the first place secret shows in what a
// reflection-based printer prints for one of leakcheck's holders, or in
// what a comparer prints for a holder against the same holder built with
// Other(secret) (where the other secret must not show either), or "". The
// secret must meet leakcheck.Leak's conditions.
func Leak(secret []byte) (string, error) {
	other := Other(secret)
	holders, err := leakcheck.Holders(secret)
	if err != nil {
		return "", err
	}
	others, err := leakcheck.Holders(other)
	if err != nil {
		return "", err
	}
	m, mo := leakcheck.NewMatcher(secret), leakcheck.NewMatcher(other)
	for name, v := range holders {
		if where := Find(m, name, PrintForms(v)); where != "" {
			return where, nil
		}
		diffs := DiffForms(v, others[name])
		if where := Find(m, name, diffs); where != "" {
			return where, nil
		}
		if where := Find(mo, name+" (against the other secret)", diffs); where != "" {
			return where, nil
		}
	}
	return "", nil
}

// Find returns a description of the first of forms in which m finds its
// secret, or "".
func Find(m *leakcheck.Matcher, name string, forms map[string]string) string {
	for how, text := range forms {
		if f := m.Find(text); f != "" {
			return fmt.Sprintf("%s printed with %s shows the secret as %q: %s", name, how, f, text)
		}
	}
	return ""
}

// Missed returns the printers (of PrintForms, and of DiffForms against
// Other(b)) in whose output b, held plainly in an unexported field, does
// not show: the probe that proves Leak can see bytes through them. It
// should be none.
func Missed(b []byte) []string {
	m, mo := leakcheck.NewMatcher(b), leakcheck.NewMatcher(Other(b))
	var missed []string
	for how, text := range PrintForms(leakcheck.Hide(b)) {
		if m.Find(text) == "" {
			missed = append(missed, how)
		}
	}
	for how, text := range DiffForms(leakcheck.Hide(b), leakcheck.Hide(Other(b))) {
		if m.Find(text) == "" && mo.Find(text) == "" {
			missed = append(missed, how)
		}
	}
	sort.Strings(missed)
	return missed
}
