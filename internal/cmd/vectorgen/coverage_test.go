package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// discrepancies are the points on which the SDKs disagreed; each is
// decided by exactly one case.
func discrepancies() []string {
	return []string{"D1", "D2", "D3", "D4", "D5a", "D5b", "D6a", "D6b", "D6c", "D7", "D8a", "D8b"}
}

// TestCoverage: every validity rule is the reported rule of an error
// case; every other rule that is not optional is named by some case; every
// mapping rule by a case that surfaces its code; every discrepancy by one
// case; every rule a case names exists; ids are unique.
func TestCoverage(t *testing.T) {
	rules := loadRules(t)
	named, reported, surfaced := map[string]int{}, map[string]int{}, map[string]int{}
	decided := map[string][]int{}
	ids := map[int]string{}
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			require.NotContains(t, ids, c.ID, "id %d used twice", c.ID)
			ids[c.ID] = c.Name
			for _, r := range c.Rules {
				require.Contains(t, rules, r, "%s names an unknown rule", c.Name)
				named[r]++
			}
			if c.Expect != nil && c.Expect.Verdict == "error" {
				reported[c.Expect.Rule]++
			}
			if c.Expect != nil && c.Expect.SDKCode != nil {
				surfaced[fmt.Sprintf("sdk.%d", *c.Expect.SDKCode)]++
			}
			if c.Expect != nil && c.Expect.SDKError == incompatibleName {
				surfaced["sdk.incompatible"]++
			}
			if c.Discrepancy != "" {
				decided[c.Discrepancy] = append(decided[c.Discrepancy], c.ID)
			}
		}
	}
	validity := 0
	for id, r := range rules {
		switch {
		case r.Class == ClassValidity:
			validity++
			assert.Positive(t, reported[id], "validity rule %s: no error case reports it", id)
		case r.Class == ClassMapping:
			assert.Positive(t, surfaced[id], "mapping rule %s: no case surfaces it", id)
		case !r.Optional:
			assert.Positive(t, named[id], "rule %s: no case names it", id)
		}
	}
	for _, d := range discrepancies() {
		assert.Len(t, decided[d], 1, "discrepancy %s", d)
	}
	assert.Len(t, decided, len(discrepancies()))
	t.Logf("%d cases, %d validity rules, each reported by an error case", len(ids), validity)
}

// TestReadmeTables: both READMEs list every discrepancy with the id of the
// case that decides it.
func TestReadmeTables(t *testing.T) {
	byID := map[int]string{}
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			if c.Discrepancy != "" {
				byID[c.ID] = c.Discrepancy
			}
		}
	}
	row := regexp.MustCompile(`(?m)^\| (D\d+[a-z]?) \| (\d+) \|`)
	for _, path := range []string{filepath.Join(moduleRoot, "docs", "interop.md"), filepath.Join(vectorsDir, "README.md")} {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		rows := row.FindAllStringSubmatch(string(b), -1)
		assert.Len(t, rows, len(discrepancies()), path)
		for _, r := range rows {
			id, err := strconv.Atoi(r[2])
			require.NoError(t, err)
			assert.Equal(t, r[1], byID[id], "%s: %s names case %d", path, r[1], id)
		}
	}
}
