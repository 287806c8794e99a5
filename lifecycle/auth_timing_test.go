package lifecycle_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// The timing test's sizes: users in the StaticAuth, samples per series.
const (
	timingUsers   = 1000
	timingSamples = 2000
	// timingAlpha is the KS p-value below which the two cases count as
	// told apart.
	timingAlpha = 0.001
)

// TestAuthTiming: the clock does not tell an unknown user from a known one
// with a wrong password. Against a StaticAuth of 1,000 users, 2,000
// interleaved samples of each (Password alone, then a whole login through
// Conn.Handle) have medians within the noise of two series of the same
// case, and a two-sample Kolmogorov-Smirnov test does not separate them at
// p < 0.001. It measures wall-clock time, so it is opt-in.
func TestAuthTiming(t *testing.T) {
	if os.Getenv("IGGYWIRE_TIMING") != "1" {
		t.Skip("timing-sensitive, opt-in: run it with `make timing` (IGGYWIRE_TIMING=1 go test ./lifecycle -run '^TestAuthTiming$' -count=1 -v)")
	}
	checkKS(t)
	auth, names, passwords := timingAuth()
	// unknown names have the length of the known ones, and every password
	// tried has the length of the real one: only existence differs.
	unknown := make([][]byte, timingUsers)
	wrong := make([][]byte, timingUsers)
	for i := range timingUsers {
		unknown[i] = []byte(fmt.Sprintf("gone-%04d", i))
		wrong[i] = append(slices.Clip(passwords[i][:len(passwords[i])-len("right")]), "wrong"...)
	}
	// The n-th sample of a series picks user pick(n): every position in
	// the list is used alike.
	pick := func(n int) int { return (n * 7919) % timingUsers }

	t.Run("Password", func(t *testing.T) {
		// Both cases read what is given from the same memory, written just
		// before the call, as a frame just read would be: where the test
		// keeps its names must not show in the times.
		var nameIn, passwordIn [64]byte
		call := func(name, password []byte) func() {
			n, p := copy(nameIn[:], name), copy(passwordIn[:], password)
			return func() { _, _ = auth.Password(nameIn[:n], codec.NewSecret(passwordIn[:p])) }
		}
		compareTiming(t, func(kind, n int) func() {
			u := pick(n)
			if kind == caseUnknown {
				return call(unknown[u], wrong[u])
			}
			return call(names[u], wrong[u])
		})
	})

	t.Run("Handle", func(t *testing.T) {
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)), Auth: auth})
		if err != nil {
			t.Fatal(err)
		}
		// A Client has one request outstanding at a time: one per frame.
		build := func(name, password []byte) []byte {
			client, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0"})
			if err != nil {
				t.Fatal(err)
			}
			frame, err := client.Login(nil, name, codec.NewSecret(password))
			if err != nil {
				t.Fatal(err)
			}
			return frame
		}
		const frames = 64
		var login [2][frames][]byte
		for i := range frames {
			u := pick(i)
			login[caseUnknown][i] = build(unknown[u], wrong[u])
			login[caseWrongPassword][i] = build(names[u], wrong[u])
		}
		// As for Password, each frame is copied to one buffer just before
		// it is handled, as a frame just read from a socket would be.
		in, out := make([]byte, 0, 1024), make([]byte, 0, 4096)
		compareTiming(t, func(kind, n int) func() {
			frame := append(in[:0], login[kind][n%frames]...)
			conn := srv.NewConn() // a refused login closes its Conn
			return func() {
				_, o, err := conn.Handle(frame, out[:0])
				if err != nil || o.Login.Reason != codec.ReasonInvalidCredentials {
					panic(fmt.Sprintf("a wrong login came to %v, %+v", err, o.Login))
				}
			}
		})
	})
}

// timingAuth is a StaticAuth of timingUsers users, named user-0000...
// with passwords of one length.
func timingAuth() (auth lifecycle.StaticAuth, names, passwords [][]byte) {
	for i := range timingUsers {
		name := fmt.Sprintf("user-%04d", i)
		password := fmt.Sprintf("pw-%04d-%08x-right", i, uint32(i)*2654435761)
		names = append(names, []byte(name))
		passwords = append(passwords, []byte(password))
		auth.Users = append(auth.Users, lifecycle.User{ID: uint32(i + 1), Name: name, Password: codec.NewSecret([]byte(password))})
	}
	return auth, names, passwords
}

// The cases compared.
const (
	caseUnknown       = 0 // a name that is not a user's
	caseWrongPassword = 1 // a user's name with a wrong password
)

// compareTiming measures four interleaved series, two of each case, in an
// order shuffled afresh each round so that neither case always runs first.
// prepare(kind, n) returns the n-th call of a case (setting it up is not
// timed). It fails when the medians of the two cases are further apart
// than two series of the same case are (see allowed), or when the KS test
// separates them at p < timingAlpha.
func compareTiming(t *testing.T, prepare func(kind, n int) func()) {
	t.Helper()
	series := [4]struct {
		kind int
		ns   []float64
	}{{kind: caseUnknown}, {kind: caseWrongPassword}, {kind: caseUnknown}, {kind: caseWrongPassword}}
	rng := rand.New(rand.NewPCG(1, 2))
	order := []int{0, 1, 2, 3}
	const warmup = 200
	for round := -warmup; round < timingSamples; round++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, s := range order {
			call := prepare(series[s].kind, max(round, 0)+s*timingSamples)
			start := time.Now()
			call()
			elapsed := time.Since(start)
			if round >= 0 {
				series[s].ns = append(series[s].ns, float64(elapsed.Nanoseconds()))
			}
		}
	}
	unknown, wrong := series[0].ns, series[1].ns
	mu, mw := timingMedian(unknown), timingMedian(wrong)
	noise := max(math.Abs(timingMedian(series[0].ns)-timingMedian(series[2].ns)), math.Abs(timingMedian(series[1].ns)-timingMedian(series[3].ns)))
	// The medians of the two cases may differ by three times what two
	// series of one case do; since two such medians may by chance lie
	// closer than they usually do, by at least 1% of the median.
	allowed := max(3*noise, 0.01*mw)
	d, p := ksTwoSample(unknown, wrong)
	_, pSameU := ksTwoSample(series[0].ns, series[2].ns)
	_, pSameW := ksTwoSample(series[1].ns, series[3].ns)
	t.Logf("median: unknown user %.0f ns, wrong password %.0f ns (difference %+.0f ns; same-case noise %.0f ns, allowed %.0f ns)",
		mu, mw, mu-mw, noise, allowed)
	t.Logf("KS unknown user vs wrong password: D = %.4f, %s (same case twice: %s and %s)", d, timingP(p), timingP(pSameU), timingP(pSameW))
	if math.Abs(mu-mw) > allowed {
		t.Errorf("the medians differ by %.0f ns, more than the %.0f ns two series of the same case may", mu-mw, allowed)
	}
	if p < timingAlpha {
		t.Errorf("KS separates an unknown user from a wrong password: %s, below %g", timingP(p), timingAlpha)
	}
}

// timingP prints a p-value ("p = 0.42"); one that underflows is below
// 1e-300.
func timingP(p float64) string {
	if p == 0 {
		return "p < 1e-300"
	}
	return fmt.Sprintf("p = %.3g", p)
}

func timingMedian(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// ksTwoSample is the two-sample Kolmogorov-Smirnov test: D is the largest
// distance between the two empirical distribution functions (ties taken
// together), p the asymptotic probability of a D at least as large if both
// samples came from one distribution (Numerical Recipes' approximation of
// the Kolmogorov distribution, good for samples of this size).
func ksTwoSample(a, b []float64) (d, p float64) {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	n, m := float64(len(x)), float64(len(y))
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		v := min(x[i], y[j])
		for i < len(x) && x[i] == v {
			i++
		}
		for j < len(y) && y[j] == v {
			j++
		}
		d = max(d, math.Abs(float64(i)/n-float64(j)/m))
	}
	en := math.Sqrt(n * m / (n + m))
	return d, kolmogorovQ((en + 0.12 + 0.11/en) * d)
}

// kolmogorovQ is P(K > lambda) for the Kolmogorov distribution:
// 2 * sum over j >= 1 of (-1)^(j-1) exp(-2 j^2 lambda^2).
func kolmogorovQ(lambda float64) float64 {
	if lambda < 0.2 {
		return 1 // the series converges too slowly here; the value is 1 to 1e-12
	}
	sum, sign := 0.0, 1.0
	for j := 1; j <= 100; j++ {
		term := sign * 2 * math.Exp(-2*float64(j*j)*lambda*lambda)
		sum += term
		if math.Abs(term) < 1e-12*math.Abs(sum) || math.Abs(term) < 1e-300 {
			break
		}
		sign = -sign
	}
	return min(max(sum, 0), 1)
}

// checkKS checks ksTwoSample on samples whose answer is known, so that a KS
// test that could never separate anything does not pass the timing test.
func checkKS(t *testing.T) {
	t.Helper()
	same := make([]float64, timingSamples)
	shifted := make([]float64, timingSamples)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range same {
		same[i] = 1000 + 100*rng.NormFloat64()
		shifted[i] = 1000 + 100*rng.NormFloat64() + 30 // 0.3 standard deviations
	}
	if d, p := ksTwoSample(same, same); d != 0 || p != 1 {
		t.Fatalf("KS of a sample against itself: D = %g, p = %g, want 0 and 1", d, p)
	}
	if _, p := ksTwoSample(same, shifted); p >= timingAlpha {
		t.Fatalf("KS misses a shift of 0.3 standard deviations in %d samples: p = %g", timingSamples, p)
	}
	// Critical value of the asymptotic distribution: P(K > 1.9495) = 0.001.
	if q := kolmogorovQ(1.9495); math.Abs(q-0.001) > 0.00005 {
		t.Fatalf("kolmogorovQ(1.9495) = %g, want 0.001", q)
	}
}
