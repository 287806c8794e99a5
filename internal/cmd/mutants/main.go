// Command mutants checks that the property suite is not vacuous: for each
// deliberate bug in mutations.go it writes a copy of one codec file with
// the bug into a temporary directory, runs the property suite against it
// with go test -overlay (codec itself is never touched), and reports which
// properties failed. A mutant no property catches makes the command fail.
// Each bug is keyed by its function and the code it breaks there (apply.go),
// so edits elsewhere in codec never move it.
//
//	go run ./internal/cmd/mutants [-run NAME]
package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

func main() {
	only := flag.String("run", "", "only mutants whose name matches this regexp")
	flag.Parse()
	if err := runAll(*only); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

func runAll(only string) error {
	re, errRe := regexp.Compile(only)
	out, errMod := exec.Command("go", "env", "GOMOD").Output()
	tmp, errTmp := os.MkdirTemp("", "mutants")
	defer os.RemoveAll(tmp)
	if err := cmp.Or(errRe, errMod, errTmp); err != nil {
		return err
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	var survived, summary []string
	for _, m := range mutations {
		if !re.MatchString(m.Name) {
			continue
		}
		caught, err := runOne(root, tmp, m)
		if err != nil {
			return err // it names the mutant
		}
		if len(caught) == 0 {
			survived = append(survived, m.Name)
		}
		summary = append(summary, fmt.Sprintf("%-32s %s", m.Name, strings.Join(caught, " ")))
	}
	fmt.Printf("== summary: mutant, then the tests that caught it\n   %s\n", strings.Join(summary, "\n   "))
	fmt.Printf("== %d of %d mutants caught\n", len(summary)-len(survived), len(summary))
	if len(survived) > 0 {
		return fmt.Errorf("mutants no property caught: %s", strings.Join(survived, ", "))
	}
	return nil
}

// runOne writes m's file and the overlay naming it, runs the property
// suite, prints the failures and returns the top-level tests that failed.
func runOne(root, tmp string, m mutation) ([]string, error) {
	src := filepath.Join(root, "codec", m.File)
	b, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	if b, err = apply(src, b, m); err != nil {
		return nil, err
	}
	dst, overlay := filepath.Join(tmp, m.Name+"_"+m.File), filepath.Join(tmp, m.Name+".json")
	j, _ := json.Marshal(map[string]map[string]string{"Replace": {src: dst}})
	if err := errors.Join(os.WriteFile(dst, b, 0o600), os.WriteFile(overlay, j, 0o600)); err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "test", "-overlay", overlay, "-count=1", "./props/")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, fmt.Errorf("mutant %s: go test: %w", m.Name, err)
	}
	fmt.Printf("== %s (codec/%s): %s\n", m.Name, m.File, m.Why)
	var caught []string
	for _, l := range strings.Split(string(out), "\n") {
		l = strings.TrimSpace(l)
		// The failing tests, and gopter's falsification and label lines.
		if strings.HasPrefix(l, "--- FAIL") || strings.Contains(l, "! ") && strings.Contains(l, ":") ||
			strings.HasPrefix(l, "> Labels") || strings.HasPrefix(l, "panic:") {
			fmt.Println("   ", l[:min(len(l), 200)])
		}
		if name, ok := strings.CutPrefix(l, "--- FAIL: "); ok && !strings.Contains(name, "/") {
			caught = append(caught, strings.Fields(name)[0])
		}
	}
	if err == nil || len(caught) == 0 {
		fmt.Println("    SURVIVED: no property failed")
		return nil, nil
	}
	return caught, nil
}
