package props

import (
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
	"github.com/leanovate/gopter"
	"github.com/stretchr/testify/assert"
)

// samples draws n values from g with the suite's seed.
func samples[T any](t *testing.T, g gopter.Gen, n int) []T {
	t.Helper()
	p := gopter.DefaultGenParameters().CloneWithSeed(params(t, 1).Seed())
	var out []T
	for len(out) < n {
		if v, ok := g(p).Retrieve(); ok {
			out = append(out, v.(T))
		}
	}
	return out
}

// reached fails the test for every named edge no sample reached.
func reached(t *testing.T, edges map[string]bool) {
	t.Helper()
	for name, ok := range edges {
		assert.True(t, ok, "no sample reached %s", name)
	}
}

func widths(b []byte) (w [5]bool) {
	for _, r := range string(b) {
		w[utf8.RuneLen(r)] = true
	}
	return w
}

// TestGeneratorsReachEdges: the generators produce the edge cases on
// purpose, not by luck, within a few hundred samples.
func TestGeneratorsReachEdges(t *testing.T) {
	t.Parallel()
	e := map[string]bool{}
	for _, l := range samples[codec.LoginRegister](t, GenLoginRegister(), 600) {
		u, w := len(l.Username), widths(l.Username)
		e["username of 1 byte"] = e["username of 1 byte"] || u == 1
		e["username of 255 bytes"] = e["username of 255 bytes"] || u == 255
		e["2-byte rune"] = e["2-byte rune"] || w[2]
		e["3-byte rune"] = e["3-byte rune"] || w[3]
		e["4-byte rune"] = e["4-byte rune"] || w[4]
		e["4-byte rune cut at the limit"] = e["4-byte rune cut at the limit"] || u >= 252 && u < 255 && w[4] && !w[1]
		e["empty password"] = e["empty password"] || l.Password.Len() == 0
		e["password of 255 bytes"] = e["password of 255 bytes"] || l.Password.Len() == 255
		e["no context"] = e["no context"] || l.Context == nil
		e["short context"] = e["short context"] || len(l.Context) > 0 && len(l.Context) < 32
		e["long context"] = e["long context"] || len(l.Context) > 255
		e["reserved protocol bits"] = e["reserved protocol bits"] || !l.Info.Protocol.IsValid()
	}
	for _, l := range samples[codec.LoginRegisterPAT](t, GenLoginRegisterPAT(), 200) {
		e["empty token"] = e["empty token"] || l.Token.Len() == 0
	}
	for _, v := range samples[codec.Version](t, GenVersion(), 300) {
		e["component 0"] = e["component 0"] || v.Minor() == 0
		e["component 1023"] = e["component 1023"] || v.Patch() == 1023
	}
	for _, w := range samples[codec.Window](t, GenWindow(), 400) {
		e["Max 0.1023.1023"] = e["Max 0.1023.1023"] || w.Max == codec.MustPack(0, 1023, 1023)
		e["Max 1.0.0"] = e["Max 1.0.0"] || w.Max == codec.MustPack(1, 0, 0)
		e["ill-formed window"] = e["ill-formed window"] || !w.IsValid()
		e["default window"] = e["default window"] || w == codec.DefaultWindow(w.Max) && w.Min != w.Max
	}
	reasons := map[codec.EvictionReason]bool{}
	for _, ev := range samples[codec.Eviction](t, GenEviction(), 400) {
		reasons[ev.Reason] = true
		e["client with only the low half"] = e["client with only the low half"] || ev.Client.Hi == 0
		e["client with only the high half"] = e["client with only the high half"] || ev.Client.Lo == 0
	}
	for _, r := range samples[codec.EvictionReason](t, GenReason(), 300) {
		reasons[r] = true
	}
	for r := range codec.EvictionReason(16) {
		e["reason "+r.String()] = reasons[r]
	}
	reached(t, e)
}
