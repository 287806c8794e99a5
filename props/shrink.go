package props

import (
	"github.com/leanovate/gopter"

	"github.com/iggywire/iggywire/internal/codectest"
)

// unsigned is every unsigned integer type a generator picks from.
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

// shrinkList returns a Shrink that yields vals in order. Candidates are
// computed up front so that the stream is finite and independent of what
// the caller does with the values.
func shrinkList[T any](vals []T) gopter.Shrink {
	i := 0
	return func() (interface{}, bool) {
		if i >= len(vals) {
			return nil, false
		}
		i++
		return vals[i-1], true
	}
}

// towards returns the candidates lo, v-d/2, v-d/4, ..., v-1 where d = v-lo:
// the smallest first, so shrinking jumps to the simplest value when it can
// and otherwise halves the distance. It never leaves [lo, v].
func towards[T unsigned](lo, v T) []T {
	if v <= lo {
		return nil
	}
	out := []T{lo}
	for d := (v - lo) / 2; d > 0; d /= 2 {
		if c := v - d; c != lo {
			out = append(out, c)
		}
	}
	if v-1 != lo && (len(out) == 0 || out[len(out)-1] != v-1) {
		out = append(out, v-1)
	}
	return out
}

// pick returns a generator of values in [lo, hi]: half the time one of
// edges (the values a bug is most likely to hide behind), otherwise uniform.
// It shrinks towards lo and never leaves the range.
func pick[T unsigned](lo, hi T, edges ...T) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		var v T
		if len(edges) > 0 && p.NextBool() {
			v = edges[p.Rng.Intn(len(edges))]
		} else {
			v = lo + T(uniform(p, uint64(hi-lo)))
		}
		return gopter.NewGenResult(v, func(x interface{}) gopter.Shrink {
			return shrinkList(towards(lo, x.(T)))
		})
	}
}

// uniform returns a value in [0, n], n = MaxUint64 included.
func uniform(p *gopter.GenParameters, n uint64) uint64 {
	if n == ^uint64(0) {
		return p.NextUint64()
	}
	return p.NextUint64() % (n + 1)
}

// derive is gopter.DeriveGen whose shrinker never proposes the value it
// shrinks. A mapping that normalises (a Register request clears its
// session, a denial's size becomes 256) can turn a shrunk part back into
// the same whole; gopter would accept that as progress and loop until its
// shrink budget ran out.
func derive(down, up interface{}, gens ...gopter.Gen) gopter.Gen {
	return gopter.DeriveGen(down, up, gens...).MapResult(func(r *gopter.GenResult) *gopter.GenResult {
		inner := r.Shrinker
		r.Shrinker = func(v interface{}) gopter.Shrink {
			return inner(v).Filter(func(c interface{}) bool { return !codectest.Same(c, v) })
		}
		return r
	})
}
