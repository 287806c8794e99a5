package main

import (
	"os"
	"path/filepath"

	"github.com/iggywire/iggywire/internal/fuzzload"
)

// crasherKinds maps the fuzz targets that take one message as raw bytes to
// the kind of that message and the WIRE.md section that defines it.
var crasherKinds = map[string][2]string{
	"FuzzParseVersion": {KindVersionText, "1"}, "FuzzClientVersionInfo": {KindClientInfo, "2"},
	"FuzzLoginRegister": {KindLogin, "3"}, "FuzzLoginRegisterPAT": {KindLoginPAT, "3"},
	"FuzzLoginReply": {KindLoginReply, "4"}, "FuzzSplitResult": {KindResult, "4"},
	"FuzzRequestHeader": {KindRequest, "5"}, "FuzzReplyHeader": {KindReply, "5"}, "FuzzEviction": {KindEviction, "5"},
}

// crasherCases turns every input under root/crashers/<Target>/, read by
// target and then by name with the fuzz targets' own loader, into a case.
// A crasher's verdict is what the codec and lifecycle answer now that its
// bug is fixed (each fix was reviewed against WIRE.md when it was made);
// the case keeps that answer from changing unnoticed.
func (g *gen) crasherCases(root string) {
	dirs, err := os.ReadDir(filepath.Join(root, fuzzload.CrashersDir))
	if err != nil {
		g.failf("crashers: %v", err)
	}
	for _, d := range dirs {
		target := d.Name()
		if !d.IsDir() {
			continue
		}
		inputs, err := fuzzload.ReadDir(filepath.Join(root, fuzzload.CrashersDir, target))
		if err != nil {
			g.failf("crashers: %v", err)
		}
		for _, in := range inputs {
			name, src := "crasher/"+target+"/"+filepath.Base(in.Path), "crashers/"+target+"/"+filepath.Base(in.Path)
			if target == "FuzzConn" {
				g.crasherConn(name, src, in.Data)
				continue
			}
			kind, ok := crasherKinds[target]
			if !ok {
				g.failf("%s: no vector kind for fuzz target %s; add one to crasherKinds", src, target)
				continue
			}
			cs := g.add(Case{Name: name, Kind: kind[0], Section: kind[1], Rules: []string{}, Source: src,
				Note: "a crasher of " + target})
			cs.setInput(in.Data)
			if cs.Expect, err = observe(cs); err != nil {
				g.failf("%s: %v", src, err)
			}
		}
	}
}

// crasherConn cuts a FuzzConn input into frames the way the target does
// (fuzz/chunks_test.go: [flags u8][len u16 LE][bytes]; unless flags bit 0
// is set, a frame of 256 bytes or more gets its size field set to its
// length) and records what the server answers to each.
func (g *gen) crasherConn(name, src string, data []byte) {
	// The server of the FuzzConn target (fuzz/lifecycle_test.go).
	const server = "fuzzconn"
	g.servers[server] = ServerConfig{
		Window:  TextRange{Min: "0.11.0", Max: "0.11.0"},
		Version: "0.11.0",
		Users:   []UserConfig{{ID: 1, Name: "iggy", Password: "iggy"}, {ID: 2, Name: "gone", Password: "gone", Inactive: true}},
		Tokens:  []TokenConfig{{Token: "tok", User: "iggy"}, {Token: "old", User: "gone"}},
		Handler: "deny",
	}
	srv, err := newServer(g.servers[server], false)
	if err != nil {
		g.failf("%s: %v", src, err)
		return
	}
	conn := srv.NewConn()
	var steps []Step
	for rest := data; len(rest) >= 3; {
		flags, n := rest[0], int(le.Uint16(rest[1:]))
		rest = rest[3:]
		n = min(n, len(rest))
		f := append([]byte(nil), rest[:n]...)
		rest = rest[n:]
		if flags&1 == 0 && len(f) >= 256 {
			le.PutUint32(f[48:], uint32(len(f)))
		}
		st, err := handleStep(conn, f)
		if err != nil {
			g.failf("%s: step %d: %v", src, len(steps), err)
			return
		}
		steps = append(steps, st)
	}
	g.add(Case{Name: name, Kind: KindLifecycle, Section: "7", Source: src, Rules: []string{},
		Note: "a crasher of FuzzConn, cut into frames as the target cuts it", Server: server, Steps: steps})
}
