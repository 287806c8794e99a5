// Command mutants checks that the property suite is not vacuous: for each
// deliberate bug in mutations.go it writes a copy of one codec file with
// the bug into a temporary directory, runs the property suite against it
// with go test -overlay (codec itself is never touched), and reports which
// properties failed. A mutant no property catches makes the command fail.
// Each bug is keyed by its function and an expression or statement in it,
// found with go/ast (apply.go), so edits elsewhere in codec never move it.
//
//	go run ./internal/cmd/mutants [-run NAME] [-v]
package main

import (
	"bufio"
	"bytes"
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
	verbose := flag.Bool("v", false, "print the whole go test output of each mutant")
	flag.Parse()
	if err := runAll(*only, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(1)
	}
}

func runAll(only string, verbose bool) error {
	re, err := regexp.Compile(only)
	if err != nil {
		return err
	}
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "mutants")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var survived, summary []string
	for _, m := range mutations() {
		if !re.MatchString(m.Name) {
			continue
		}
		caught, err := runOne(root, tmp, m, verbose)
		if err != nil {
			return err // it names the mutant
		}
		if len(caught) == 0 {
			survived = append(survived, m.Name)
		}
		summary = append(summary, fmt.Sprintf("%-32s %s", m.Name, strings.Join(caught, " ")))
	}
	fmt.Println("== summary: mutant, then the tests that caught it")
	for _, l := range summary {
		fmt.Println("  ", l)
	}
	fmt.Printf("== %d of %d mutants caught\n", len(summary)-len(survived), len(summary))
	if len(survived) > 0 {
		return fmt.Errorf("mutants no property caught: %s", strings.Join(survived, ", "))
	}
	return nil
}

// runOne applies m through an overlay and runs the property suite; it
// prints the failures and returns the top-level tests that failed.
func runOne(root, tmp string, m mutation, verbose bool) ([]string, error) {
	overlay, err := writeOverlay(root, tmp, m)
	if err != nil {
		return nil, err // apply's errors name the mutant, the rest name its files
	}
	cmd := exec.Command("go", "test", "-overlay", overlay, "-count=1", "./props/")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return nil, fmt.Errorf("mutant %s: go test: %w", m.Name, err)
	}
	fmt.Printf("== %s (codec/%s): %s\n", m.Name, m.File, m.Why)
	if verbose {
		os.Stdout.Write(out)
	}
	failed := failures(out)
	for _, line := range failed {
		fmt.Println("   ", line)
	}
	caught := failedTests(failed)
	if err == nil || len(caught) == 0 {
		fmt.Println("    SURVIVED: no property failed")
		return nil, nil
	}
	return caught, nil
}

// failedTests returns the names of the top-level tests among the failure
// lines, in order, once each.
func failedTests(lines []string) []string {
	var names []string
	seen := map[string]bool{}
	for _, l := range lines {
		name, ok := strings.CutPrefix(l, "--- FAIL: ")
		if !ok || strings.Contains(name, "/") {
			continue
		}
		name, _, _ = strings.Cut(name, " ")
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	return names
}

// failures picks the lines that say what failed: the failing tests and
// gopter's falsification and label lines.
func failures(out []byte) []string {
	var lines []string
	s := bufio.NewScanner(bytes.NewReader(out))
	s.Buffer(nil, 1<<20)
	for s.Scan() {
		l := strings.TrimSpace(s.Text())
		if strings.HasPrefix(l, "--- FAIL") || strings.Contains(l, "! ") && strings.Contains(l, ":") ||
			strings.HasPrefix(l, "> Labels") || strings.HasPrefix(l, "panic:") {
			if len(l) > 200 {
				l = l[:200] + "..."
			}
			lines = append(lines, l)
		}
	}
	return lines
}

// writeOverlay writes the mutated file and the overlay JSON naming it.
func writeOverlay(root, tmp string, m mutation) (string, error) {
	src := filepath.Join(root, "codec", m.File)
	mutated, err := apply(src, m)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(tmp, m.Name+"_"+m.File)
	if err := os.WriteFile(dst, mutated, 0o600); err != nil {
		return "", err
	}
	j, err := json.Marshal(map[string]map[string]string{"Replace": {src: dst}})
	if err != nil {
		return "", err
	}
	overlay := filepath.Join(tmp, m.Name+".json")
	return overlay, os.WriteFile(overlay, j, 0o600)
}

// moduleRoot is the directory of go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside a module")
	}
	return filepath.Dir(mod), nil
}
