package main

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
)

// The control endpoint lets a driver say, out of band, what its SDK
// surfaced to the caller for a case (WIRE.md section 8: the code a frame
// maps to), which the wire cannot show, and end the run:
//
//	GET  /cases                      the cases, in order: id, name, expected
//	POST /result?case=ID&surfaced=X  X: "0" (the login succeeded), a status code, an error name, or an error's text
//	POST /finish                     end the run and write the reports
//
// Both POSTs are answered 200 (404 for an unknown case). The endpoint
// outlives the run's end long enough to answer the POST /finish that ended
// it and any request already being served (see runServer).
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
		id := r.URL.Query().Get("case")
		if !ct.k.surfaced(id, canonSurfaced(r.URL.Query().Get("surfaced"))) {
			http.Error(w, "no such case", http.StatusNotFound)
		}
	case r.URL.Path == "/finish" && r.Method == http.MethodPost:
		ct.k.end()
		_, _ = w.Write([]byte("the run has ended; the reports are being written\n"))
	default:
		http.NotFound(w, r)
	}
}

// maxSurfaced bounds how much of what a driver says its SDK surfaced the
// kit keeps: an error's text may be long (a Go net error names both
// addresses), and a longer one is cut, marked, rather than refused, so
// that the case still shows that the login failed and how.
const maxSurfaced = 256

// section8 are the codes WIRE.md section 8 maps frames to; a driver may
// post each as its number or its name there (InvalidCredentials for 42).
var section8 = [...]codec.Status{
	codec.StatusInvalidCommand, codec.StatusInvalidFormat, codec.StatusStaleClient,
	codec.StatusUnauthenticated, codec.StatusInvalidCredentials, codec.StatusInvalidPAT,
	codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted,
}

// surfaceIncompatible is how WIRE.md section 8 names what a well-formed
// eviction 14 surfaces; sdkIncompatible is the SDKs' error code for it
// (IggyError::IncompatibleProtocolVersion, 14003 in the Go and Node SDKs).
const (
	surfaceIncompatible = "IncompatibleProtocolVersion"
	sdkIncompatible     = "14003"
)

// canonSurfaced is what the kit records of a driver's surfaced value: a
// WIRE.md section 8 code as its number whether the driver gave the number
// or the name (any case, with or without underscores), the SDKs' 14003 as
// IncompatibleProtocolVersion, and anything else as text: control
// characters as spaces, invalid UTF-8 replaced, at most maxSurfaced bytes
// kept.
func canonSurfaced(s string) string {
	s = strings.TrimSpace(s)
	key := strings.ToLower(strings.ReplaceAll(s, "_", ""))
	switch key {
	case strings.ToLower(surfaceIncompatible), sdkIncompatible:
		return surfaceIncompatible
	}
	for _, st := range section8 {
		if key == strconv.Itoa(int(st)) || key == strings.ToLower(st.String()) {
			return strconv.Itoa(int(st))
		}
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) <= maxSurfaced {
		return s
	}
	cut := maxSurfaced
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "...(" + strconv.Itoa(len(s)-cut) + " more bytes)"
}

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

// controlGrace bounds how long the end of a run waits for the control
// endpoint's requests in flight (the POST /finish that ended it, a result
// being recorded) to be answered.
const controlGrace = 2 * time.Second

// serveControl runs the control endpoint on ln; the returned stop ends it
// once the requests in flight have been answered. Closing the server when
// the run ends, from inside the handler of the POST /finish that ended it,
// would drop that request's connection before its answer.
func (k *kitServer) serveControl(ln net.Listener) (stop func()) {
	srv := &http.Server{Handler: control{k}, ReadHeaderTimeout: controlGrace}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve(ln)
	}()
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), controlGrace)
		defer cancel()
		if srv.Shutdown(ctx) != nil {
			_ = srv.Close()
		}
		<-done
	}
}
