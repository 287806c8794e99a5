package reflectprint_test

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

// printForms returns what each reflection-based printer prints for v, by
// printer.
func printForms(v any) map[string]string {
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

// diffForms returns what each comparer prints for a and b, which should be
// of one type and differ (in the secret): go-cmp's Diff with an Exporter
// for every type, kr/pretty's Diff, and the failure message of testify's
// assert.Equal.
func diffForms(a, b any) map[string]string {
	return map[string]string{
		"cmp.Diff Exporter":    cmp.Diff(a, b, cmp.Exporter(func(reflect.Type) bool { return true })),
		"pretty.Diff":          strings.Join(pretty.Diff(a, b), "\n"),
		"testify assert.Equal": assertEqualMessage(a, b),
	}
}

// recorder is an assert.TestingT that keeps what it is told.
type recorder struct{ msgs []string }

func (r *recorder) Errorf(format string, args ...any) {
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// assertEqualMessage returns the failure message testify's assert.Equal
// gives for expected and actual, or "" when they are equal.
func assertEqualMessage(expected, actual any) string {
	var r recorder
	assert.Equal(&r, expected, actual)
	return strings.Join(r.msgs, "\n")
}

// other returns a secret of the same length as secret that differs from it
// in every character, valid UTF-8 when secret is: the other side of a
// comparison, which must show a difference from the first byte on. An
// ASCII byte moves by one (0x7f down, the others up); any other character
// has the low bit of its code point flipped, which keeps its encoded length
// and its validity (surrogates and the limits come in even-odd pairs).
func other(secret []byte) []byte {
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

// leak returns a description of the first place secret shows in what a
// reflection-based printer prints for one of leakcheck's holders, or in
// what a comparer prints for a holder against the same holder built with
// other(secret) (where the other secret must not show either), or "". The
// secret must meet leakcheck.Leak's conditions.
func leak(secret []byte) (string, error) {
	o := other(secret)
	holders, err := leakcheck.Holders(secret)
	if err != nil {
		return "", err
	}
	others, err := leakcheck.Holders(o)
	if err != nil {
		return "", err
	}
	m, mo := leakcheck.NewMatcher(secret), leakcheck.NewMatcher(o)
	for name, v := range holders {
		if where := m.In(name, printForms(v)); where != "" {
			return where, nil
		}
		diffs := diffForms(v, others[name])
		if where := m.In(name, diffs); where != "" {
			return where, nil
		}
		if where := mo.In(name+" (against the other secret)", diffs); where != "" {
			return where, nil
		}
	}
	return "", nil
}

// missed returns the printers (of printForms, and of diffForms against
// other(b)) in whose output b, held plainly in an unexported field, does
// not show: the probe that proves leak can see bytes through them. It
// should be none.
func missed(b []byte) []string {
	m, mo := leakcheck.NewMatcher(b), leakcheck.NewMatcher(other(b))
	var out []string
	for how, text := range printForms(leakcheck.Hide(b)) {
		if m.Find(text) == "" {
			out = append(out, how)
		}
	}
	for how, text := range diffForms(leakcheck.Hide(b), leakcheck.Hide(other(b))) {
		if m.Find(text) == "" && mo.Find(text) == "" {
			out = append(out, how)
		}
	}
	sort.Strings(out)
	return out
}
