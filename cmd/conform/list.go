package main

// listIDs lists a mode's case ids in run order.
func listIDs(mode string, vs *vectorSet, reg *registry) ([]string, error) {
	var ids []string
	if mode == "server" {
		cs, err := serverCases(vs, reg)
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
