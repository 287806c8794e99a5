package main

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// idsJSON is the registry of the kit's own case ids: append-only, like
// vectors/ids.json. A case's id never changes and is never reused; a new
// case takes the next number of its mode.
//
//go:embed ids.json
var idsJSON []byte

// registry maps each mode's own case names to their ids.
type registry struct {
	Format int                     `json:"format"`
	Note   string                  `json:"note"`
	Modes  map[string][]registered `json:"modes"`
}

// registered is one entry of the registry. An own case that a vector now
// holds names it: the case keeps its id and meaning, and its frames and
// answers come from the vector (which is then played under this id only).
// Pipelined: the vector's frames are written at once, as the case always
// wrote them, not step by step.
type registered struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Vector    int    `json:"vector,omitempty"`
	Pipelined bool   `json:"pipelined,omitempty"`
}

// loadRegistry reads the embedded registry.
func loadRegistry() (*registry, error) {
	r := new(registry)
	if err := json.Unmarshal(idsJSON, r); err != nil {
		return nil, fmt.Errorf("ids.json: %w", err)
	}
	return r, nil
}

// id returns the registered id of a case of mode.
func (r *registry) id(mode, name string) (string, error) {
	for _, e := range r.Modes[mode] {
		if e.Name == name {
			return e.ID, nil
		}
	}
	return "", fmt.Errorf("ids.json: %s case %q has no id: add it with the next number of its mode", mode, name)
}

// fromVectors returns the entries of mode that a vector holds, by vector id.
func (r *registry) fromVectors(mode string) map[int]registered {
	m := map[int]registered{}
	for _, e := range r.Modes[mode] {
		if e.Vector != 0 {
			m[e.Vector] = e
		}
	}
	return m
}
