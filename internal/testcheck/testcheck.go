// Package testcheck holds the few checks the product packages' tests use,
// written with the standard library, so that an importer's go.sum gains no
// line from them (make importcheck). They keep testify's names and
// argument order: Require stops the test, Assert reports and goes on.
package testcheck

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// checker is require (fatal) or assert (not).
type checker struct{ fatal bool }

var (
	// Require stops the test on a failed check, as testify's require.
	Require = checker{fatal: true}
	// Assert reports a failed check and goes on, as testify's assert.
	Assert = checker{fatal: false}
)

// check reports a failed check (ok false) as what the format and args say,
// followed by the caller's message, if any. The text is built only on
// failure, since checks run in loops over many cases.
func (c checker) check(t testing.TB, ok bool, msgAndArgs []any, format string, args ...any) {
	t.Helper()
	if ok {
		return
	}
	what := fmt.Sprintf(format, args...)
	if len(msgAndArgs) > 0 {
		if format, ok := msgAndArgs[0].(string); ok {
			what += ": " + fmt.Sprintf(format, msgAndArgs[1:]...)
		} else {
			what += ": " + fmt.Sprint(msgAndArgs...)
		}
	}
	if c.fatal {
		t.Fatal(what)
	}
	t.Error(what)
}

// NoError checks that err is nil.
func (c checker) NoError(t testing.TB, err error, msgAndArgs ...any) {
	t.Helper()
	c.check(t, err == nil, msgAndArgs, "unexpected error: %v", err)
}

// Error checks that err is not nil.
func (c checker) Error(t testing.TB, err error, msgAndArgs ...any) {
	t.Helper()
	c.check(t, err != nil, msgAndArgs, "no error, want one")
}

// ErrorIs checks errors.Is(err, target).
func (c checker) ErrorIs(t testing.TB, err, target error, msgAndArgs ...any) {
	t.Helper()
	c.check(t, errors.Is(err, target), msgAndArgs, "error %v does not match %v", err, target)
}

// ErrorAs checks errors.As(err, target).
func (c checker) ErrorAs(t testing.TB, err error, target any, msgAndArgs ...any) {
	t.Helper()
	c.check(t, errors.As(err, target), msgAndArgs, "error %v (%T) is not a %v", err, err, reflect.TypeOf(target).Elem())
}

// Equal checks that actual deeply equals expected.
func (c checker) Equal(t testing.TB, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	c.check(t, reflect.DeepEqual(expected, actual), msgAndArgs, "got  %+v\nwant %+v", actual, expected)
}

// True checks that v is true.
func (c checker) True(t testing.TB, v bool, msgAndArgs ...any) {
	t.Helper()
	c.check(t, v, msgAndArgs, "false, want true")
}

// False checks that v is false.
func (c checker) False(t testing.TB, v bool, msgAndArgs ...any) {
	t.Helper()
	c.check(t, !v, msgAndArgs, "true, want false")
}

// Zero checks that v is its type's zero value.
func (c checker) Zero(t testing.TB, v any, msgAndArgs ...any) {
	t.Helper()
	c.check(t, v == nil || reflect.ValueOf(v).IsZero(), msgAndArgs, "%+v, want the zero value", v)
}

// NotZero checks that v is not its type's zero value.
func (c checker) NotZero(t testing.TB, v any, msgAndArgs ...any) {
	t.Helper()
	c.check(t, v != nil && !reflect.ValueOf(v).IsZero(), msgAndArgs, "%+v, want a value that is not zero", v)
}

// Nil checks that v is nil or a nil pointer, map, slice, func or channel.
func (c checker) Nil(t testing.TB, v any, msgAndArgs ...any) {
	t.Helper()
	rv := reflect.ValueOf(v)
	k := rv.Kind() // never Interface: v holds the value itself
	nilable := k == reflect.Pointer || k == reflect.Map || k == reflect.Slice || k == reflect.Func || k == reflect.Chan
	c.check(t, v == nil || nilable && rv.IsNil(), msgAndArgs, "%+v, want nil", v)
}

// Contains checks that s contains sub.
func (c checker) Contains(t testing.TB, s, sub string, msgAndArgs ...any) {
	t.Helper()
	c.check(t, strings.Contains(s, sub), msgAndArgs, "%q does not contain %q", s, sub)
}

// NotContains checks that the string s does not contain sub.
func (c checker) NotContains(t testing.TB, s, sub string, msgAndArgs ...any) {
	t.Helper()
	c.check(t, !strings.Contains(s, sub), msgAndArgs, "%q contains %q", s, sub)
}

// LessOrEqual checks a <= b.
func (c checker) LessOrEqual(t testing.TB, a, b float64, msgAndArgs ...any) {
	t.Helper()
	c.check(t, a <= b, msgAndArgs, "%v > %v", a, b)
}

// Len checks the length of v.
func (c checker) Len(t testing.TB, v any, n int, msgAndArgs ...any) {
	t.Helper()
	got := reflect.ValueOf(v).Len()
	c.check(t, got == n, msgAndArgs, "len %d, want %d", got, n)
}
