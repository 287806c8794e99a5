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

// The few checks these tests use, written with the standard library: the
// product's packages import nothing else, in their code or in their tests
// (make importcheck), so that an importer's go.sum gains no line. They
// keep testify's names and argument order: require stops the test on a
// failed check, assert reports it and goes on.

// checker is require (fatal) or assert (not).
type checker struct{ fatal bool }

var (
	// Require stops the test on a failed check, as testify's require.
	Require = checker{fatal: true}
	// Assert reports a failed check and goes on, as testify's assert.
	Assert = checker{fatal: false}
)

// fail reports a failed check with the caller's message, if any.
func (c checker) fail(t testing.TB, what string, msgAndArgs []any) {
	t.Helper()
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
	if err != nil {
		c.fail(t, fmt.Sprintf("unexpected error: %v", err), msgAndArgs)
	}
}

// ErrorIs checks errors.Is(err, target).
func (c checker) ErrorIs(t testing.TB, err, target error, msgAndArgs ...any) {
	t.Helper()
	if !errors.Is(err, target) {
		c.fail(t, fmt.Sprintf("error %v does not match %v", err, target), msgAndArgs)
	}
}

// ErrorAs checks errors.As(err, target).
func (c checker) ErrorAs(t testing.TB, err error, target any, msgAndArgs ...any) {
	t.Helper()
	if !errors.As(err, target) {
		c.fail(t, fmt.Sprintf("error %v (%T) is not a %T", err, err, reflect.ValueOf(target).Elem().Interface()), msgAndArgs)
	}
}

// Equal checks that actual deeply equals expected.
func (c checker) Equal(t testing.TB, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	if !reflect.DeepEqual(expected, actual) {
		c.fail(t, fmt.Sprintf("got  %+v\nwant %+v", actual, expected), msgAndArgs)
	}
}

// True checks that v is true.
func (c checker) True(t testing.TB, v bool, msgAndArgs ...any) {
	t.Helper()
	if !v {
		c.fail(t, "false, want true", msgAndArgs)
	}
}

// False checks that v is false.
func (c checker) False(t testing.TB, v bool, msgAndArgs ...any) {
	t.Helper()
	if v {
		c.fail(t, "true, want false", msgAndArgs)
	}
}

// Zero checks that v is its type's zero value.
func (c checker) Zero(t testing.TB, v any, msgAndArgs ...any) {
	t.Helper()
	if v != nil && !reflect.ValueOf(v).IsZero() {
		c.fail(t, fmt.Sprintf("%+v, want the zero value", v), msgAndArgs)
	}
}

// NotZero checks that v is not its type's zero value.
func (c checker) NotZero(t testing.TB, v any, msgAndArgs ...any) {
	t.Helper()
	if v == nil || reflect.ValueOf(v).IsZero() {
		c.fail(t, fmt.Sprintf("%+v, want a value that is not zero", v), msgAndArgs)
	}
}

// Error checks that err is not nil.
func (c checker) Error(t testing.TB, err error, msgAndArgs ...any) {
	t.Helper()
	if err == nil {
		c.fail(t, "no error, want one", msgAndArgs)
	}
}

// NotContains checks that the string s does not contain sub.
func (c checker) NotContains(t testing.TB, s, sub string, msgAndArgs ...any) {
	t.Helper()
	if strings.Contains(s, sub) {
		c.fail(t, fmt.Sprintf("%q contains %q", s, sub), msgAndArgs)
	}
}

// Nil checks that v is nil or a nil pointer, map, slice, func or channel.
func (c checker) Nil(t testing.TB, v any, msgAndArgs ...any) {
	t.Helper()
	if v == nil {
		return
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.Interface:
		if rv.IsNil() {
			return
		}
	}
	c.fail(t, fmt.Sprintf("%+v, want nil", v), msgAndArgs)
}

// Same checks that two pointers point at the same thing.
func (c checker) Same(t testing.TB, expected, actual any, msgAndArgs ...any) {
	t.Helper()
	e, a := reflect.ValueOf(expected), reflect.ValueOf(actual)
	if e.Kind() != reflect.Pointer || a.Kind() != reflect.Pointer || e.Type() != a.Type() || e.Pointer() != a.Pointer() {
		c.fail(t, fmt.Sprintf("%p and %p are not the same pointer", expected, actual), msgAndArgs)
	}
}

// Contains checks that s contains sub.
func (c checker) Contains(t testing.TB, s, sub string, msgAndArgs ...any) {
	t.Helper()
	if !strings.Contains(s, sub) {
		c.fail(t, fmt.Sprintf("%q does not contain %q", s, sub), msgAndArgs)
	}
}

// LessOrEqual checks a <= b.
func (c checker) LessOrEqual(t testing.TB, a, b float64, msgAndArgs ...any) {
	t.Helper()
	if a > b {
		c.fail(t, fmt.Sprintf("%v > %v", a, b), msgAndArgs)
	}
}

// ErrorIsf is ErrorIs with a format.
func (c checker) ErrorIsf(t testing.TB, err, target error, format string, args ...any) {
	t.Helper()
	c.ErrorIs(t, err, target, append([]any{format}, args...)...)
}

// NotErrorIs checks that err does not match target.
func (c checker) NotErrorIs(t testing.TB, err, target error, msgAndArgs ...any) {
	t.Helper()
	if errors.Is(err, target) {
		c.fail(t, fmt.Sprintf("%v matches %v", err, target), msgAndArgs)
	}
}

// Len checks the length of v.
func (c checker) Len(t testing.TB, v any, n int, msgAndArgs ...any) {
	t.Helper()
	if got := reflect.ValueOf(v).Len(); got != n {
		c.fail(t, fmt.Sprintf("len %d, want %d", got, n), msgAndArgs)
	}
}
