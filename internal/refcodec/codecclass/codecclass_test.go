package codecclass

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOf: every sentinel, wrapped in a *codec.Error, maps to the reference
// class of the same name, and the classes are all distinct.
func TestOf(t *testing.T) {
	t.Parallel()
	assert.Equal(t, refcodec.OK, Of(nil))
	seen := map[refcodec.Class]bool{}
	for _, p := range pairs {
		err := fmt.Errorf("context: %w", &codec.Error{Field: "f", Rule: "r", Err: p.err})
		c := Of(err)
		assert.Equal(t, p.class, c, "%v", err)
		assert.Equal(t, refcodec.ClassOf(p.class), c, "a reference error of the class maps to itself")
		assert.False(t, seen[c], "class %v paired twice", c)
		seen[c] = true
	}
	assert.Len(t, seen, int(refcodec.Syntax), "every reference class but OK is paired")
}

// TestPairsAreCodectest: pairs holds every class of codectest.Classes, in
// its order, each with the reference class of its name.
func TestPairsAreCodectest(t *testing.T) {
	t.Parallel()
	classes := codectest.Classes()
	require.Len(t, pairs, len(classes))
	for i, c := range classes {
		assert.Same(t, c.Err, pairs[i].err, "pair %d", i)
		assert.Equal(t, c.Name, pairs[i].class.String(), "pair %d", i)
	}
	assert.Equal(t, refcodec.BadWindow, Of(&codec.Error{Err: codec.ErrWindow}), "the one class refcodec names unlike the codec")
}

// TestPairClassesFails: a class no reference class is named like, or two
// classes of one name, are refused rather than paired with something.
func TestPairClassesFails(t *testing.T) {
	t.Parallel()
	classes := codectest.Classes()
	_, err := pairClasses(append(classes[:1:1], codectest.Class{Err: errors.New("new"), Name: "new"}))
	assert.ErrorContains(t, err, `no reference class is named "new"`)
	_, err = pairClasses(append(classes[:1:1], codectest.Class{Err: errors.New("again"), Name: classes[0].Name}))
	assert.ErrorContains(t, err, "paired twice")
	_, err = pairClasses([]codectest.Class{{Err: codec.ErrSize, Name: "ok"}})
	assert.Error(t, err, "OK is no class of an error")
}

// TestOfBrokenContract: errors that break the codec's contract never
// compare equal to a reference class.
func TestOfBrokenContract(t *testing.T) {
	t.Parallel()
	assert.Equal(t, NotCodecError, Of(codec.ErrTruncated), "a bare sentinel is not a *codec.Error")
	assert.Equal(t, NotCodecError, Of(errors.New("other")))
	assert.Equal(t, Ambiguous, Of(&codec.Error{Err: errors.New("no sentinel")}))
	assert.Equal(t, Ambiguous, Of(&codec.Error{Err: errors.Join(codec.ErrSize, codec.ErrField)}))
	for _, c := range []refcodec.Class{NotCodecError, Ambiguous} {
		assert.NotEqual(t, refcodec.ClassOf(errors.New("x")), c)
		assert.Negative(t, int(c))
	}
}
