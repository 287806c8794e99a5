package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
