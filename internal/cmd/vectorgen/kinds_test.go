package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKindFields: every file says its side; every field an ok verdict
// holds is listed as required or optional for its kind, and every required
// field is held by some ok verdict; the parts of expect an SDK surfaces
// are listed exactly where cases carry them.
func TestKindFields(t *testing.T) {
	for _, f := range loadFiles(t) {
		require.Contains(t, []string{SideClient, SideServer, SideBoth}, f.Side, f.Kind)
		listed := append(slices.Clone(f.RequiredFields), f.OptionalFields...)
		for _, r := range f.RequiredFields {
			assert.NotContains(t, f.OptionalFields, r, "%s: %s both required and optional", f.Kind, r)
		}
		held := map[string]bool{}
		surfaced := map[string]bool{}
		for _, c := range f.Cases {
			if c.Expect == nil {
				continue
			}
			for k := range c.Expect.Fields {
				assert.Contains(t, listed, k, "%s: field %s is neither required nor optional", c.Name, k)
				held[k] = true
			}
			for part, set := range map[string]bool{"sdk_code": c.Expect.SDKCode != nil, "sdk_error": c.Expect.SDKError != "", "retry": c.Expect.Retry != ""} {
				if set {
					surfaced[part] = true
					assert.Contains(t, f.Surface, part, "%s carries %s, which its kind does not list", c.Name, part)
				}
			}
		}
		for _, r := range f.RequiredFields {
			assert.True(t, held[r], "%s: required field %s is in no ok verdict", f.Kind, r)
		}
		for _, s := range f.Surface {
			assert.True(t, surfaced[s], "%s: %s is listed but no case carries it", f.Kind, s)
		}
	}
}

// TestKindSides: the side of each kind is the one WIRE.md's direction of
// the message gives.
func TestKindSides(t *testing.T) {
	want := map[string]string{
		KindRequest: SideServer, KindLogin: SideServer, KindLoginPAT: SideServer, KindClientInfo: SideServer,
		KindReply: SideClient, KindEviction: SideClient, KindLoginReply: SideClient, KindResult: SideClient,
		KindLoginFrame: SideClient, KindLifecycle: SideServer,
	}
	infos := kindInfos()
	for _, k := range kindList {
		require.Contains(t, infos, k, "kind %s has no description", k)
	}
	for k, side := range want {
		assert.Equal(t, side, infos[k].Side, k)
	}
}

// TestReadmeKindTable: the README's table of sides and fields is the one
// the files carry.
func TestReadmeKindTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(vectorsDir, "README.md"))
	require.NoError(t, err)
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (client|server|both) \\| ([^|]+) \\| ([^|]+) \\|$")
	rows := row.FindAllStringSubmatch(string(b), -1)
	require.Len(t, rows, len(kindList))
	list := func(s string) []string {
		if s = strings.TrimSpace(s); s == "—" {
			return nil
		}
		return strings.Split(s, ", ")
	}
	infos := kindInfos()
	for i, r := range rows {
		require.Equal(t, kindList[i], r[1], "the table lists the kinds in file order")
		ki := infos[r[1]]
		assert.Equal(t, ki.Side, r[2], r[1])
		assert.Equal(t, ki.RequiredFields, list(r[3]), "%s: required_fields", r[1])
		assert.Equal(t, ki.OptionalFields, list(r[4]), "%s: optional_fields", r[1])
	}
}
