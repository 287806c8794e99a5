package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// postResult posts a result to the control endpoint of k and returns the
// status of the answer.
func postResult(k *kitServer, id, surfaced string) int {
	w := httptest.NewRecorder()
	control{k}.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/result?case="+url.QueryEscape(id)+"&surfaced="+url.QueryEscape(surfaced), nil))
	return w.Code
}

// An error's text longer than the report keeps is cut, marked, and still
// recorded: a driver posting a long net error must not lose the case's
// result to a 400. One within the bound is recorded whole.
func TestControlCutsOverlongSurfaced(t *testing.T) {
	k := &kitServer{cases: map[string]*caseRun{"s1": {}, "s2": {}}}
	long := "read tcp 127.0.0.1:54321->127.0.0.1:8091: read: connection reset by peer " + strings.Repeat("x", maxSurfaced)
	require.Equal(t, http.StatusOK, postResult(k, "s1", long))
	got := k.cases["s1"].surfaced
	assert.True(t, strings.HasPrefix(got, long[:maxSurfaced]), got)
	assert.True(t, strings.HasSuffix(got, "...("+strconv.Itoa(len(long)-maxSurfaced)+" more bytes)"), got)
	require.Equal(t, http.StatusOK, postResult(k, "s2", strings.Repeat("y", maxSurfaced)))
	assert.Equal(t, strings.Repeat("y", maxSurfaced), k.cases["s2"].surfaced)
	assert.Equal(t, http.StatusNotFound, postResult(k, "zz9", "0"))
}

// A cut never splits a character, and a text's control characters and
// invalid bytes do not reach the report.
func TestCanonSurfacedText(t *testing.T) {
	got := canonSurfaced(strings.Repeat("a", maxSurfaced-1) + "é and more")
	assert.Equal(t, strings.Repeat("a", maxSurfaced-1)+"...(11 more bytes)", got)
	assert.Equal(t, "connection closed  while waiting", canonSurfaced("connection closed\r\nwhile waiting"))
	assert.Equal(t, "bad \uFFFD byte", canonSurfaced("bad \xff byte"))
	assert.Equal(t, "context deadline exceeded", canonSurfaced("  context deadline exceeded\n"))
}

// A driver may post an SDK's error by the name WIRE.md section 8 gives
// its code, or post the SDKs' own code for IncompatibleProtocolVersion
// (14003); the kit records the section 8 form, so the case's verdict does
// not depend on how the driver spelled it.
func TestCanonSurfacedNames(t *testing.T) {
	for in, want := range map[string]string{
		"0":                             "0",
		"42":                            "42",
		"InvalidCredentials":            "42",
		"invalid_credentials":           "42",
		"INVALIDCOMMAND":                "3",
		"InvalidFormat":                 "4",
		"StaleClient":                   "30",
		"Unauthenticated":               "40",
		"InvalidPersonalAccessToken":    "53",
		"TransientNotCommitted":         "57",
		"TransientNotAccepted":          "58",
		"14003":                         "IncompatibleProtocolVersion",
		"IncompatibleProtocolVersion":   "IncompatibleProtocolVersion",
		"incompatible_protocol_version": "IncompatibleProtocolVersion",
		"Disconnected":                  "Disconnected",
		"8":                             "8",
		"SDK error 304":                 "SDK error 304",
	} {
		assert.Equal(t, want, canonSurfaced(in), in)
	}
}

// What the kit records is what it judges: a 14003 posted for a case
// wanting IncompatibleProtocolVersion passes, an error's text for a case
// wanting 3 fails naming the text.
func TestSurfacedJudgedAfterMapping(t *testing.T) {
	assert.True(t, surfacedRight("IncompatibleProtocolVersion", canonSurfaced("14003")))
	assert.True(t, surfacedRight("42", canonSurfaced("InvalidCredentials")))
	assert.False(t, surfacedRight("3", canonSurfaced("connection closed while waiting for response")))
	assert.True(t, surfacedRight(surfaceError, canonSurfaced("connection closed while waiting for response")))
	assert.False(t, surfacedRight(surfaceError, canonSurfaced("0")))
}

// An SDK that replays a transient login by itself returns the replay's
// success to its caller: 0 is right for a 57 or 58 case (the wire shows
// whether it replayed), and no other code is.
func TestSurfacedTransientMaySucceed(t *testing.T) {
	for _, want := range []string{"57", "58"} {
		assert.True(t, surfacedRight(want, "0"), want)
		assert.True(t, surfacedRight(want, want), want)
		assert.False(t, surfacedRight(want, "40"), want)
	}
	assert.False(t, surfacedRight("42", "0"))
	assert.False(t, surfacedRight("IncompatibleProtocolVersion", "0"))
}

// A secret the run knows never reaches a report through a driver's text.
func TestSurfacedTextHidesSecrets(t *testing.T) {
	r := &redactor{}
	r.add([]byte("hunter2"))
	r.add([]byte("pw"))
	assert.Equal(t, "login as ** with ** failed", r.hideInText("login as hunter2 with pw failed"))
	var none *redactor
	assert.Equal(t, "as is", none.hideInText("as is"))
}

// POST /finish is answered, every time: the run it ends closes the
// control endpoint only after the answer is written. (Closing the server
// from the handler's side of the run's end dropped the connection before
// the answer now and then, so the test asks several times.)
func TestControlFinishIsAnswered(t *testing.T) {
	vs, reg := loadAll(t)
	cases, err := serverCases(vs, reg)
	require.NoError(t, err)
	for range 20 {
		ready := make(chan net.Addr, 1)
		done := make(chan *Report, 1)
		go func() {
			r, err := runServer(context.Background(), serverOptions{Listen: "127.0.0.1:0", Control: "127.0.0.1:0", Wait: testWait, Stall: testWait,
				Agent: "finish", Cases: cases[:2], Redact: &redactor{}, Ready: func(_, c net.Addr) { ready <- c }})
			assert.NoError(t, err)
			done <- r
		}()
		ctl := "http://" + (<-ready).String()
		cl := &http.Client{Timeout: 5 * time.Second}
		resp, err := cl.Post(ctl+"/result?case="+cases[0].ID+"&surfaced=14003", "text/plain", nil)
		require.NoError(t, err)
		resp.Body.Close()
		resp, err = cl.Post(ctl+"/finish", "text/plain", nil)
		require.NoError(t, err, "POST /finish went unanswered")
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Contains(t, string(body), "the run has ended")
		r := <-done
		require.NotNil(t, r)
		assert.Equal(t, 2, r.Summary.NotRun)
		// After the run the endpoint is gone, not hanging.
		_, err = cl.Post(ctl+"/finish", "text/plain", nil)
		assert.Error(t, err)
	}
}
