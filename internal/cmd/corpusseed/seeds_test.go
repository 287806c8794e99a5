package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSeedsReproducible(t *testing.T) {
	require.Equal(t, Seeds(), Seeds(), "two runs give the same seeds")
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]*$`)

func TestSeedNamesUniqueAndPlain(t *testing.T) {
	for target, seeds := range Seeds() {
		assert.LessOrEqual(t, len(seeds), 200, "%s: keep the corpus small", target)
		seen := map[string]bool{}
		for _, s := range seeds {
			assert.Regexp(t, nameRE, s.Name, target)
			assert.False(t, strings.HasPrefix(s.Name, promotedPrefix), "%s: %q looks promoted", target, s.Name)
			assert.False(t, seen[s.Name], "%s: %q twice", target, s.Name)
			seen[s.Name] = true
		}
	}
}

// decoders says, per target whose seeds are named valid-*/bad-*, whether
// an input decodes.
var decoders = map[string]func([]byte) error{
	"FuzzClientVersionInfo": func(b []byte) error { _, err := codec.ParseClientVersionInfo(b); return err },
	"FuzzLoginRegister":     func(b []byte) error { _, err := codec.ParseLoginRegister(b); return err },
	"FuzzLoginRegisterPAT":  func(b []byte) error { _, err := codec.ParseLoginRegisterPAT(b); return err },
	"FuzzLoginReply":        func(b []byte) error { _, err := codec.ParseLoginReply(b); return err },
	"FuzzRequestHeader":     func(b []byte) error { _, err := codec.DecodeRequestHeader(b); return err },
	"FuzzReplyHeader":       func(b []byte) error { _, err := codec.DecodeReplyHeader(b); return err },
	"FuzzSplitResult":       func(b []byte) error { _, _, err := codec.SplitResult(b); return err },
	"FuzzBindSession":       func(b []byte) error { _, err := codec.ParseBindSession(b); return err },
	"FuzzLoginRegisterSecret": func(b []byte) error {
		_, err := codec.ParseLoginRegisterRev(b, codec.RevisionBindSecret)
		return err
	},
	"FuzzLoginRegisterPATSecret": func(b []byte) error {
		_, err := codec.ParseLoginRegisterPATRev(b, codec.RevisionBindSecret)
		return err
	},
}

// TestSeedsAreWhatTheirNamesSay: a valid-* seed decodes and a bad-* seed
// does not, so each seed exercises the rule it is named for.
func TestSeedsAreWhatTheirNamesSay(t *testing.T) {
	seeds := Seeds()
	for target, decode := range decoders {
		for _, s := range seeds[target] {
			err := decode(s.Data)
			switch {
			case strings.HasPrefix(s.Name, "valid-"):
				assert.NoError(t, err, "%s/%s", target, s.Name)
			case strings.HasPrefix(s.Name, "bad-"):
				assert.Error(t, err, "%s/%s", target, s.Name)
			}
		}
	}
}

// TestEvictionSeeds: every reason 1..15 has a valid seed; the seeds named
// for a broken rule fail with that rule's class.
func TestEvictionSeeds(t *testing.T) {
	want := map[string]error{
		"eviction-reason14-window-ill-formed": codec.ErrWindow,
		"eviction-reason14-window-min-0":      codec.ErrWindow,
		"eviction-reason1-window-nonzero":     codec.ErrWindow,
		"eviction-reason0":                    codec.ErrReason,
		"eviction-reason16":                   codec.ErrReason,
		"eviction-reason255":                  codec.ErrReason,
		"eviction-size-257":                   codec.ErrSize,
		"eviction-client-0":                   codec.ErrField,
		"eviction-reserved-frame":             codec.ErrReserved,
		"eviction-reserved":                   codec.ErrReserved,
		"eviction-reserved-last-byte":         codec.ErrReserved,
		"eviction-command-request":            codec.ErrCommand,
		"eviction-truncated":                  codec.ErrTruncated,
	}
	reasons := map[codec.EvictionReason]bool{}
	for _, s := range Seeds()["FuzzEviction"] {
		e, err := codec.DecodeEviction(s.Data)
		if class, bad := want[s.Name]; bad {
			assert.ErrorIs(t, err, class, s.Name)
			continue
		}
		assert.NoError(t, err, s.Name)
		reasons[e.Reason] = true
	}
	assert.Len(t, reasons, 15, "the valid seeds cover every reason")
}

func TestWriteKeepsPromotedFiles(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, "FuzzX")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, data := range map[string]string{"found-abc": "kept", "old-seed": "dropped"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	seeds := map[string][]Seed{"FuzzX": {{"new-seed", []byte{1, 2}}}}
	require.NoError(t, write(out, seeds, io.Discard))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"found-abc", "new-seed"}, names, "the promoted file and the new seed")
	b, err := os.ReadFile(filepath.Join(dir, "new-seed"))
	require.NoError(t, err)
	assert.Equal(t, []byte{1, 2}, b)
}

// TestSecretSeeds: one FuzzSecretPrinting seed per holder kind and printer
// family (the first two bytes), each naming both, and one more per family
// for the bare, unwrapped Secret (bytes 5 and 6, the wrappers, zero).
func TestSecretSeeds(t *testing.T) {
	seen := map[[2]byte]bool{}
	bare := map[byte]bool{}
	for _, s := range Seeds()["FuzzSecretPrinting"] {
		require.GreaterOrEqual(t, len(s.Data), 8, s.Name)
		k, f := s.Data[0], s.Data[1]
		if strings.HasPrefix(s.Name, "secret-bare-") {
			assert.True(t, k == 0 && s.Data[5] == 0 && s.Data[6] == 0 && !bare[f], "%s: a bare Secret, once per family", s.Name)
			bare[f] = true
			assert.Contains(t, s.Name, "-"+secretFamilies[f]+"-", s.Name)
			continue
		}
		assert.False(t, seen[[2]byte{k, f}], "%s: holder %d and family %d twice", s.Name, k, f)
		seen[[2]byte{k, f}] = true
		assert.True(t, strings.HasPrefix(s.Name, secretHolders[k]+"-"), s.Name)
		assert.Contains(t, s.Name, "-"+secretFamilies[f]+"-", s.Name)
	}
	assert.Len(t, seen, len(secretHolders)*len(secretFamilies))
	assert.Len(t, bare, len(secretFamilies))
}
