package props

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
)

// defaultSeed makes every run reproducible; defaultCount keeps the package
// near 10 s of CPU on 2 cores, well under a minute even on a
// loaded machine.
const (
	defaultSeed  = 20251129
	defaultCount = 3000
)

var (
	seedFlag  = flag.Int64("props.seed", 0, "seed of every property (default PROPS_SEED, else fixed)")
	countFlag = flag.Int("props.count", 0, "successful cases per property at weight 1 (default PROPS_COUNT, else fixed)")
)

// setting returns the flag if set, else the environment variable if set,
// else def.
func setting(flagVal int64, env string, def int64, t *testing.T) int64 {
	if flagVal != 0 {
		return flagVal
	}
	if s := os.Getenv(env); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("%s=%q: %v", env, s, err)
		}
		return v
	}
	return def
}

// params returns gopter parameters for a property of the given weight: a
// weight of 1 runs the full count, a costly property runs count/weight
// cases (at least 10).
func params(t *testing.T, weight int) *gopter.TestParameters {
	seed := setting(*seedFlag, "PROPS_SEED", defaultSeed, t)
	count := int(setting(int64(*countFlag), "PROPS_COUNT", defaultCount, t))
	p := gopter.DefaultTestParametersWithSeed(seed)
	p.MinSuccessfulTests = max(count/weight, 10)
	return p
}

// check runs props and, on failure, says how to rerun exactly this case.
func check(t *testing.T, props *gopter.Properties, p *gopter.TestParameters) {
	t.Helper()
	if !props.Run(gopter.NewFormatedReporter(false, 100, logWriter{t})) {
		t.Errorf("seed %d: rerun with PROPS_SEED=%d go test ./props -run '^%s$'", p.Seed(), p.Seed(), t.Name())
	}
}

// property checks one named property at weight.
func property(t *testing.T, weight int, name string, prop gopter.Prop) {
	t.Helper()
	p := params(t, weight)
	props := gopter.NewProperties(p)
	props.Property(name, prop)
	check(t, props, p)
}

// logWriter sends gopter's report to the test log, so that parallel tests
// do not interleave their reports on stdout.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(b []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(b), "\n"))
	return len(b), nil
}
