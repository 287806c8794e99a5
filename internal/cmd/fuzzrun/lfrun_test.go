package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A libFuzzer run that crashed, as the binaries print it (trimmed).
const lfCrashLog = `INFO: Seed: 1
#26	INITED cov: 143 ft: 143 corp: 5/34b exec/s: 0 rss: 33Mb
#715	REDUCE cov: 144 ft: 144 corp: 5/34b lim: 4 exec/s: 0 rss: 34Mb L: 4/8 MS: 1 CMP- DE: "\xfe\xca\xad\x1b"-
panic: planted
==42== ERROR: libFuzzer: deadly signal
artifact_prefix='/tmp/x/'; Test unit written to /tmp/x/crash-0123abcd
Base64: /sqtGw==
stat::number_of_executed_units: 716
stat::average_exec_per_sec:     0
stat::new_units_added:          3
`

func TestScanLFFindsTheCrash(t *testing.T) {
	var echo bytes.Buffer
	r := LFResult{Target: "FuzzX"}
	artifact := scanLF(strings.NewReader(lfCrashLog), &echo, &r)
	assert.Equal(t, "/tmp/x/crash-0123abcd", artifact)
	assert.Equal(t, LFResult{Target: "FuzzX", Execs: 716, Cov: 144, Feat: 144, New: 3}, r)
	assert.Equal(t, lfCrashLog, echo.String(), "the output is echoed as it is")
}

func TestScanLFIgnoresSlowUnits(t *testing.T) {
	var r LFResult
	log := "#100\tDONE   cov: 7 ft: 9 corp: 1/1b exec/s: 0 rss: 1Mb\nTest unit written to ./slow-unit-99\nstat::number_of_executed_units: 100\n"
	assert.Empty(t, scanLF(strings.NewReader(log), &bytes.Buffer{}, &r))
	assert.Equal(t, int64(100), r.Execs)
	assert.Equal(t, int64(7), r.Cov)
}

func TestLFFlags(t *testing.T) {
	assert.Equal(t, []string{"-runs=5000"}, lfFlags(budget{count: 5000}))
	assert.Equal(t, []string{"-max_total_time=60"}, lfFlags(budget{d: time.Minute}))
	assert.Equal(t, []string{"-max_total_time=1"}, lfFlags(budget{d: 100 * time.Millisecond}), "at least a second")
}

func TestRenderLF(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, RenderLF(&b, []LFResult{
		{Target: "FuzzA", Execs: 2000, PerSec: 5000, Cov: 10, Feat: 20, New: 3, Elapsed: 400 * time.Millisecond},
		{Target: "FuzzB", Execs: 10, Crasher: "crashers/FuzzB/crash-1"},
	}))
	out := b.String()
	assert.Regexp(t, `FuzzA +2000 +5000 +10 +20 +3 +400ms +PASS`, out)
	assert.Regexp(t, `FuzzB +10 .*crashers/FuzzB/crash-1`, out)
	assert.Regexp(t, `total +2010 .*1 failed`, out)
	assert.True(t, strings.HasSuffix(out, "\nlibfuzzer: 1 passed, 1 failed\n"), out)
}

// TestLibFuzzerBuildStatedOnce: make libfuzzer and build.sh (inside the
// builder image) run the same command, so there is one copy of the steps.
func TestLibFuzzerBuildStatedOnce(t *testing.T) {
	const build = "go run ./internal/cmd/fuzzrun -libfuzzer-build"
	sh, err := os.ReadFile(filepath.Join(moduleRoot, ".clusterfuzzlite", "build.sh"))
	require.NoError(t, err)
	assert.Contains(t, string(sh), build+` "$OUT"`)
	assert.NotContains(t, string(sh), "compile_native_go_fuzzer \"", "build.sh builds through fuzzrun, not a second copy")
	mk, err := os.ReadFile(filepath.Join(moduleRoot, "Makefile"))
	require.NoError(t, err)
	assert.Contains(t, string(mk), "LFBUILD   := $(GO) run ./internal/cmd/fuzzrun -libfuzzer-build")
	for _, target := range []string{"libfuzzer", "libfuzzer-one"} {
		assert.Contains(t, makeRecipe(t, target), "$(LFBUILD)", "make %s builds with LFBUILD", target)
	}
}

func TestApplyOverlayStaysInTheModule(t *testing.T) {
	root, src := t.TempDir(), t.TempDir()
	repl := filepath.Join(t.TempDir(), "x.go")
	require.NoError(t, os.WriteFile(repl, []byte("package x // planted\n"), 0o644))
	overlay := filepath.Join(t.TempDir(), "o.json")
	require.NoError(t, os.WriteFile(overlay, []byte(`{"Replace":{"`+filepath.Join(root, "codec", "x.go")+`":"`+repl+`"}}`), 0o644))
	require.NoError(t, applyOverlay(root, src, overlay))
	got, err := os.ReadFile(filepath.Join(src, "codec", "x.go"))
	require.NoError(t, err)
	assert.Equal(t, "package x // planted\n", string(got))

	require.NoError(t, os.WriteFile(overlay, []byte(`{"Replace":{"/elsewhere/x.go":"`+repl+`"}}`), 0o644))
	assert.ErrorContains(t, applyOverlay(root, src, overlay), "outside the module")
}
