package main

import "github.com/iggywire/iggywire/codec"

// listIDs lists a mode's case ids in run order; server mode's are those of
// a kit serving protocol (0.11.1 has cases of its own).
func listIDs(mode string, vs *vectorSet, reg *registry, protocol codec.Version) ([]string, error) {
	var ids []string
	if mode == "server" {
		cs, err := serverCasesAt(vs, reg, protocol)
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		return ids, err
	}
	cs, err := clientCases(vs, reg)
	for _, c := range cs {
		ids = append(ids, c.ID)
	}
	return ids, err
}
