package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// The checked-in vectors, relative to this package.
const (
	moduleRoot = "../../.."
	vectorsDir = "../../../vectors"
)

// loadFiles reads every vectors/<kind>.json.
func loadFiles(t *testing.T) []File {
	t.Helper()
	var files []File
	for _, k := range kindList {
		b, err := os.ReadFile(filepath.Join(vectorsDir, k+".json"))
		require.NoError(t, err, "run make vectors")
		var f File
		require.NoError(t, json.Unmarshal(b, &f), k)
		require.Equal(t, k, f.Kind)
		require.Equal(t, FormatVersion, f.Format)
		files = append(files, f)
	}
	return files
}

func loadRules(t *testing.T) map[string]Rule {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir, rulesFile))
	require.NoError(t, err)
	var rf struct{ Rules []Rule }
	require.NoError(t, json.Unmarshal(b, &rf))
	rules := map[string]Rule{}
	for _, r := range rf.Rules {
		rules[r.ID] = r
	}
	return rules
}

// TestReplay replays every checked-in vector: codec cases against package
// codec, lifecycle cases through a fresh lifecycle.Server each.
func TestReplay(t *testing.T) {
	rules := loadRules(t)
	n := 0
	for _, f := range loadFiles(t) {
		for i := range f.Cases {
			c := &f.Cases[i]
			n++
			t.Run(strings.ReplaceAll(c.Name, "/", "_"), func(t *testing.T) {
				require.NoError(t, verifyCase(f.Servers, c))
				if c.Kind == KindLifecycle {
					return
				}
				if c.Expect.Verdict == "error" && c.Source == "" {
					r, ok := rules[c.Expect.Rule]
					require.True(t, ok, "error case names no known rule")
					assert.Equal(t, r.Sentinel, c.Expect.Sentinel, "the sentinel is the rule's")
				}
			})
		}
	}
	assert.GreaterOrEqual(t, n, 300)
}

// TestUpToDate fails when make vectors would change a checked-in file, so
// the vectors cannot drift from the code. schema.json is written by hand.
func TestUpToDate(t *testing.T) {
	files, err := render(moduleRoot, vectorsDir)
	require.NoError(t, err)
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(vectorsDir, name))
		require.NoError(t, err, "vectors/%s is missing: run make vectors", name)
		assert.Equal(t, string(want), string(got), "vectors/%s is stale: run make vectors", name)
	}
	entries, err := os.ReadDir(vectorsDir)
	require.NoError(t, err)
	for _, e := range entries {
		_, written := files[e.Name()]
		if strings.HasSuffix(e.Name(), ".json") && e.Name() != "schema.json" {
			assert.True(t, written, "vectors/%s is not written by make vectors", e.Name())
		}
	}
}

// TestReplayCatchesChanges: a vector changed in any part of its verdict or
// its answers no longer replays.
func TestReplayCatchesChanges(t *testing.T) {
	files := loadFiles(t)
	var codecCase, lifeCase *Case
	var servers map[string]ServerConfig
	for _, f := range files {
		for i := range f.Cases {
			c := &f.Cases[i]
			switch {
			case c.Kind == KindLifecycle && lifeCase == nil && len(c.Steps) > 1:
				lifeCase, servers = c, f.Servers
			case c.Kind == KindLoginFrame && c.Expect.Verdict == "error" && codecCase == nil:
				codecCase = c
			}
		}
	}
	require.NotNil(t, codecCase)
	require.NotNil(t, lifeCase)
	for name, change := range map[string]func(e *Expect){
		"offset":   func(e *Expect) { *e.Offset++ },
		"field":    func(e *Expect) { e.Field += "x" },
		"sentinel": func(e *Expect) { e.Sentinel = sentinelOf(codec.ErrSize) },
		"sdk code": func(e *Expect) { *e.SDKCode = 40 },
		"verdict":  func(e *Expect) { e.Verdict = "ok" },
	} {
		c := *codecCase
		e := *c.Expect
		e.Offset, e.SDKCode = intp(*e.Offset), intp(*e.SDKCode)
		change(&e)
		c.Expect = &e
		assert.Error(t, verifyCase(nil, &c), name)
	}
	c := *lifeCase
	c.Steps = append([]Step(nil), c.Steps...)
	c.Steps[len(c.Steps)-1].Out = OutDropped
	assert.Error(t, replay(servers, &c, 0))
}
