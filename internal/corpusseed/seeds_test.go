package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

func TestSeedsReproducible(t *testing.T) {
	if !reflect.DeepEqual(Seeds(), Seeds()) {
		t.Fatal("two runs give different seeds")
	}
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9.+-]*$`)

func TestSeedNamesUniqueAndPlain(t *testing.T) {
	for target, seeds := range Seeds() {
		if len(seeds) > 200 {
			t.Errorf("%s: %d seeds; keep the corpus small", target, len(seeds))
		}
		seen := map[string]bool{}
		for _, s := range seeds {
			if !nameRE.MatchString(s.Name) || strings.HasPrefix(s.Name, promotedPrefix) || seen[s.Name] {
				t.Errorf("%s: seed name %q is not a unique plain name", target, s.Name)
			}
			seen[s.Name] = true
		}
	}
}

// decoders says, per target whose seeds are named valid-*/bad-*, whether
// an input decodes.
var decoders = map[string]func([]byte) error{
	"FuzzClientVersionInfo": func(b []byte) error { _, err := codec.ParseClientVersionInfo(b); return err },
	"FuzzLoginRegister":     func(b []byte) error { _, err := codec.ParseLoginRegister(b); return err },
	"FuzzLoginRegisterPAT":  func(b []byte) error { _, err := codec.ParseLoginRegisterPAT(b); return err },
	"FuzzLoginReply":        func(b []byte) error { _, err := codec.ParseLoginReply(b); return err },
	"FuzzRequestHeader":     func(b []byte) error { _, err := codec.DecodeRequestHeader(b); return err },
	"FuzzReplyHeader":       func(b []byte) error { _, err := codec.DecodeReplyHeader(b); return err },
	"FuzzSplitResult":       func(b []byte) error { _, _, err := codec.SplitResult(b); return err },
}

// TestSeedsAreWhatTheirNamesSay: a valid-* seed decodes and a bad-* seed
// does not, so each seed exercises the rule it is named for.
func TestSeedsAreWhatTheirNamesSay(t *testing.T) {
	seeds := Seeds()
	for target, decode := range decoders {
		for _, s := range seeds[target] {
			err := decode(s.Data)
			switch {
			case strings.HasPrefix(s.Name, "valid-") && err != nil:
				t.Errorf("%s/%s fails: %v", target, s.Name, err)
			case strings.HasPrefix(s.Name, "bad-") && err == nil:
				t.Errorf("%s/%s decodes", target, s.Name)
			}
		}
	}
}

// TestEvictionSeeds: every reason 1..15 has a valid seed; the seeds named
// for a broken rule fail with that rule's class.
func TestEvictionSeeds(t *testing.T) {
	want := map[string]error{
		"eviction-reason14-window-ill-formed": codec.ErrWindow,
		"eviction-reason14-window-min-0":      codec.ErrWindow,
		"eviction-reason1-window-nonzero":     codec.ErrWindow,
		"eviction-reason0":                    codec.ErrReason,
		"eviction-reason16":                   codec.ErrReason,
		"eviction-reason255":                  codec.ErrReason,
		"eviction-size-257":                   codec.ErrSize,
		"eviction-client-0":                   codec.ErrField,
		"eviction-reserved-frame":             codec.ErrReserved,
		"eviction-reserved":                   codec.ErrReserved,
		"eviction-reserved-last-byte":         codec.ErrReserved,
		"eviction-command-request":            codec.ErrCommand,
		"eviction-truncated":                  codec.ErrTruncated,
	}
	reasons := map[codec.EvictionReason]bool{}
	for _, s := range Seeds()["FuzzEviction"] {
		e, err := codec.DecodeEviction(s.Data)
		if class, bad := want[s.Name]; bad {
			if err == nil || !strings.Contains(err.Error(), class.Error()) {
				t.Errorf("%s: %v, want %v", s.Name, err, class)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", s.Name, err)
		}
		reasons[e.Reason] = true
	}
	if len(reasons) != 15 {
		t.Errorf("valid seeds cover %d reasons, want 15", len(reasons))
	}
}

func TestWriteKeepsPromotedFiles(t *testing.T) {
	out := t.TempDir()
	dir := filepath.Join(out, "FuzzX")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"found-abc": "kept", "old-seed": "dropped"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	seeds := map[string][]Seed{"FuzzX": {{"new-seed", []byte{1, 2}}}}
	if err := write(out, seeds, io.Discard); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "found-abc,new-seed" {
		t.Fatalf("dir holds %v, want the promoted file and the new seed", names)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new-seed")); !bytes.Equal(b, []byte{1, 2}) {
		t.Fatalf("new-seed holds %x", b)
	}
}
