package main

import (
	"errors"
	"slices"
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

// budgets is the -budget flag: targets that get a budget of their own
// instead of -fuzztime, as "FuzzX=5000x" (repeatable). A target whose
// executions cost far more than the others' (FuzzSecretPrinting prints a
// value tree every way a program can) would otherwise take most of a
// count-budgeted smoke run.
type budgets map[string]budget

// Set implements flag.Value.
func (bs budgets) Set(s string) error {
	target, v, ok := strings.Cut(s, "=")
	if !ok || !strings.HasPrefix(target, "Fuzz") {
		return errors.New(`want a target and a budget: "FuzzX=5000x" or "FuzzX=30s"`)
	}
	var b budget
	if err := b.Set(v); err != nil {
		return err
	}
	bs[target] = b
	return nil
}

// String lists the overrides, sorted by target.
func (bs budgets) String() string {
	parts := make([]string, 0, len(bs))
	for t, b := range bs {
		parts = append(parts, t+"="+b.String())
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// budgetFor is target's budget: its own if -budget names it, else
// -fuzztime.
func (c config) budgetFor(target string) budget {
	if b, ok := c.budgets[target]; ok {
		return b
	}
	return c.fuzztime
}
