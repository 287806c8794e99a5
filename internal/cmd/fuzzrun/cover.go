package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// coverPkg is what -cover measures.
const coverPkg = "./codec/..."

// cover replays corpus/ and crashers/ (a plain `go test` of the fuzz
// package runs every seed and nothing else) and prints the statement
// coverage of codec/ and every statement block the corpus never reaches.
func cover(c config, stdout io.Writer) error {
	dir, err := os.MkdirTemp("", "fuzzrun-cover")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	profile := filepath.Join(dir, "cover.out")
	cmd := exec.Command("go", "test", "-count=1", "-run=^Fuzz", "-coverpkg="+coverPkg, "-coverprofile="+profile, c.pkg)
	cmd.Stdout, cmd.Stderr = stdout, stdout
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("replaying the corpus: %w", err)
	}
	f, err := os.Open(profile)
	if err != nil {
		return err
	}
	defer f.Close()
	p, err := ParseProfile(f)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "codec/ statement coverage from corpus/ and crashers/: %.1f%% (%d of %d statements)\n",
		p.Percent(), p.Covered, p.Statements)
	for _, b := range p.Uncovered {
		fmt.Fprintln(stdout, "  not reached:", b)
	}
	if c.html == "" {
		return nil
	}
	return writeHTML(profile, c.html, stdout)
}

// writeHTML turns the profile into go tool cover's annotated source page.
func writeHTML(profile, out string, stdout io.Writer) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "tool", "cover", "-html="+profile, "-o", abs)
	cmd.Stdout, cmd.Stderr = stdout, stdout
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go tool cover -html: %w", err)
	}
	fmt.Fprintln(stdout, "coverage page:", out)
	return nil
}

// Profile is a coverage profile summed over its blocks.
type Profile struct {
	Statements, Covered int
	Uncovered           []string // file:line.col,line.col of each block never run
}

// Percent is covered statements over all statements, 100 when there are
// none.
func (p Profile) Percent() float64 {
	if p.Statements == 0 {
		return 100
	}
	return 100 * float64(p.Covered) / float64(p.Statements)
}

// ParseProfile reads a `go test -coverprofile` file. A block listed more
// than once (one entry per test binary) counts as covered if any entry
// ran it.
func ParseProfile(r io.Reader) (Profile, error) {
	stmts := map[string]int{}
	hit := map[string]bool{}
	s := bufio.NewScanner(r)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		if n == 1 && strings.HasPrefix(line, "mode:") || line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return Profile{}, fmt.Errorf("profile line %d: %q", n, line)
		}
		ns, err1 := strconv.Atoi(f[1])
		count, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil {
			return Profile{}, fmt.Errorf("profile line %d: %q", n, line)
		}
		stmts[f[0]] = ns
		hit[f[0]] = hit[f[0]] || count > 0
	}
	if err := s.Err(); err != nil {
		return Profile{}, err
	}
	var p Profile
	for block, ns := range stmts {
		p.Statements += ns
		if hit[block] {
			p.Covered += ns
		} else {
			p.Uncovered = append(p.Uncovered, block)
		}
	}
	sort.Strings(p.Uncovered)
	return p, nil
}
