package codecclass

import (
	"errors"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/stretchr/testify/assert"
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
