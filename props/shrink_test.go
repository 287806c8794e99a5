package props

import (
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shrunk runs a deliberately false property and returns the counterexample
// gopter shrank it to.
func shrunk(t *testing.T, p gopter.Prop) any {
	t.Helper()
	params := params(t, 1)
	res := p.Check(params)
	require.False(t, res.Passed(), "the property is false; gopter must find a counterexample")
	require.NotEmpty(t, res.Args)
	t.Logf("shrank %d times to %s", res.Args[0].Shrinks, res.Args[0].ArgFormatted)
	return res.Args[0].Arg
}

// TestShrinkThroughMapping: shrinking survives DeriveGen. "No username has
// a multi-byte rune or is longer than 40 bytes" is false; the counterexample
// shrinks to a LoginRegister whose username is one rune (or 41 'a'-like
// bytes), whose other texts are a single byte, with no context and an
// empty password.
func TestShrinkThroughMapping(t *testing.T) {
	t.Parallel()
	v := shrunk(t, prop.ForAll(func(l codec.LoginRegister) bool {
		return len(l.Username) <= 40 && !strings.ContainsFunc(string(l.Username), func(r rune) bool { return r > 0x7F })
	}, GenLoginRegister()))
	l := v.(codec.LoginRegister)
	d := Describe(l)
	assert.True(t, len(l.Username) <= 4 || len(l.Username) == 41, d)
	assert.Len(t, l.Info.SDKName, 1, d)
	assert.Len(t, l.Info.SDKVersion, 1, d)
	assert.Zero(t, l.Password.Len(), d)
	assert.Empty(t, l.Context, d)
	assert.Zero(t, l.Info.Protocol, d)
}

// TestShrinkHeader: "no request has a session above 1000" shrinks to a
// request with every carried field zero and a session just above 1000.
func TestShrinkHeader(t *testing.T) {
	t.Parallel()
	v := shrunk(t, prop.ForAll(func(h codec.RequestHeader) bool { return h.Session <= 1000 }, GenRequestHeader()))
	h := v.(codec.RequestHeader)
	d := Describe(h)
	assert.True(t, validRequest(h), "shrinking left the rules of a request: %s", d)
	assert.Greater(t, h.Session, uint64(1000), d)
	assert.Less(t, h.Session, uint64(2002), "not shrunk towards the boundary: %s", d)
	assert.Zero(t, h.Checksum, d)
	assert.Equal(t, uint32(codec.HeaderSize), h.Size, d)
}

// TestShrinkHostile: a false claim about hostile inputs ("no invalid UTF-8
// written into a token body makes Parse fail") shrinks to a minimal body
// and a small mutation.
func TestShrinkHostile(t *testing.T) {
	t.Parallel()
	v := shrunk(t, prop.ForAll(func(h Hostile[codec.LoginRegisterPAT]) bool {
		_, err := codec.ParseLoginRegisterPAT(h.Bytes())
		return h.M.Op != MutBadUTF8 || err == nil
	}, GenHostile[codec.LoginRegisterPAT](GenLoginRegisterPAT())))
	h := v.(Hostile[codec.LoginRegisterPAT])
	enc, err := h.V.AppendBinary(nil)
	require.NoError(t, err)
	// 4 protocol + 1+1 name + 1+1 version + 1 token_len + 4 context_len
	assert.LessOrEqual(t, len(enc), 13, "not shrunk to a minimal body: %s", h)
}
