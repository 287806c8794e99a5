package main

import (
	"crypto/rand"
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// The kit's own BIND_SESSION sequences (WIRE.md section 10.4), beyond the
// vectors' (which keep every connection open and use one public secret):
// each logs in at 0.11.1 with a secret the kit draws for the run, closes
// or keeps the first connection as a client whose socket broke would, and
// binds on a new one. After a bind the kit sends a replicated request
// under the bound session: a server that bound the connection denies it
// (status 3, the vectors' handler), one that did not evicts it (1).

// bindClient is the client id of the bind sequences (isolate makes it the
// case's own).
var bindClient = codec.Uint128{Lo: 0xb1d0, Hi: 0x2}

// newBindSecret draws a bind secret, as a client does for each logical
// session (WIRE.md section 10.2). The kit hides it in every report.
func newBindSecret() ([]byte, error) {
	s := make([]byte, codec.BindSecretLen)
	if _, err := rand.Read(s); err != nil {
		return nil, fmt.Errorf("bind secret: %w", err)
	}
	return s, nil
}

// conformInfo is the ClientVersionInfo of the kit's 0.11.1 frames.
func conformInfo() codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("conform"), SDKVersion: []byte("0.1.0")}
}

// bindLogin is a 0.11.1 password login as the vector servers' active user,
// carrying secret.
func bindLogin(secret []byte) []byte {
	body, _ := codec.LoginRegister{Info: conformInfo(), Revision: codec.RevisionBindSecret, BindSecret: codec.NewSecret(secret),
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}.AppendBinary(nil)
	return request(codec.RequestHeader{Client: bindClient, Operation: codec.OperationRegister}, body)
}

// bindRequest is BIND_SESSION of bindClient's session with secret; the
// session in its body is what the step's session reference puts there.
func bindRequest(session uint64, secret []byte) []byte {
	body, _ := codec.BindSession{Info: conformInfo(), ClientID: bindClient, Session: session, BindSecret: codec.NewSecret(secret)}.AppendBinary(nil)
	return request(codec.RequestHeader{Client: bindClient, Request: 1, Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession}, body)
}

// bindSessionAt is where a BIND_SESSION of bindRequest carries its session.
func bindSessionAt() int {
	return codec.HeaderSize + conformInfo().EncodedLen() + 16
}

// bindCases builds the sequences; each case's secret is drawn afresh.
func bindCases(vs *vectorSet, reg *registry, table freeTable) ([]clientCase, error) {
	def := vs.Files["lifecycle"].Servers["default"]
	// The session the login at frame 0 got, in a header or a bind body.
	inHeader := func(plus int) *sessionRef { return &sessionRef{Offset: 184, Step: 0, Plus: plus} }
	inBind := &sessionRef{Offset: bindSessionAt(), Step: 0}
	replicated := func() []byte {
		return request(codec.RequestHeader{Client: bindClient, Request: 1, Session: 1, Operation: codec.Operation(128)}, []byte{0})
	}
	logout := request(codec.RequestHeader{Client: bindClient, Request: 1, Session: 1, Operation: codec.OperationLogout}, nil)
	var defs []clientCase
	for _, name := range []string{"bind/resume-after-close", "bind/wrong-secret-then-right", "bind/after-logout-closed", "bind/session-0-lost-reply"} {
		secret, err := newBindSecret()
		if err != nil {
			return nil, err
		}
		wrong, err := newBindSecret()
		if err != nil {
			return nil, err
		}
		login := clientStep{frames: [][]byte{bindLogin(secret)}}
		c := clientCase{Name: name, Rule: "WIRE.md §10.4 lifecycle.10.bind", secrets: [][]byte{secret, wrong}}
		switch name {
		case "bind/resume-after-close":
			// The first connection breaks; the session is resumed on a new
			// one, where its requests are served.
			c.steps = []clientStep{login, {close: true},
				{conn: 1, frames: [][]byte{bindRequest(1, secret)}, sessions: []*sessionRef{inBind}},
				{conn: 1, frames: [][]byte{replicated()}, sessions: []*sessionRef{inHeader(0)}}}
		case "bind/wrong-secret-then-right":
			// A wrong secret is refused with 40 and the connection stays
			// unbound; it ends nothing, so the right secret still binds.
			c.steps = []clientStep{login,
				{conn: 1, frames: [][]byte{bindRequest(1, wrong)}, sessions: []*sessionRef{inBind}},
				{conn: 1, frames: [][]byte{bindRequest(1, secret)}, sessions: []*sessionRef{inBind}},
				{conn: 1, frames: [][]byte{replicated()}, sessions: []*sessionRef{inHeader(0)}}}
		case "bind/after-logout-closed":
			// A logout ends the logical session: the right secret on a new
			// connection, after the first closed, gets 40, and that
			// connection is not logged in.
			c.steps = []clientStep{login, {frames: [][]byte{logout}, sessions: []*sessionRef{inHeader(0)}}, {close: true},
				{conn: 1, frames: [][]byte{bindRequest(1, secret)}, sessions: []*sessionRef{inBind}},
				{conn: 1, frames: [][]byte{replicated()}, sessions: []*sessionRef{inHeader(0)}}}
		case "bind/session-0-lost-reply":
			// The login's reply is lost with its connection: session 0 on
			// a new one binds the session that login got, never 0.
			c.steps = []clientStep{login, {close: true},
				{conn: 1, frames: [][]byte{bindRequest(0, secret)}},
				{conn: 1, frames: [][]byte{replicated()}, sessions: []*sessionRef{inHeader(0)}}}
		}
		id, err := reg.id("client", name)
		if err != nil {
			return nil, err
		}
		c.ID, c.server, c.free = id, &def, table
		defs = append(defs, c)
	}
	return defs, nil
}
