package main

import (
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// The control endpoint lets a driver say, out of band, what its SDK
// surfaced to the caller for a case (WIRE.md section 8: the code a frame
// maps to), which the wire cannot show, and end the run:
//
//	GET  /cases                      the cases, in order: id, name, expected
//	POST /result?case=ID&surfaced=X  X: "0" (the login succeeded), a status code, or an error name
//	POST /finish                     end the run and write the reports
type control struct{ k *kitServer }

// caseInfo is one entry of GET /cases.
type caseInfo struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Expected string `json:"expected"`
}

func (ct control) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/cases" && r.Method == http.MethodGet:
		var list []caseInfo
		for _, c := range ct.k.opts.Cases {
			list = append(list, caseInfo{ID: c.ID, Name: c.Name, Expected: "the client " + c.expected()})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(list)
	case r.URL.Path == "/result" && r.Method == http.MethodPost:
		id, surfaced := r.URL.Query().Get("case"), strings.TrimSpace(r.URL.Query().Get("surfaced"))
		if len(surfaced) > maxSurfaced {
			http.Error(w, "surfaced: more than "+strconv.Itoa(maxSurfaced)+" characters", http.StatusBadRequest)
			return
		}
		if !ct.k.surfaced(id, surfaced) {
			http.Error(w, "no such case", http.StatusNotFound)
		}
	case r.URL.Path == "/finish" && r.Method == http.MethodPost:
		ct.k.end()
	default:
		http.NotFound(w, r)
	}
}

// maxSurfaced bounds what a driver may say its SDK surfaced: a status
// code or an error name, not a text the report would carry whole.
const maxSurfaced = 64

// surfaced records what a driver reported for a case.
func (k *kitServer) surfaced(id, what string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	cr, ok := k.cases[id]
	if ok {
		cr.surfaced = what
	}
	return ok
}

// serveControl runs the control endpoint on ln until the run ends.
func (k *kitServer) serveControl(ln net.Listener) {
	srv := &http.Server{Handler: control{k}}
	go func() {
		<-k.finish
		_ = srv.Close()
	}()
	_ = srv.Serve(ln)
}
