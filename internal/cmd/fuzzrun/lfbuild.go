package main

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// The libFuzzer build: the steps of OSS-Fuzz's compile_native_go_fuzzer.
// Outside its builder image CXX and LIB_FUZZING_ENGINE default to clang++
// and -fsanitize=fuzzer; inside it they, CXXFLAGS and SANITIZER are OSS-Fuzz's.
const (
	lfTool     = "github.com/AdamKorcz/go-118-fuzz-build" // builds a native Go fuzz target as a libFuzzer archive
	lfVersion  = "v0.0.0-20250520111509-a70c2aa677fa"     // pins it and its testing package (the shim)
	lfShim     = lfTool + "/testing"                      // takes the place of package testing in that build
	modulePath = "github.com/iggywire/iggywire"
	fuzzPkg    = "./fuzz/" // the package whose fuzz targets every job runs
	// lfCoverPkg is what a coverage build counts: the product's statements.
	lfCoverPkg = modulePath + "/codec/...," + modulePath + "/lifecycle/..."
)

// lfBuild builds every target (or c.run) into c.lfBuild: one binary per
// target named after it, its seed corpus as <Target>_seed_corpus.zip and
// its dictionary as <Target>.dict, the layout OSS-Fuzz expects in $OUT.
// With SANITIZER=coverage each binary is instead the package's test
// binary with the product's statements counted (see lfBuildCoverage).
func lfBuild(c config, stdout io.Writer) error {
	targets, err := selectTargets(c)
	root, errRoot := filepath.Abs(c.root)
	out, errOut := filepath.Abs(c.lfBuild)
	if err := cmp.Or(err, errRoot, errOut, os.MkdirAll(out, 0o755)); err != nil {
		return err
	}
	sanitizer := cmp.Or(os.Getenv("SANITIZER"), "address")
	fmt.Fprintf(stdout, "libfuzzer: building %d targets (sanitizer %s) into %s\n", len(targets), sanitizer, out)
	if sanitizer == "coverage" {
		return lfBuildCoverage(root, out, c.overlay, targets, stdout)
	}
	work, err := os.MkdirTemp("", "iggywire-libfuzzer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	tool := filepath.Join(root, "bin", "go-118-fuzz-build")
	if err := command(root, stdout, "go", "install", lfTool+"@"+lfVersion).Run(); err != nil {
		return fmt.Errorf("go install %s@%s: %w", lfTool, lfVersion, err)
	}
	// One worker per CPU (at most 4): go-118-fuzz-build rewrites the package
	// in place while it builds, so each worker has its own scratch copy; the
	// build cache they share keeps every package compiled once. A target's
	// output is printed when it is done.
	workers := min(runtime.NumCPU(), 4, len(targets))
	errs := make([]error, len(targets))
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		dir := filepath.Join(work, strconv.Itoa(w))
		var log bytes.Buffer
		if err := prepareScratch(root, filepath.Join(dir, "src"), c.overlay, &log); err != nil {
			wg.Wait()
			return fmt.Errorf("%w\n%s", err, log.String())
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(targets); i += workers {
				var log bytes.Buffer
				if errs[i] = lfBuildOne(tool, filepath.Join(dir, "src"), dir, out, targets[i], &log); errs[i] == nil {
					errs[i] = packTarget(root, out, targets[i])
				}
				mu.Lock()
				stdout.Write(log.Bytes())
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// command is name with args in dir (the working directory if ""), its
// output to stdout, for the root module alone (GOWORK=off), with GOBIN set
// to dir's bin/ (ignored by git).
func command(dir string, stdout io.Writer, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = stdout, stdout
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOBIN="+filepath.Join(dir, "bin"))
	return cmd
}

// lfBuildOne turns one target into a libFuzzer binary: go-118-fuzz-build
// writes an archive holding LLVMFuzzerTestOneInput, and the C++ compiler
// links it with the engine, as compile_native_go_fuzzer does. The tool
// is given the function's exact name (compile_native_go_fuzzer's grep
// would take FuzzClient for FuzzClientVersionInfo too).
func lfBuildOne(tool, src, work, out, target string, stdout io.Writer) error {
	archive := filepath.Join(work, target+".a")
	build := command(src, stdout, tool, "-o", archive, "-func", target, fuzzPkg)
	build.Env = append(build.Env, "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	if err := build.Run(); err != nil {
		return fmt.Errorf("%s: go-118-fuzz-build: %w", target, err)
	}
	cxx := cmp.Or(os.Getenv("CXX"), "clang++")
	engine := strings.Fields(cmp.Or(os.Getenv("LIB_FUZZING_ENGINE"), "-fsanitize=fuzzer"))
	args := slices.Concat(strings.Fields(os.Getenv("CXXFLAGS")), engine, []string{archive, "-o", filepath.Join(out, target)})
	if err := command("", stdout, cxx, args...).Run(); err != nil {
		return fmt.Errorf("%s: linking with %s: %w", target, cxx, err)
	}
	fmt.Fprintf(stdout, "libfuzzer: built %s\n", filepath.Join(out, target))
	return os.Remove(archive)
}

// testingImport matches the import of package testing, alone or in a
// block.
var testingImport = regexp.MustCompile(`(?m)^(\t|import )"testing"$`)

// prepareScratch copies the Go files of the module at root (an absolute
// path, as lfBuild makes it) to src, the overlay's replacements in place
// of the files they replace, and turns fuzz/ into what go-118-fuzz-build
// can compile: the tool compiles no *_test.go file, and every target lives
// in one and shares checks with the others, so each file is renamed
// (x_test.go to x_test_fuzz.go) and imports the shim in place of
// "testing", making the *testing.T of a target's body and of the checks it
// calls one type. The import carries no name: go-118-fuzz-build adds an
// unnamed one itself. The shim is required in the copy's go.mod only: the
// working tree's go.mod and go.sum never change.
func prepareScratch(root, src, overlay string, stdout io.Writer) error {
	// files maps a path relative to the module to the file copied there:
	// go.mod, go.sum and every .go file (not in dot directories, bin/ or
	// the cmd/ module), then the overlay's replacements.
	files := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		switch rel := strings.TrimPrefix(path, root+string(filepath.Separator)); {
		case err != nil:
			return err
		case d.IsDir() && (rel == "bin" || rel == "cmd" || strings.HasPrefix(d.Name(), ".") && path != root):
			return filepath.SkipDir
		case !d.IsDir() && (strings.HasSuffix(rel, ".go") || rel == "go.mod" || rel == "go.sum"):
			files[rel] = path
		}
		return nil
	})
	if err := cmp.Or(err, applyOverlay(root, overlay, files)); err != nil {
		return err
	}
	for rel, from := range files {
		b, err := os.ReadFile(from)
		if err != nil {
			return err
		}
		if filepath.Dir(rel) == "fuzz" && strings.HasSuffix(rel, "_test.go") {
			rel = strings.TrimSuffix(rel, "_test.go") + "_test_fuzz.go"
			b = testingImport.ReplaceAll(b, []byte(`$1"`+lfShim+`"`))
		}
		if err := writeNew(filepath.Join(src, rel), b); err != nil {
			return err
		}
	}
	return command(src, stdout, "go", "get", lfShim+"@"+lfVersion).Run()
}

// applyOverlay puts each replacement of a go build -overlay file (its keys
// are paths in the module at root) in files, under the path it replaces
// relative to root. An empty path does nothing.
func applyOverlay(root, overlay string, files map[string]string) error {
	if overlay == "" {
		return nil
	}
	var o struct{ Replace map[string]string }
	b, err := os.ReadFile(overlay)
	if err == nil {
		err = json.Unmarshal(b, &o)
	}
	if err != nil {
		return fmt.Errorf("overlay %s: %w", overlay, err)
	}
	for from, to := range o.Replace {
		abs, errAbs := filepath.Abs(from)
		rel, err := filepath.Rel(root, abs)
		if err = cmp.Or(errAbs, err); err != nil || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("overlay %s: %s is outside the module", overlay, from)
		}
		files[rel] = to
	}
	return nil
}

// packTarget writes target's seed corpus, corpus/<Target>/ and
// crashers/<Target>/ as they are (the harness reads raw bytes), as
// out/<Target>_seed_corpus.zip, each input named by its content (a corpus
// file and a crasher may share a name), and copies
// .clusterfuzzlite/<Target>.dict to out/<Target>.dict when there is one.
func packTarget(root, out, target string) error {
	inputs, err := fuzzload.Target(root, target)
	if err != nil {
		return err
	}
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	seen := map[string]bool{}
	for _, in := range inputs {
		name := contentName("seed", in.Data)
		if seen[name] {
			continue
		}
		seen[name] = true
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write(in.Data)
		}
		if err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if len(inputs) > 0 {
		if err := os.WriteFile(filepath.Join(out, target+"_seed_corpus.zip"), zipped.Bytes(), 0o644); err != nil {
			return err
		}
	}
	dict := filepath.Join(out, target+".dict")
	b, err := os.ReadFile(filepath.Join(root, ".clusterfuzzlite", target+".dict"))
	switch {
	case err == nil:
		return os.WriteFile(dict, b, 0o644)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	// No dictionary: one left by an earlier build would still be used.
	if err := os.Remove(dict); !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// lfBuildCoverage is the SANITIZER=coverage build: as in
// compile_native_go_fuzzer's coverage branch, the package's own test
// binary (its _test.go files as they are, no renaming), counting the
// product's statements, once per target under the target's name, with
// the .gocovpath file OSS-Fuzz's coverage runner reads. Run with
// $FUZZ_CORPUS_DIR set, a binary replays that directory through the
// target it is named after and skips the others (fuzz/engine_go_test.go).
func lfBuildCoverage(root, out, overlay string, targets []string, stdout io.Writer) error {
	bin := filepath.Join(out, "fuzz.test")
	// An empty -overlay is none.
	args := []string{"test", "-c", "-tags", "gofuzz", "-covermode=atomic", "-coverpkg=" + lfCoverPkg}
	if err := command(root, stdout, "go", append(args, "-overlay="+overlay, "-o", bin, fuzzPkg)...).Run(); err != nil {
		return fmt.Errorf("coverage build: %w", err)
	}
	defer os.Remove(bin)
	b, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	path := fmt.Sprintf("s=%s=%s=\n", modulePath, root)
	for _, t := range targets {
		err := cmp.Or(os.WriteFile(filepath.Join(out, t), b, 0o755),
			os.WriteFile(filepath.Join(out, t+".gocovpath"), []byte(path), 0o644))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "libfuzzer: built %s (coverage)\n", filepath.Join(out, t))
	}
	return nil
}
