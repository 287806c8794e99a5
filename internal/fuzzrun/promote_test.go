package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := writeNew(path, data); err != nil {
		t.Fatal(err)
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestPromoteDedupsAndCaps(t *testing.T) {
	tmp := t.TempDir()
	dst := filepath.Join(tmp, "corpus", "FuzzX")
	cache := filepath.Join(tmp, "cache")
	testdata := filepath.Join(tmp, "testdata")
	write(t, filepath.Join(dst, "seed-valid"), []byte("seed"))
	write(t, filepath.Join(cache, "a"), fuzzload.Encode([]byte("seed")))    // already a seed
	write(t, filepath.Join(cache, "b"), fuzzload.Encode([]byte("longest"))) // dropped by the cap
	write(t, filepath.Join(cache, "c"), fuzzload.Encode([]byte("xy")))
	write(t, filepath.Join(testdata, "d"), fuzzload.Encode([]byte("xy"))) // same content twice
	write(t, filepath.Join(testdata, "e"), fuzzload.Encode([]byte("abc")))

	n, err := Promote(dst, []string{cache, testdata, filepath.Join(tmp, "missing")}, 3)
	if err != nil || n != 2 {
		t.Fatalf("Promote = %d, %v; want 2 new files", n, err)
	}
	got := names(t, dst)
	want := []string{contentName("found", []byte("abc")), contentName("found", []byte("xy")), "seed-valid"}
	sort.Strings(want)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("corpus holds %v, want %v", got, want)
	}
	raw, err := os.ReadFile(filepath.Join(dst, contentName("found", []byte("xy"))))
	if err != nil || string(raw) != "xy" {
		t.Fatalf("promoted file holds %q, %v; want the raw bytes", raw, err)
	}
	// A second promotion finds nothing new to add and keeps the cap.
	if n, err := Promote(dst, []string{cache, testdata}, 3); err != nil || n != 0 {
		t.Fatalf("second Promote = %d, %v; want 0", n, err)
	}
}

func TestSaveCrasher(t *testing.T) {
	root := t.TempDir()
	failing := filepath.Join(root, "fuzz", "testdata", "fuzz", "FuzzX", "582528ddfad69eb5")
	write(t, failing, fuzzload.Encode([]byte{0, 0xff, 'a'}))
	path, err := saveCrasher(root, failing, "FuzzX")
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(root, "crashers", "FuzzX", contentName("crash", []byte{0, 0xff, 'a'}))
	if path != want {
		t.Fatalf("crasher at %s, want %s", path, want)
	}
	raw, err := os.ReadFile(path)
	if err != nil || string(raw) != "\x00\xffa" {
		t.Fatalf("crasher holds %q, %v; want raw bytes", raw, err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "crashers", "README.md"))
	if err != nil || !strings.Contains(string(readme), "`FuzzX/"+filepath.Base(path)+"`") {
		t.Fatalf("README.md = %q, %v; want a line naming the crasher", readme, err)
	}
	if _, err := os.Stat(failing); !os.IsNotExist(err) {
		t.Fatalf("the testdata copy is still there: %v", err)
	}
	if _, err := saveCrasher(root, filepath.Join(root, "nope"), "FuzzX"); err == nil {
		t.Fatal("saveCrasher of a missing file succeeded")
	}
}

func TestParseList(t *testing.T) {
	out := "FuzzA\nFuzzB\nTestNotFuzz\nok  \tgithub.com/x/fuzz\t0.003s\n"
	if got := parseList(out); strings.Join(got, ",") != "FuzzA,FuzzB" {
		t.Fatalf("parseList = %v", got)
	}
}

func TestParseProfile(t *testing.T) {
	const profile = `mode: set
github.com/x/codec/a.go:1.1,3.2 2 1
github.com/x/codec/a.go:4.1,5.2 3 0
github.com/x/codec/b.go:1.1,2.2 5 0
github.com/x/codec/b.go:1.1,2.2 5 1
`
	p, err := ParseProfile(strings.NewReader(profile))
	if err != nil {
		t.Fatal(err)
	}
	if p.Statements != 10 || p.Covered != 7 || len(p.Uncovered) != 1 || p.Uncovered[0] != "github.com/x/codec/a.go:4.1,5.2" {
		t.Fatalf("ParseProfile = %+v", p)
	}
	if p.Percent() != 70 {
		t.Fatalf("Percent = %v, want 70", p.Percent())
	}
	if _, err := ParseProfile(strings.NewReader("mode: set\nbad line\n")); err == nil {
		t.Fatal("ParseProfile accepted a malformed line")
	}
	if (Profile{}).Percent() != 100 {
		t.Fatal("an empty profile is not fully covered")
	}
}
