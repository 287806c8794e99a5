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
	root := t.TempDir()
	repl := filepath.Join(t.TempDir(), "x.go")
	overlay := filepath.Join(t.TempDir(), "o.json")
	require.NoError(t, os.WriteFile(overlay, []byte(`{"Replace":{"`+filepath.Join(root, "codec", "x.go")+`":"`+repl+`"}}`), 0o644))
	files := map[string]string{filepath.Join("codec", "x.go"): filepath.Join(root, "codec", "x.go")}
	require.NoError(t, applyOverlay(root, overlay, files))
	assert.Equal(t, map[string]string{filepath.Join("codec", "x.go"): repl}, files)

	require.NoError(t, os.WriteFile(overlay, []byte(`{"Replace":{"/elsewhere/x.go":"`+repl+`"}}`), 0o644))
	assert.ErrorContains(t, applyOverlay(root, overlay, files), "outside the module")
}
