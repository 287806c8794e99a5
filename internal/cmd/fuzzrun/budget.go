package main

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// budget is a -fuzztime value as go test takes it: a duration ("7s",
// "10m") or an execution count ("50000x"). A count has no wall-clock
// deadline, so it cannot meet Go 1.26's deadline race (go.dev/issue/75804);
// CI uses one for that reason.
type budget struct {
	d     time.Duration
	count int64 // > 0 for an "Nx" budget
}

// errBudget is the error of a -fuzztime that is neither form.
var errBudget = errors.New(`want a duration ("7s") or an execution count ("50000x")`)

// Set implements flag.Value.
func (b *budget) Set(s string) error {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		count, err := strconv.ParseInt(n, 10, 64)
		if err != nil || count <= 0 {
			return errBudget
		}
		*b = budget{count: count}
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return errBudget
	}
	*b = budget{d: d}
	return nil
}

// String returns the value as go test's -fuzztime takes it.
func (b *budget) String() string {
	if b.count > 0 {
		return strconv.FormatInt(b.count, 10) + "x"
	}
	return b.d.String()
}
