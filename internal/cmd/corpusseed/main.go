// Command corpusseed writes the seed inputs of the byte-reading fuzz
// targets to corpus/<Target>/vec-* (`make corpus-seed`) from the
// conformance vectors in vectors/, so that the rules are stated once, by
// internal/cmd/vectorgen, and the corpus starts from every per-rule case
// the vectors hold. The output is reproducible: the same vectors always
// give the same files with the same bytes.
//
// Each case's input goes to the target that decodes its kind, a header
// case's whole frame also to FuzzFrame, every body, header, version and
// window input to FuzzDifferential, and each one-connection lifecycle
// case's frames, as chunks, to FuzzConn. A file is named after its case
// (vec-request-single-header.length-255-bytes); an input already written
// for the target is not written again.
//
// The program owns the vec-* files and nothing else: the seeds of the
// structured targets (FuzzBuildBodies, FuzzBuildHeaders, FuzzClient,
// FuzzSecretPrinting, whose bytes are choices of a field generator rather
// than wire bytes), and the found-* files promoted from fuzzing, are
// committed files it leaves alone.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/iggywire/iggywire/codec"
)

func main() {
	out := flag.String("out", "corpus", "directory that holds one subdirectory per target")
	flag.Parse()
	seeds, err := Seeds("vectors")
	if err == nil {
		err = write(*out, seeds, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "corpusseed:", err)
		os.Exit(1)
	}
}

// prefix marks the files this program owns.
const prefix = "vec-"

// targets maps a vector file's kind to the fuzz target that reads such
// inputs; every one of them also seeds FuzzDifferential.
var targets = map[string]string{
	"client_version_info":            "FuzzClientVersionInfo",
	"login_register":                 "FuzzLoginRegister",
	"login_register_pat":             "FuzzLoginRegisterPAT",
	"login_register_bind_secret":     "FuzzLoginRegisterSecret",
	"login_register_pat_bind_secret": "FuzzLoginRegisterPATSecret",
	"login_reply":                    "FuzzLoginReply",
	"bind_session":                   "FuzzBindSession",
	"request_header":                 "FuzzRequestHeader",
	"reply_header":                   "FuzzReplyHeader",
	"eviction":                       "FuzzEviction",
	"login_reply_frame":              "FuzzFrame",
	"result_section":                 "FuzzSplitResult",
	"version_text":                   "FuzzParseVersion",
	"window":                         "FuzzDifferential",
	"default_window":                 "FuzzDifferential",
}

// secretKinds are the bodies that carry a password, token or bind secret.
// One of at least a header's length is not copied to FuzzDifferential:
// wiredump reads that directory's files as every kind at once, a frame
// among them, and its title of an unknown command prints the byte at
// offset 60, which then lies inside the secret (cmd/wiredump's
// TestCorpusAndCrashers fails on such a file). Each stays in its own
// target's directory.
var secretKinds = map[string]bool{
	"login_register": true, "login_register_pat": true, "login_register_bind_secret": true,
	"login_register_pat_bind_secret": true, "bind_session": true,
}

// vectorFile is the part of a vectors/*.json file the seeds come from.
type vectorFile struct {
	Kind  string
	Cases []vectorCase
}

// vectorCase is one case: an input (and a header case's whole frame), or
// the frames a lifecycle case sends.
type vectorCase struct {
	Name  string
	Input hexBytes
	Frame *struct{ Input hexBytes }
	Steps []step
}

// step is one frame a lifecycle case sends, on connection Conn.
type step struct {
	Conn int
	In   hexBytes
}

// hexBytes is bytes the vectors write in hex, decoded as the JSON is read.
type hexBytes []byte

// UnmarshalText decodes the hex.
func (h *hexBytes) UnmarshalText(text []byte) error {
	b, err := hex.DecodeString(string(text))
	*h = b
	return err
}

// Seed is one corpus file.
type Seed struct {
	Name string
	Data []byte
}

// Seeds reads the vectors in dir and returns every target's seeds, in the
// vectors' order.
func Seeds(dir string) (map[string][]Seed, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	s := seeder{}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		var v vectorFile
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		for _, c := range v.Cases {
			s.addCase(v.Kind, c) // ids, rules and schema have no cases
		}
	}
	if len(s) == 0 {
		return nil, fmt.Errorf("no vectors in %s", dir)
	}
	return s, nil
}

// seeder collects the seeds of each target, once per input.
type seeder map[string][]Seed

// addCase adds a case's inputs to their targets, as the package doc says.
func (s seeder) addCase(kind string, c vectorCase) {
	if target, ok := targets[kind]; ok {
		s.add(target, c.Name, c.Input)
		if !secretKinds[kind] || len(c.Input) < codec.HeaderSize {
			s.add("FuzzDifferential", c.Name, c.Input)
		}
		if c.Frame != nil {
			s.add("FuzzFrame", c.Name, c.Frame.Input)
		}
	}
	if kind != "lifecycle" || slices.ContainsFunc(c.Steps, func(st step) bool { return st.Conn != 0 }) {
		return // FuzzConn drives one connection
	}
	// Each frame as a chunk FuzzConn reads (fuzz/chunks_test.go): [flags u8]
	// [len u16 LE][frame], flags 1 keeping the frame's size field as it is.
	var stream []byte
	for _, st := range c.Steps {
		stream = binary.LittleEndian.AppendUint16(append(stream, 1), uint16(len(st.In)))
		stream = append(stream, st.In...)
	}
	s.add("FuzzConn", c.Name, stream)
}

func (s seeder) add(target, name string, data []byte) {
	if slices.ContainsFunc(s[target], func(x Seed) bool { return bytes.Equal(x.Data, data) }) {
		return
	}
	s[target] = append(s[target], Seed{Name: prefix + strings.ReplaceAll(name, "/", "-"), Data: data})
}

// write replaces the vec-* files under out with seeds, target by target.
func write(out string, seeds map[string][]Seed, log io.Writer) error {
	dirs, err := filepath.Glob(filepath.Join(out, "*", prefix+"*"))
	if err != nil {
		return err
	}
	for _, f := range dirs { // so that a renamed or dropped case does not linger
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(seeds))
	for t := range seeds {
		names = append(names, t)
	}
	slices.Sort(names)
	for _, t := range names {
		dir := filepath.Join(out, t)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		for _, s := range seeds[t] {
			file := filepath.Join(dir, s.Name)
			if old, err := os.ReadFile(file); err == nil && !bytes.Equal(old, s.Data) {
				return fmt.Errorf("%s: two cases of that name", file)
			}
			if err := os.WriteFile(file, s.Data, 0o644); err != nil {
				return err
			}
		}
		fmt.Fprintf(log, "%-28s %d seeds\n", t, len(seeds[t]))
	}
	return nil
}
