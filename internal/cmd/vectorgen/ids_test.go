package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIDsStable compares the registry with every version of it in the
// repository's history: no entry may change its id or disappear. The case
// files must agree with the registry.
func TestIDsStable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(vectorsDir, registryFile))
	require.NoError(t, err)
	now, err := parseRegistry(b)
	require.NoError(t, err)

	byName := map[string]int{}
	for _, e := range now.IDs {
		byName[e.Name] = e.ID
	}
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			assert.Equal(t, byName[c.Name], c.ID, "%s: the id in the file is not the registry's", c.Name)
		}
	}

	versions := historyVersions(t)
	for rev, old := range versions {
		prev, err := parseRegistry(old)
		require.NoError(t, err, rev)
		assert.NoError(t, now.extends(prev), "ids.json at %s", rev)
	}
	t.Logf("compared with %d earlier versions of ids.json", len(versions))
}

// historyVersions returns every committed version of vectors/ids.json,
// by commit. Outside a git checkout there is no history to compare with,
// and the test says so.
func historyVersions(t *testing.T) map[string][]byte {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: no history to compare ids.json with")
	}
	path := "vectors/" + registryFile
	out, err := exec.Command("git", "-C", moduleRoot, "log", "--format=%H", "--", path).Output()
	if err != nil {
		t.Skipf("not a git checkout (%v): no history to compare ids.json with", err)
	}
	// A shallow clone (CI's default checkout) has only the commit under
	// test: comparing with it alone would let a renumbering pass.
	if shallow, _ := exec.Command("git", "-C", moduleRoot, "rev-parse", "--is-shallow-repository").Output(); strings.TrimSpace(string(shallow)) == "true" {
		t.Fatal("this is a shallow clone: the history of vectors/ids.json is not here, so a renumbered id would pass unseen; " +
			"fetch the history (git fetch --unshallow, or fetch-depth: 0 in a CI checkout) and run again")
	}
	versions := map[string][]byte{}
	for _, rev := range strings.Fields(string(out)) {
		b, err := exec.Command("git", "-C", moduleRoot, "show", rev+":"+path).Output()
		if err != nil {
			continue // the commit deleted the file
		}
		versions[rev] = bytes.TrimSpace(b)
	}
	return versions
}

// TestAssign: new names get new ids after the old ones, known names keep
// theirs, and a name no longer generated keeps its id reserved.
func TestAssign(t *testing.T) {
	r0, ids := Registry{}.assign([]string{"a", "b", "c"})
	require.Equal(t, map[string]int{"a": 1, "b": 2, "c": 3}, ids)

	r1, ids := r0.assign([]string{"new", "c", "a"}) // b dropped, new added first
	assert.Equal(t, map[string]int{"a": 1, "b": 2, "c": 3, "new": 4}, ids)
	assert.NoError(t, r1.extends(r0))
	check := func(r Registry) error {
		b, err := json.Marshal(r)
		require.NoError(t, err)
		_, err = parseRegistry(b)
		return err
	}
	assert.NoError(t, check(r1))

	renumbered := Registry{IDs: []Entry{{1, "b"}, {2, "a"}, {3, "c"}}}
	assert.Error(t, renumbered.extends(r0))
	assert.Error(t, Registry{IDs: r0.IDs[:2]}.extends(r0))
	assert.Error(t, check(Registry{IDs: []Entry{{1, "a"}, {3, "c"}}}))
	assert.Error(t, check(Registry{IDs: []Entry{{1, "a"}, {2, "a"}}}))
}

// extends reports the first way in which r fails to keep every entry of
// old with the same id, or nil.
func (r Registry) extends(old Registry) error {
	if len(r.IDs) < len(old.IDs) {
		return fmt.Errorf("registry shrank from %d to %d ids", len(old.IDs), len(r.IDs))
	}
	for i, e := range old.IDs {
		if r.IDs[i] != e {
			return fmt.Errorf("id %d was %q, is now %q", e.ID, e.Name, r.IDs[i].Name)
		}
	}
	return nil
}
