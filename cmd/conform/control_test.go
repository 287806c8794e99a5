package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A surfaced value longer than the report keeps is refused, not dropped
// behind a 200; one within the bound is recorded.
func TestControlRefusesOverlongSurfaced(t *testing.T) {
	k := &kitServer{cases: map[string]*caseRun{"s1": {}}}
	post := func(q string) int {
		w := httptest.NewRecorder()
		control{k}.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/result?"+q, nil))
		return w.Code
	}
	assert.Equal(t, http.StatusBadRequest, post("case=s1&surfaced="+strings.Repeat("x", maxSurfaced+1)))
	assert.Empty(t, k.cases["s1"].surfaced)
	assert.Equal(t, http.StatusOK, post("case=s1&surfaced="+strings.Repeat("y", maxSurfaced)))
	assert.Equal(t, strings.Repeat("y", maxSurfaced), k.cases["s1"].surfaced)
	assert.Equal(t, http.StatusNotFound, post("case=zz9&surfaced=0"))
}
