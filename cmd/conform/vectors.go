package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
)

// vectorFile is one vectors/<kind>.json file as the kit reads it. Fields the
// kit does not use (and fields added to the format later) are ignored.
type vectorFile struct {
	Format int    `json:"format"`
	Kind   string `json:"kind"`
	Side   string `json:"side"` // client: what an SDK decodes; server: what a server decodes

	Servers map[string]vectorServer `json:"servers"`
	Cases   []vectorCase            `json:"cases"`
}

// vectorCase is one case of any kind.
type vectorCase struct {
	ID      int          `json:"id"`
	Name    string       `json:"name"`
	Kind    string       `json:"kind"`
	Section string       `json:"section"`
	Rules   []string     `json:"rules"`
	Note    string       `json:"note"`
	Input   string       `json:"input"`
	Expect  vectorExpect `json:"expect"`
	Server  string       `json:"server"`
	Steps   []vectorStep `json:"steps"`
	Frame   *vectorFrame `json:"frame"`
}

// vectorFrame is a header case as a whole frame: Input then Fill zero
// bytes, Length in all (vectors/README.md, "Header cases as whole
// frames").
type vectorFrame struct {
	Input  string       `json:"input"`
	Fill   int          `json:"fill"`
	Length int          `json:"length"`
	Body   string       `json:"body"`
	Expect vectorExpect `json:"expect"`
}

// bytes is the frame as a reader takes it, when it is at most limit bytes
// long; a longer one (a header claiming up to 64 MiB) is its input alone,
// the header a reader must stop at.
func (f *vectorFrame) bytes(limit int) []byte {
	in := unhex(f.Input)
	if len(in)+f.Fill > limit || f.Fill < 0 {
		return in
	}
	return append(in, make([]byte, f.Fill)...)
}

// whole reports whether bytes(limit) is the whole frame.
func (f *vectorFrame) whole(limit int) bool {
	return len(unhex(f.Input))+f.Fill <= limit && f.Fill >= 0
}

// vectorExpect is a case's verdict.
type vectorExpect struct {
	Verdict  string         `json:"verdict"`
	Fields   map[string]any `json:"fields"`
	SDKCode  *int           `json:"sdk_code"`
	SDKError string         `json:"sdk_error"`
	Retry    string         `json:"retry"`
	Rule     string         `json:"rule"`
}

// vectorStep is one step of a lifecycle case, with what a runner over a
// stream needs (vectors/README.md, "Lifecycle cases"): whether the client
// ends its side after in, the answer's fields the server fills as it
// likes, and the session in carries.
type vectorStep struct {
	In        string      `json:"in"`
	Out       string      `json:"out"`
	Then      string      `json:"then"`
	Note      string      `json:"note"`
	Framing   string      `json:"framing"`
	End       bool        `json:"end"`
	Free      []freeField `json:"free"`
	InSession *sessionRef `json:"in_session"`
	// Conn is the case's connection the step goes to (0-based, 0 when
	// absent): a step naming a new one opens it, to the same server.
	Conn int `json:"conn"`
}

// freeField is a field of an answer WIRE.md leaves to the server: its
// Length bytes at Offset are held to Rule instead of compared.
type freeField struct {
	Field  string `json:"field"`
	Offset int    `json:"offset"`
	Length int    `json:"length"`
	Rule   string `json:"rule"`
}

// The rules of a free field.
const (
	freeAny     = "any"     // WIRE.md sets no value
	freeNonZero = "nonzero" // any non-zero value
	freeSession = "session" // non-zero, above every session handed out before
	// freeBound: the session a BIND_SESSION reply binds, one a login of
	// the case handed out before (compareBind holds it to the very one).
	freeBound = "bound"
)

// knownRules are the free-field rules the kit checks.
var knownRules = map[string]bool{freeAny: true, freeNonZero: true, freeSession: true, freeBound: true}

// sessionRef says that the u64 at Offset of a request is the session the
// login answered at Step handed out, plus Plus.
type sessionRef struct {
	Offset int `json:"offset"`
	Step   int `json:"step"`
	Plus   int `json:"plus"`
}

// vectorServer is the configuration a lifecycle case runs against.
type vectorServer struct {
	Window  struct{ Min, Max string } `json:"window"`
	Version string                    `json:"version"`
	Users   []struct {
		ID       uint32 `json:"id"`
		Name     string `json:"name"`
		Password string `json:"password"`
		Inactive bool   `json:"inactive"`
	} `json:"users"`
	Tokens []struct {
		Token string `json:"token"`
		User  string `json:"user"`
	} `json:"tokens"`
}

// vectorSet is every vector file of a directory, by kind.
type vectorSet struct {
	Dir   string
	Files map[string]vectorFile
}

// skipFiles are the vectors/ files that hold no cases.
var skipFiles = map[string]bool{"schema.json": true, "rules.json": true, "ids.json": true}

// loadVectors reads every case file of dir.
func loadVectors(dir string) (*vectorSet, error) {
	return loadVectorsFS(os.DirFS(dir), dir)
}

// builtIn names the vectors embedded in the kit (package vectors), the ones
// of the module version it was built with.
const builtIn = "(built in)"

// loadVectorsFS reads every case file at the top of fsys; name says where
// they came from.
func loadVectorsFS(fsys fs.FS, name string) (*vectorSet, error) {
	paths, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	set := &vectorSet{Dir: name, Files: map[string]vectorFile{}}
	sort.Strings(paths)
	for _, p := range paths {
		if skipFiles[p] {
			continue
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		var f vectorFile
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(name, p), err)
		}
		if f.Kind == "" || len(f.Cases) == 0 {
			continue
		}
		set.Files[f.Kind] = f
	}
	if len(set.Files) == 0 {
		return nil, fmt.Errorf("%s: no vector files", name)
	}
	return set, nil
}

// findVectors walks up from the working directory to the first vectors/
// holding ids.json, so that the kit finds the checkout's vectors whether it
// runs from the root, from cmd/ or from cmd/conform. Outside a checkout (a
// kit installed with go install) the caller falls back to the built-in
// vectors.
func findVectors() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "vectors")
		if _, err := os.Stat(filepath.Join(p, "ids.json")); err == nil {
			return p, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("no vectors/ directory above the working directory: give -vectors DIR")
		}
		dir = up
	}
}

// kind returns the cases of one kind, in file order.
func (s *vectorSet) kind(k string) []vectorCase { return s.Files[k].Cases }

// side returns the kinds whose file says side, sorted.
func (s *vectorSet) side(side string) []string {
	var kinds []string
	for k, f := range s.Files {
		if f.Side == side {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	return kinds
}

// unhex decodes a vector's hex, which the vectors keep lower-case and even.
func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return b
}

// field reads a vector's expected field as an unsigned integer: u64 values
// are decimal strings, smaller ones JSON numbers.
func (e vectorExpect) uint(name string) (uint64, bool) {
	switch v := e.Fields[name].(type) {
	case float64:
		return uint64(v), true
	case string:
		var n uint64
		if _, err := fmt.Sscan(v, &n); err == nil {
			return n, true
		}
	}
	return 0, false
}

// installed reports whether the kit is a released build (go install
// .../cmd/conform@vX): the main module has a version and the build recorded
// no VCS checkout. A build in a clone (go run, go build, go test) is not.
func installed() bool {
	bi, ok := debug.ReadBuildInfo()
	return ok && installedBuild(bi)
}

// installedBuild is installed on given build information.
func installedBuild(bi *debug.BuildInfo) bool {
	if v := bi.Main.Version; v == "" || v == "(devel)" {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			return false
		}
	}
	return true
}
