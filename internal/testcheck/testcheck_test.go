package testcheck

import (
	"errors"
	"fmt"
	"testing"
)

var assert = Assert

// TestCheckers: each check fails when it must and passes when it must, so
// that the tests built on them assert something.
func TestCheckers(t *testing.T) {
	x := 1
	errA := errors.New("a")
	wrapped := fmt.Errorf("w: %w", errA)
	var target *wrappedError
	cases := []struct {
		name string
		run  func(tb testing.TB)
		fail bool
	}{
		{"NoError nil", func(tb testing.TB) { assert.NoError(tb, nil) }, false},
		{"NoError err", func(tb testing.TB) { assert.NoError(tb, errA) }, true},
		{"ErrorIs wrapped", func(tb testing.TB) { assert.ErrorIs(tb, wrapped, errA) }, false},
		{"ErrorIs other", func(tb testing.TB) { assert.ErrorIs(tb, errA, wrapped) }, true},
		{"ErrorAs match", func(tb testing.TB) { assert.ErrorAs(tb, &wrappedError{}, &target) }, false},
		{"ErrorAs other", func(tb testing.TB) { assert.ErrorAs(tb, errA, &target) }, true},
		{"Equal", func(tb testing.TB) { assert.Equal(tb, []byte{1}, []byte{1}) }, false},
		{"Equal differs", func(tb testing.TB) { assert.Equal(tb, []byte{1}, []byte{2}) }, true},
		{"Equal types differ", func(tb testing.TB) { assert.Equal(tb, uint64(1), 1) }, true},
		{"True", func(tb testing.TB) { assert.True(tb, false) }, true},
		{"False", func(tb testing.TB) { assert.False(tb, true) }, true},
		{"Zero", func(tb testing.TB) { assert.Zero(tb, 0) }, false},
		{"Zero not", func(tb testing.TB) { assert.Zero(tb, 2) }, true},
		{"Nil", func(tb testing.TB) { assert.Nil(tb, (*int)(nil)) }, false},
		{"Nil not", func(tb testing.TB) { assert.Nil(tb, &x) }, true},
		{"Nil untyped", func(tb testing.TB) { assert.Nil(tb, nil) }, false},
		{"Nil of a value", func(tb testing.TB) { assert.Nil(tb, 0) }, true},
		{"NotZero", func(tb testing.TB) { assert.NotZero(tb, 0) }, true},
		{"Error", func(tb testing.TB) { assert.Error(tb, nil) }, true},
		{"NotContains", func(tb testing.TB) { assert.NotContains(tb, "secret", "cre") }, true},
	}
	for _, tc := range cases {
		rec := &recorder{TB: t}
		tc.run(rec)
		if rec.failed != tc.fail {
			t.Errorf("%s: failed = %t, want %t", tc.name, rec.failed, tc.fail)
		}
	}
}

type wrappedError struct{}

func (*wrappedError) Error() string { return "wrapped" }

// recorder is a testing.TB that records a failure instead of reporting it.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(...any)      { r.failed = true }
func (r *recorder) Fatal(args ...any) { r.failed = true }
