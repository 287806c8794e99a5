package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Files written under vectors/ besides one <kind>.json per kind.
const (
	rulesFile    = "rules.json"
	registryFile = "ids.json"
)

// render generates every case, checks each against the codec and the
// lifecycle, numbers them from the registry in outDir, and returns the
// content of every file to write, by name.
func render(root, outDir string) (map[string][]byte, error) {
	g := generate(root)
	if len(g.errs) > 0 {
		return nil, fmt.Errorf("%d problem(s):\n%w", len(g.errs), errors.Join(g.errs...))
	}
	b, err := os.ReadFile(filepath.Join(outDir, registryFile))
	reg := Registry{} // a missing file is an empty registry
	if err == nil {
		reg, err = parseRegistry(b)
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	names := make([]string, len(g.cases))
	for i, c := range g.cases {
		names[i] = c.Name
	}
	reg, ids := reg.assign(names)
	docs := map[string]any{registryFile: reg, rulesFile: struct {
		Format      int          `json:"format"`
		Rules       []Rule       `json:"rules"`
		Conventions []Convention `json:"conventions"`
	}{FormatVersion, ruleList(), conventionList()}}
	for _, k := range kindList {
		f := kindInfos()[k]
		f.Format, f.Kind, f.Cases = FormatVersion, k, []Case{}
		for _, c := range g.cases {
			if c.Kind == k {
				c.ID = ids[c.Name]
				f.Cases = append(f.Cases, c)
			}
		}
		if k == KindLifecycle {
			f.Servers = g.servers
		}
		docs[k+".json"] = f
	}
	out := map[string][]byte{}
	for name, doc := range docs {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return nil, err
		}
		out[name] = buf.Bytes()
	}
	return out, nil
}

// verifyCase replays one case: a codec case against the codec (its frame's
// verdict too, for a header kind), a lifecycle case through a fresh
// lifecycle.Server of its configuration, played both ways (replay).
func verifyCase(servers map[string]ServerConfig, c *Case) error {
	if c.Kind == KindLifecycle {
		if err := replay(servers, c, 0); err != nil {
			return err
		}
		if err := replay(servers, c, elsewhereShift); err != nil {
			return fmt.Errorf("played against another server: %w", err)
		}
		return nil
	}
	got, err := observe(c)
	if err == nil {
		err = agree("", got, c.Expect)
	}
	if err != nil || !isHeaderKind(c.Kind) {
		return err
	}
	if c.Frame == nil {
		return errors.New("a header case without its frame")
	}
	if got, err = observeFrame(c.Kind, c.Frame); err != nil {
		return err
	}
	return agree("frame: ", got, c.Frame.Expect)
}

// agree compares a verdict as the file writes it: as JSON.
func agree(what string, got, want *Expect) error {
	g, gerr := json.Marshal(got)
	w, werr := json.Marshal(want)
	if gerr != nil || werr != nil || !bytes.Equal(g, w) {
		return fmt.Errorf("%sthe codec says %s, the case expects %s", what, g, w)
	}
	return nil
}
