package main

import (
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCaseIDsStable: every case has an id, ids are unique per mode, a
// vector-derived case is v<vector id>, and the registry keeps every entry
// of every committed version of it (same name, same id).
func TestCaseIDsStable(t *testing.T) {
	vs, reg := loadAll(t)
	server, err := serverCases(vs, reg)
	require.NoError(t, err)
	client, err := clientCases(vs, reg)
	require.NoError(t, err)
	check := func(mode string, ids []string, vectors []int) {
		seen := map[string]bool{}
		own := reg.fromVectors(mode)
		for i, id := range ids {
			assert.False(t, seen[id], "%s: id %s twice", mode, id)
			seen[id] = true
			if e, ok := own[vectors[i]]; ok && vectors[i] != 0 {
				assert.Equal(t, e.ID, id, "%s: vector %d holds an own case and plays under its id", mode, vectors[i])
			} else if vectors[i] != 0 {
				assert.Equal(t, "v"+strconv.Itoa(vectors[i]), id)
			} else {
				assert.True(t, strings.HasPrefix(id, mode[:1]), "%s: own case id %s", mode, id)
			}
		}
	}
	var ids []string
	var vec []int
	for _, c := range server {
		ids, vec = append(ids, c.ID), append(vec, c.Vector)
	}
	check("server", ids, vec)
	ids, vec = nil, nil
	for _, c := range client {
		ids, vec = append(ids, c.ID), append(vec, c.Vector)
	}
	check("client", ids, vec)

	for mode, entries := range reg.Modes {
		seen := map[string]bool{}
		for i, e := range entries {
			assert.Equal(t, mode[:1]+strconv.Itoa(i+1), e.ID, "%s: ids are numbered in order, none skipped", mode)
			assert.False(t, seen[e.Name], "%s: %s registered twice", mode, e.Name)
			seen[e.Name] = true
		}
	}
	for rev, old := range registryHistory(t) {
		var prev registry
		require.NoError(t, json.Unmarshal(old, &prev), rev)
		for mode, entries := range prev.Modes {
			for _, e := range entries {
				id, err := reg.id(mode, e.Name)
				if assert.NoError(t, err, "%s: %s was removed from ids.json since %s", mode, e.Name, rev) {
					assert.Equal(t, e.ID, id, "%s: %s changed its id since %s", mode, e.Name, rev)
				}
				if e.Vector != 0 {
					assert.Equal(t, e, reg.Modes[mode][idIndex(e.ID)], "%s: %s changed the vector it is generated from since %s", mode, e.ID, rev)
				}
			}
		}
	}
}

// idIndex is the place of an own id (s7, c12) in its mode's entries.
func idIndex(id string) int {
	n, _ := strconv.Atoi(id[1:])
	return n - 1
}

// registryHistory returns every committed version of ids.json. Outside a
// git checkout (an exported tree) there is none, and the check is the
// registry's own order above.
func registryHistory(t *testing.T) map[string][]byte {
	t.Helper()
	out, err := exec.Command("git", "log", "--format=%H", "--", "ids.json").Output()
	if err != nil {
		t.Logf("no git history of ids.json (%v)", err)
		return nil
	}
	versions := map[string][]byte{}
	for _, rev := range strings.Fields(string(out)) {
		b, err := exec.Command("git", "show", rev+":./ids.json").Output()
		if err == nil {
			versions[rev] = b
		}
	}
	return versions
}

// Every vector of a kind a client decodes is a server-mode case, every
// lifecycle vector a client-mode case, each once.
func TestEveryVectorIsACase(t *testing.T) {
	vs, reg := loadAll(t)
	server, err := serverCases(vs, reg)
	require.NoError(t, err)
	client, err := clientCases(vs, reg)
	require.NoError(t, err)
	count := func(ids []int) map[int]int {
		m := map[int]int{}
		for _, id := range ids {
			if id != 0 {
				m[id]++
			}
		}
		return m
	}
	var sv, cv []int
	for _, c := range server {
		sv = append(sv, c.Vector)
	}
	for _, c := range client {
		cv = append(cv, c.Vector)
	}
	inServer, inClient := count(sv), count(cv)
	clientKinds := vs.side("client")
	assert.Len(t, clientKinds, 5, "every client-side kind: %v", clientKinds)
	for _, kind := range clientKinds {
		for _, v := range vs.kind(kind) {
			assert.Equal(t, 1, inServer[v.ID], "%s vector %d", kind, v.ID)
		}
	}
	for _, v := range vs.kind("lifecycle") {
		assert.Equal(t, 1, inClient[v.ID], "lifecycle vector %d", v.ID)
	}
	assert.GreaterOrEqual(t, len(server), 100)
}
