package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
)

// swap replaces one reference decoder for the rest of the test: a test
// double of a reference (or a codec) with a bug.
func swap[T any](t *testing.T, p *T, v T) {
	old := *p
	*p = v
	t.Cleanup(func() { *p = old })
}

func TestRefAgrees(t *testing.T) {
	code, out, _ := runWith(nil, "-ref", "-kind", "version", "-hex", "312e322e33") // "1.2.3"
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "== version text: decoded\n")
	assert.Contains(t, out, "   reference: agrees\n")
	assert.NotContains(t, out, "DIFFERS")

	_, out, _ = runWith(nil, "-kind", "version", "-hex", "312e322e33")
	assert.NotContains(t, out, "reference", "only -ref asks the reference")
}

func TestRefDisagreesOnVerdict(t *testing.T) {
	swap(t, &reference.parseVersion, func(string) (uint32, error) { return 0, refcodec.Syntax })
	code, out, _ := runWith(nil, "-ref", "-kind", "version", "-hex", "312e322e33")
	assert.Equal(t, exitOK, code, "-ref does not change the exit status")
	assert.Contains(t, out, "   reference: DIFFERS: codec says decoded, reference says error (syntax)\n")
	assert.Contains(t, out, "note: -ref: the codec and internal/refcodec disagree on 1 section(s)")
}

func TestRefDisagreesOnValue(t *testing.T) {
	swap(t, &reference.parseVersion, func(s string) (uint32, error) {
		v, err := refcodec.ParseVersion(s)
		return v + 1, err
	})
	_, out, _ := runWith(nil, "-ref", "-kind", "version", "-hex", "312e322e33")
	want, err := refcodec.ParseVersion("1.2.3")
	require.NoError(t, err)
	assert.Contains(t, out, "   reference: DIFFERS: both decode, but codec says Version="+
		itoa(want)+", reference says Version="+itoa(want+1)+"\n")
}

func itoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// TestRefDifferenceShowsNoSecret: a reference that reads another password
// is reported by length only, and a header difference on a checksum only
// as zero or non-zero. The mask is switched off: with it every byte of a
// login body after its ClientVersionInfo reads as filler (the bind-secret
// shapes are laid out at every version), so no password would be read;
// this checks the comparison's own redaction, the second line.
func TestRefDifferenceShowsNoSecret(t *testing.T) {
	const pw = "Tr0ub4dor&"
	swap(t, &maskOf, func(src []byte) []bool { return make([]bool, len(src)) })
	swap(t, &reference.loginRegister, func(b []byte) (refcodec.LoginRegister, int, error) {
		l, n, err := refcodec.DecodeLoginRegister(b)
		l.Password = []byte("hunter2!Zq")
		l.Username = append([]byte(nil), l.Username...)
		l.Username[0] ^= 1
		return l, n, err
	})
	swap(t, &reference.requestHeader, func(b []byte) (refcodec.RequestHeader, error) {
		h, err := refcodec.DecodeRequestHeader(b)
		h.Checksum.Lo ^= 0x5a
		return h, err
	})
	frame := requestFrame(t, codec.OperationRegister, loginBody(t, pw))
	_, out, _ := runWith(nil, "-ref", writeFile(t, "in", "f", frame))
	assert.Contains(t, out, "codec says Body.Password=[REDACTED n=10], reference says Body.Password=[REDACTED n=10] (other bytes)")
	assert.Contains(t, out, "codec says Body.Username=[")
	assert.Contains(t, out, "codec says Checksum.Lo=0, reference says Checksum.Lo=non-zero")
	assert.NotContains(t, out, pw)
	assert.NotContains(t, out, "hunter2")
}

// TestRefCrashersAgree: on every crasher checked in, the codec and the
// reference agree today; a crasher they disagree on is a codec (or
// reference) bug to look at first.
func TestRefCrashersAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "crashers", "*", "*"))
	require.NoError(t, err)
	n := 0
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || !st.Mode().IsRegular() || strings.HasSuffix(f, ".md") {
			continue
		}
		n++
		_, out, errOut := runWith(nil, "-ref", f)
		assert.Contains(t, out, "reference: agrees", "%s: %s", f, errOut)
		assert.NotContains(t, out, "DIFFERS", "%s:\n%s", f, out)
	}
	assert.NotZero(t, n, "no crashers found")
}
