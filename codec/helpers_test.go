package codec_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/codectest"
)

// at is a run of hex bytes at a byte offset of a header.
type at struct {
	off int
	hex string
}

// cat concatenates byte slices into a fresh one.
func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// codecError requires err to be a *codec.Error matching exactly one
// sentinel (testify can say "is one of", not "is exactly one of") and
// returns it.
func codecError(t testing.TB, err error) *codec.Error {
	t.Helper()
	var ce *codec.Error
	require.ErrorAs(t, err, &ce)
	var matched []error
	for _, s := range codectest.Sentinels() {
		if errors.Is(err, s) {
			matched = append(matched, s)
		}
	}
	require.Len(t, matched, 1, "sentinels matched by %v", err)
	return ce
}

// wantErr requires err to be a *codec.Error of class kind for field at
// offset off: the three things every error of the codec promises.
func wantErr(t testing.TB, err error, kind error, field string, off int) {
	t.Helper()
	require.Error(t, err, "want %v for %s at %d", kind, field, off)
	ce := codecError(t, err)
	require.ErrorIs(t, err, kind)
	require.Equal(t, errPlace{field, off}, errPlace{ce.Field, ce.Offset}, "field and offset of %v", err)
}

// errPlace is where an error points: its field and byte offset.
type errPlace struct {
	Field  string
	Offset int
}

// errKey is what the error-order tests compare: everything an *Error says.
type errKey struct {
	kind   error
	field  string
	offset int
	rule   string
}

// keyOf returns everything err says, or the zero key for nil.
func keyOf(t testing.TB, err error) errKey {
	t.Helper()
	if err == nil {
		return errKey{}
	}
	ce := codecError(t, err)
	return errKey{ce.Err, ce.Field, ce.Offset, ce.Rule}
}

// breakRule is one broken rule of a header: a mutation of a valid 256-byte
// header (or, with cut, a cut to 255 bytes) and the error it alone causes.
type breakRule struct {
	name   string
	cut    bool
	mutate func(h []byte)
	want   errKey // rule is not compared for single breaks; see checkRuleOrder
}

// setLE writes v little-endian over n bytes at off.
func setLE(off, n int, v uint64) func([]byte) {
	return func(h []byte) {
		for i := range n {
			h[off+i] = byte(v >> (8 * i))
		}
	}
}

// setByte writes one byte.
func setByte(off int, v byte) func([]byte) { return func(h []byte) { h[off] = v } }

func applyRules(base []byte, rules ...breakRule) []byte {
	h := append([]byte{}, base...)
	cut := false
	for _, r := range rules {
		if r.cut {
			cut = true
			continue
		}
		r.mutate(h)
	}
	if cut {
		return h[:255]
	}
	return h
}

// checkRuleOrder breaks each rule alone and checks the exact class, field
// and offset; then breaks every pair and checks that the rule listed first
// (the rules are listed in WIRE.md's order) is the one reported.
func checkRuleOrder(t *testing.T, base []byte, decode func([]byte) error, rules []breakRule) {
	t.Helper()
	require.NoError(t, decode(base), "base header")
	single := make([]errKey, len(rules))
	for i, r := range rules {
		err := decode(applyRules(base, r))
		single[i] = keyOf(t, err)
		got := single[i]
		got.rule = r.want.rule // not compared for single breaks
		assert.Equal(t, r.want, got, "%s alone (rule %q)", r.name, single[i].rule)
	}
	for i := range rules {
		for j := i + 1; j < len(rules); j++ {
			got := keyOf(t, decode(applyRules(base, rules[i], rules[j])))
			assert.Equal(t, single[i], got, "%s + %s: want the first rule's error", rules[i].name, rules[j].name)
		}
	}
}

// badBody is a malformed body and the error both decoders must report.
type badBody struct {
	name  string
	hex   string
	kind  error
	field string
	off   int
}

// checkBadBodies runs each case through the prefix decoder and the whole
// parser of one body type.
func checkBadBodies[T any](t *testing.T, decode func([]byte) (T, int, error), parse func([]byte) (T, error), cases []badBody) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := hx(c.hex)
			v, n, err := decode(src)
			wantErr(t, err, c.kind, c.field, c.off)
			var zero T
			require.Equal(t, zero, v, "value on error")
			require.Equal(t, 0, n, "bytes used on error")
			v, err = parse(src)
			wantErr(t, err, c.kind, c.field, c.off)
			require.Equal(t, zero, v, "value on error")
		})
	}
}

// badValue is an invalid value and the error its encoder must report.
type badValue[T encoder] struct {
	name  string
	v     T
	kind  error
	field string
	off   int
}

// checkBadValues runs each case through Validate and AppendTo, which must
// leave dst unchanged.
func checkBadValues[T interface {
	encoder
	Validate() error
}](t *testing.T, cases []badValue[T]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantErr(t, c.v.Validate(), c.kind, c.field, c.off)
			dst := make([]byte, 2, 1024)
			out, err := c.v.AppendTo(dst)
			wantErr(t, err, c.kind, c.field, c.off)
			require.Equal(t, []byte{0, 0}, out, "dst after a failed AppendTo")
		})
	}
}
