package main

import (
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
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

// An own case a vector now holds plays that vector's frames, under its own
// id, pipelined when ids.json says so; the vector is played under no other
// id.
func TestOwnCasesFromVectors(t *testing.T) {
	vs, reg := loadAll(t)
	client, err := clientCases(vs, reg)
	require.NoError(t, err)
	own := reg.fromVectors("client")
	require.Len(t, own, 7)
	byVector := map[int]clientCase{}
	for _, c := range client {
		if c.Vector != 0 {
			byVector[c.Vector] = c
		}
	}
	for _, v := range vs.kind("lifecycle") {
		e, ok := own[v.ID]
		if !ok {
			continue
		}
		c := byVector[v.ID]
		assert.Equal(t, e.ID, c.ID)
		var frames []string
		for _, s := range c.steps {
			for _, f := range s.frames {
				frames = append(frames, hex.EncodeToString(f))
			}
		}
		var ins []string
		for _, s := range v.Steps {
			ins = append(ins, s.In)
		}
		assert.Equal(t, ins, frames, "%s plays vector %d's frames", e.ID, v.ID)
		if e.Pipelined {
			assert.Len(t, c.steps, 1, "%s writes its frames at once", e.ID)
		} else {
			assert.Len(t, c.steps, len(v.Steps))
		}
	}
}

// Every answer the kit expects in client mode is compared by free rules
// the vectors give: none falls back to a byte-for-byte comparison for want
// of data.
func TestEveryAnswerHasFreeRules(t *testing.T) {
	vs, reg := loadAll(t)
	client, err := clientCases(vs, reg)
	require.NoError(t, err)
	a := clientAccounts(t, testAccountsFile(t))
	for _, c := range client {
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: a.auth()})
		require.NoError(t, err)
		conn := srv.NewConn()
		for _, s := range c.steps {
			for k, f := range s.frames {
				want, _, err := conn.Handle(rewriteCredentials(f, c.server, a), nil)
				if err == nil && len(want) > 0 {
					assert.NotEmpty(t, freeFor(c.free, s, k, want), "%s: an answer %s", c.ID, describeFrame(want))
				}
			}
		}
	}
}

// A kind a client decodes that server mode cannot send is an error, not a
// kind silently left out of the run.
func TestUnknownClientKindRefused(t *testing.T) {
	vs, reg := loadAll(t)
	vs.Files["reply_trailer"] = vectorFile{Kind: "reply_trailer", Side: "client", Cases: []vectorCase{{ID: 9999, Name: "x"}}}
	_, err := serverCases(vs, reg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reply_trailer")
}

// Header vectors are sent as their frame: a header with the body a reader
// waits for, as the vector writes it (v365's is a login reply, not zeros),
// or the header alone when the frame would be too large to write.
func TestHeaderVectorsSentAsFrames(t *testing.T) {
	vs, reg := loadAll(t)
	server, err := serverCases(vs, reg)
	require.NoError(t, err)
	frames := map[int]*vectorFrame{}
	for _, kind := range []string{"eviction", "reply_header"} {
		for _, v := range vs.kind(kind) {
			require.NotNil(t, v.Frame, "vector %d has a frame", v.ID)
			frames[v.ID] = v.Frame
		}
	}
	checked := 0
	for _, c := range server {
		f, ok := frames[c.Vector]
		if !ok {
			continue
		}
		checked++
		in := unhex(f.Input)
		if f.whole(padLimit) {
			assert.Len(t, c.answer.frame, f.Length, "%s: the whole frame", c.ID)
		}
		assert.Equal(t, in, c.answer.frame[:len(in)], "%s: the frame's bytes", c.ID)
		if c.Vector == 365 {
			assert.Equal(t, "login_reply", f.Body)
			assert.Len(t, c.answer.frame, 282)
			assert.False(t, isZeroBytes(c.answer.frame[256:]), "the body is the vector's login reply")
		}
	}
	assert.Equal(t, len(frames), checked)
}

// Every free-field rule the lifecycle vectors use is one the kit checks,
// so that a new rule is taught to the kit, not skipped.
func TestEveryFreeRuleIsKnown(t *testing.T) {
	vs, _ := loadAll(t)
	used := map[string]bool{}
	for _, c := range vs.kind("lifecycle") {
		for _, s := range c.Steps {
			for _, f := range s.Free {
				used[f.Rule] = true
				assert.True(t, knownRules[f.Rule], "vector %d: free rule %q", c.ID, f.Rule)
			}
		}
	}
	assert.True(t, used[freeBound], "the 0.11.1 bind cases use the rule bound")
}
