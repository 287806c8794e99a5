package main

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lifecycleCase returns the checked-in lifecycle case named name, with
// its steps copied, and the file's servers.
func lifecycleCase(t *testing.T, name string) (Case, map[string]ServerConfig) {
	t.Helper()
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			if c.Name == name {
				c.Steps = slices.Clone(c.Steps)
				return c, f.Servers
			}
		}
	}
	t.Fatalf("no case %s", name)
	return Case{}, nil
}

// withoutFree returns the step's free fields less the one named field.
func withoutFree(st Step, field string) []Free {
	return slices.DeleteFunc(slices.Clone(st.Free), func(f Free) bool { return f.Field == field })
}

// TestElsewhereNeedsTheData: played against a server whose sessions and
// connection ids differ, a case replays only with every piece of its
// steps' data: the session a request carries, the login reply's session,
// op and commit left to the server, and the client id of an eviction 1.
func TestElsewhereNeedsTheData(t *testing.T) {
	for name, tc := range map[string]struct {
		cas    string
		change func(st []Step)
	}{
		"no in_session":                {"lifecycle/7/ahead", func(st []Step) { st[1].InSession = nil }},
		"in_session plus 0":            {"lifecycle/7/ahead", func(st []Step) { r := *st[1].InSession; r.Plus = 0; st[1].InSession = &r }},
		"session compared":             {"lifecycle/1c/password", func(st []Step) { st[0].Free = withoutFree(st[0], "session") }},
		"op compared":                  {"lifecycle/1c/password", func(st []Step) { st[0].Free = withoutFree(st[0], "op") }},
		"commit compared":              {"lifecycle/1c/password", func(st []Step) { st[0].Free = withoutFree(st[0], "commit") }},
		"eviction 1's client":          {"lifecycle/7/other-client", func(st []Step) { st[1].Free = withoutFree(st[1], "client") }},
		"a login reply compared whole": {"lifecycle/1.sessions/three-logins", func(st []Step) { st[2].Free = nil }},
	} {
		c, servers := lifecycleCase(t, tc.cas)
		require.NoError(t, replay(servers, &c, elsewhereShift), name)
		tc.change(c.Steps)
		assert.Error(t, replay(servers, &c, elsewhereShift), name)
	}
}

// TestFraming: the framing of a step's bytes, and where the client ends
// its side.
func TestFraming(t *testing.T) {
	ping := nonReplicated(cA, 1, 0, 1)
	assert.Equal(t, FramingWhole, framing(ping))
	assert.Equal(t, FramingShort, framing(ping[:100]))
	assert.Equal(t, FramingShort, framing(nil))
	assert.Equal(t, FramingShort, framing(frame(request(opRegister), goInfo())[:270]))
	assert.Equal(t, FramingBadSize, framing(request(opNonReplicated).u32(48, 255)))
	assert.Equal(t, FramingBadSize, framing(request(opNonReplicated).u32(48, maxFrame+1)))
	assert.Equal(t, FramingLong, framing(append(ping, 0)))
	n := 0
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			for _, st := range c.Steps {
				n++
				assert.Equal(t, framing(st.inBytes()), st.Framing, c.Name)
				assert.Equal(t, st.Framing == FramingShort, st.End, "%s: the client ends its side after a short step, only then", c.Name)
				if c.Source == "" {
					assert.NotEqual(t, FramingLong, st.Framing, "%s: a step longer than its frame cannot be fed over a stream", c.Name)
				}
			}
		}
	}
	assert.Positive(t, n)
}

// TestDroppedIsSeen: a runner sees that a step was dropped when the
// answer to the next step comes first, so every dropped step but a
// crasher's is followed by one that is answered.
func TestDroppedIsSeen(t *testing.T) {
	for _, f := range loadFiles(t) {
		for _, c := range f.Cases {
			for j, st := range c.Steps {
				if st.Out != OutDropped || c.Source != "" {
					continue
				}
				k := j + 1
				for k < len(c.Steps) && c.Steps[k].Out == OutDropped {
					k++
				}
				require.Less(t, k, len(c.Steps), "%s: step %d is dropped and nothing after it is answered", c.Name, j)
				assert.NotNil(t, c.Steps[k].outBytes(), "%s: step %d", c.Name, k)
			}
		}
	}
}
