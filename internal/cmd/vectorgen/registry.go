package main

import (
	"encoding/json"
	"fmt"
)

// Registry is vectors/ids.json: every case name ever generated, with the
// id it was given. It only grows: a name keeps its id for ever, a new name
// gets the next unused id, and the id of a case that is no longer
// generated is never handed out again.
type Registry struct {
	Format int     `json:"format"`
	Note   string  `json:"note"`
	IDs    []Entry `json:"ids"`
}

// Entry is one registered case.
type Entry struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

const registryNote = "Append-only: a case name keeps its id for ever and ids are never reused. Written by make vectors."

// parseRegistry decodes a registry and checks it: ids are 1, 2, 3, ... in
// order and names are unique.
func parseRegistry(b []byte) (Registry, error) {
	var r Registry
	if err := json.Unmarshal(b, &r); err != nil {
		return Registry{}, fmt.Errorf("ids.json: %w", err)
	}
	seen := make(map[string]bool, len(r.IDs))
	for i, e := range r.IDs {
		if e.ID != i+1 {
			return r, fmt.Errorf("ids.json: entry %d has id %d, want %d (ids are dense and never renumbered)", i, e.ID, i+1)
		}
		if e.Name == "" || seen[e.Name] {
			return r, fmt.Errorf("ids.json: id %d: empty or repeated name %q", e.ID, e.Name)
		}
		seen[e.Name] = true
	}
	return r, nil
}

// assign returns the registry extended by every name it does not hold yet,
// in the order given, and the id of each name.
func (r Registry) assign(names []string) (Registry, map[string]int) {
	ids := make(map[string]int, len(r.IDs)+len(names))
	out := Registry{Format: FormatVersion, Note: registryNote, IDs: append([]Entry(nil), r.IDs...)}
	for _, e := range out.IDs {
		ids[e.Name] = e.ID
	}
	for _, n := range names {
		if _, ok := ids[n]; !ok {
			ids[n] = len(out.IDs) + 1
			out.IDs = append(out.IDs, Entry{ID: ids[n], Name: n})
		}
	}
	return out, ids
}
