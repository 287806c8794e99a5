package codec_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestRevisionOf: 0.11.1 selects the bind-secret layout, and every other
// version the 0.11.0 layout, as before 0.11.1 (WIRE.md section 10.1).
func TestRevisionOf(t *testing.T) {
	for _, c := range []struct {
		v    codec.Version
		want codec.Revision
	}{
		{0, codec.RevisionBase},
		{codec.MustPack(0, 10, 5), codec.RevisionBase},
		{0x2C00, codec.RevisionBase},
		{0x2C01, codec.RevisionBindSecret},
		{codec.MustPack(0, 11, 2), codec.RevisionBase},
		{codec.MustPack(0, 12, 0), codec.RevisionBase},
		{codec.MustPack(1, 0, 0), codec.RevisionBase},
		{0xC000_2C01, codec.RevisionBase},
	} {
		assert.Equal(t, c.want, codec.RevisionOf(c.v), "RevisionOf(%v)", c.v)
	}
	assert.Equal(t, codec.MustParseVersion("0.11.0"), codec.Protocol0110)
	assert.Equal(t, codec.MustParseVersion("0.11.1"), codec.Protocol0111)
}

// TestRevisionNames: a revision prints as the version that introduced it.
func TestRevisionNames(t *testing.T) {
	assert.Equal(t, "0.11.0", codec.RevisionBase.String())
	assert.Equal(t, "0.11.1", codec.RevisionBindSecret.String())
	assert.Equal(t, "UNKNOWN_REVISION_7", codec.Revision(7).String())
	assert.True(t, codec.RevisionBindSecret.IsKnown())
	assert.False(t, codec.Revision(2).IsKnown())
	assert.Equal(t, codec.Protocol0110, codec.RevisionBase.Protocol())
	assert.Equal(t, codec.Protocol0111, codec.RevisionBindSecret.Protocol())
	assert.Equal(t, codec.Version(0), codec.Revision(2).Protocol())
	for _, r := range []codec.Revision{codec.RevisionBase, codec.RevisionBindSecret} {
		assert.Equal(t, r, codec.RevisionOf(r.Protocol()))
	}
}
