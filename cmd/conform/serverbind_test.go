package main

import (
	"encoding/binary"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// At protocol 0.11.1 lifecycle.Client, whose logins carry a bind secret,
// passes every case, the two bind cases too (it does not reconnect), and
// no report shows a secret: every login's 32 secret bytes read "**".
func TestServerModeAt0111Passes(t *testing.T) {
	t.Parallel()
	r := serveAndDriveAt(t, driver{Protocol: protocol0111}, protocol0111)
	assert.Empty(t, failing(r))
	assert.Equal(t, "0.11.1", r.Protocol)
	ids := map[string]bool{}
	hidden := 0
	for _, c := range r.Cases {
		ids[c.ID] = true
		for _, f := range c.Frames {
			if f.Dir == dirClient && strings.HasPrefix(f.Note, "Register") && strings.Contains(f.Hex, strings.Repeat("**", codec.BindSecretLen)) {
				hidden++
			}
		}
	}
	assert.True(t, ids["s19"] && ids["s20"], "the bind cases run at 0.11.1")
	assert.Greater(t, hidden, 150, "each login's bind secret shows as **")
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.NotContains(t, string(b), hexOf(driverPassword), "a 0.11.1 login's password is hidden too")
}

// The bind cases belong to 0.11.1 only: at 0.11.0 no client binds.
func TestBindServerCasesAt0111Only(t *testing.T) {
	vs, reg := loadAll(t)
	old, err := serverCasesAt(vs, reg, protocol0110)
	require.NoError(t, err)
	cur, err := serverCasesAt(vs, reg, protocol0111)
	require.NoError(t, err)
	assert.Len(t, cur, len(old)+2)
	for _, c := range old {
		assert.NotContains(t, c.Name, "bind/")
	}
}

// rawClient is a 0.11.1 client written frame by frame, for the bind cases.
type rawClient struct {
	t      *testing.T
	addr   string
	client codec.Uint128
	secret []byte
	nc     net.Conn
}

func (c *rawClient) dial() {
	nc, err := net.Dial("tcp", c.addr)
	require.NoError(c.t, err)
	_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
	c.nc = nc
}

// send writes f and reads the answer; nil when the kit closed instead.
func (c *rawClient) send(f []byte) []byte {
	_, err := c.nc.Write(f)
	require.NoError(c.t, err)
	got, err := codec.ReadFrame(c.nc, nil, codec.MaxFrameSize)
	if err != nil {
		return nil
	}
	return got
}

// login logs in as case id with the client's id and secret; the session.
func (c *rawClient) login(id string) uint64 {
	body, err := codec.LoginRegister{Info: conformInfo(), Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(c.secret),
		Username: []byte(id), Password: codec.NewSecret([]byte("pw"))}.AppendBinary(nil)
	require.NoError(c.t, err)
	got := c.send(request(codec.RequestHeader{Client: c.client, Operation: codec.OperationRegister}, body))
	l, ok := loginReply(got)
	require.True(c.t, ok, "a login reply")
	return l.Session
}

// bind binds session with the client's secret; the status and session.
func (c *rawClient) bind(session uint64) (codec.Status, uint64) {
	body, err := codec.BindSession{Info: conformInfo(), ClientID: c.client, Session: session, BindSecret: codec.NewSecret(c.secret)}.AppendBinary(nil)
	require.NoError(c.t, err)
	got := c.send(request(codec.RequestHeader{Client: c.client, Request: 1, Session: session, Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession}, body))
	require.GreaterOrEqual(c.t, len(got), codec.HeaderSize)
	status := codec.Status(binary.LittleEndian.Uint32(got[216:]))
	l, _ := bindReply(got)
	return status, l.Session
}

// replicated sends a replicated request under session; its status.
func (c *rawClient) replicated(session uint64) codec.Status {
	got := c.send(request(codec.RequestHeader{Client: c.client, Request: 1, Session: session, Operation: codec.Operation(128)}, []byte{0}))
	require.GreaterOrEqual(c.t, len(got), codec.HeaderSize)
	return codec.Status(binary.LittleEndian.Uint32(got[216:]))
}

// runBindCase runs the kit with the bind case name alone and plays
// script against it, then returns the case's result.
func runBindCase(t *testing.T, name string, script func(c *rawClient, id string, session uint64)) CaseResult {
	t.Helper()
	var cs serverCase
	for _, c := range bindServerCases() {
		if c.Name == name {
			cs = c
		}
	}
	reg, err := loadRegistry()
	require.NoError(t, err)
	cs.ID, err = reg.id("server", name)
	require.NoError(t, err)
	_, addr, done := startKitAt(t, []serverCase{cs}, protocol0111)
	secret, err := newBindSecret()
	require.NoError(t, err)
	c := &rawClient{t: t, addr: addr, client: codec.Uint128{Lo: 0x5151, Hi: 7}, secret: secret}
	c.dial()
	session := c.login(cs.ID)
	assert.Nil(t, c.send(ping(c.client, 1, session)), "the kit closes instead of answering the ping")
	_ = c.nc.Close()
	c.dial()
	script(c, cs.ID, session)
	_ = c.nc.Close()
	r := <-done
	require.Len(t, r.Cases, 1)
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.NotContains(t, string(b), hexOf(string(secret)), "the bind secret is hidden")
	return r.Cases[0]
}

func TestServerModeBindResumed(t *testing.T) {
	t.Parallel()
	res := runBindCase(t, "bind/resumed-after-close", func(c *rawClient, _ string, session uint64) {
		status, bound := c.bind(session)
		assert.Equal(t, codec.StatusOK, status)
		assert.Equal(t, session, bound)
		assert.Equal(t, codec.StatusInvalidCommand, c.replicated(session), "the bound connection is logged in: denied, not 40")
	})
	assert.Equal(t, verdictPass, res.Verdict, res.Observed)
	// Session 0 binds the session the login got.
	res = runBindCase(t, "bind/resumed-after-close", func(c *rawClient, _ string, session uint64) {
		status, bound := c.bind(0)
		assert.Equal(t, codec.StatusOK, status)
		assert.Equal(t, session, bound)
	})
	assert.Equal(t, verdictPass, res.Verdict, res.Observed)
}

// A client binding a session the case never gave fails.
func TestServerModeBindOfAnotherSession(t *testing.T) {
	t.Parallel()
	res := runBindCase(t, "bind/resumed-after-close", func(c *rawClient, _ string, session uint64) {
		status, _ := c.bind(session + 1)
		assert.Equal(t, codec.StatusInvalidSession, status)
	})
	assert.Equal(t, verdictFail, res.Verdict)
	assert.Contains(t, res.Observed, "which no good login reply of the case gave")
}

// After a bind refused with 40 the client logs in again with a new client
// id and a new secret; the same id, the same secret or a request under the
// old session fails the case.
func TestServerModeBindRefused(t *testing.T) {
	t.Parallel()
	const name = "bind/refused-then-login-again"
	for _, tc := range []struct {
		what  string
		after func(c *rawClient, id string, session uint64)
		want  string // "" for a pass
	}{
		{"new id and secret", func(c *rawClient, id string, _ uint64) {
			c.client.Lo++
			c.secret[0] ^= 1
			c.login(id)
		}, ""},
		{"same id", func(c *rawClient, id string, _ uint64) {
			c.secret[0] ^= 1
			c.login(id)
		}, "same client id"},
		{"same secret", func(c *rawClient, id string, _ uint64) {
			c.client.Lo++
			c.login(id)
		}, "same bind secret"},
		{"old session", func(c *rawClient, _ string, session uint64) {
			c.replicated(session)
		}, "session"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			t.Parallel()
			res := runBindCase(t, name, func(c *rawClient, id string, session uint64) {
				status, _ := c.bind(session)
				require.Equal(t, codec.StatusUnauthenticated, status)
				tc.after(c, id, session)
			})
			if tc.want == "" {
				assert.Equal(t, verdictPass, res.Verdict, res.Observed)
				return
			}
			assert.Equal(t, verdictFail, res.Verdict)
			assert.Contains(t, res.Observed, tc.want)
		})
	}
}
