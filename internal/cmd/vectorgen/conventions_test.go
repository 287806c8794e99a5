package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConventions: every error verdict, a frame's included, names the
// convention its offset follows; every convention is used; the README's
// table lists them all, with their sections.
func TestConventions(t *testing.T) {
	ids := map[string]string{}
	for _, c := range conventionList() {
		ids[c.ID] = c.Section
	}
	used := map[string]bool{}
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			for _, e := range []*Expect{c.Expect, frameExpectOf(c)} {
				if e == nil || e.Verdict != "error" {
					continue
				}
				require.Contains(t, ids, e.Convention, c.Name)
				assert.Equal(t, conventionOf(e.Sentinel, e.Field), e.Convention, c.Name)
				used[e.Convention] = true
			}
		}
	}
	assert.Len(t, used, len(ids), "every convention is used")
	b, err := os.ReadFile(filepath.Join(vectorsDir, "README.md"))
	require.NoError(t, err)
	rows := regexp.MustCompile("(?m)^\\| `([a-z_0-9]+)` \\| ([0-9]) \\| ").FindAllStringSubmatch(string(b), -1)
	require.Len(t, rows, len(ids))
	for i, r := range rows {
		assert.Equal(t, conventionList()[i].ID, r[1])
		assert.Equal(t, ids[r[1]], r[2], r[1])
	}
}

func frameExpectOf(c Case) *Expect {
	if c.Frame == nil {
		return nil
	}
	return c.Frame.Expect
}
