package lifecycle_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/lifecycle"
)

// The bodies of these tests are built by the reference codec
// (internal/refcodec), from WIRE.md section 10, not by package codec: a
// 0.11.1 login built by another implementation must log in.

var (
	v0111        = codec.Protocol0111
	window0111   = codec.InclusiveWindow(codec.Protocol0111, codec.Protocol0111)
	windowBoth   = codec.InclusiveWindow(codec.Protocol0110, codec.Protocol0111)
	secretA      = bytes.Repeat([]byte{0x5a}, 32)
	secretWrong  = bytes.Repeat([]byte{0xbb}, 32)
	refInfo0111  = refcodec.ClientVersionInfo{Protocol: uint32(codec.Protocol0111), SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	clientBindID = codec.Uint128{Lo: 0xC1, Hi: 0xC2}
)

// secretLoginBody is a 0.11.1 LOGIN_REGISTER body with secret, by the
// reference codec.
func secretLoginBody(t testing.TB, user, pass string, secret []byte) []byte {
	t.Helper()
	b, err := refcodec.EncodeLoginRegisterSecret(refcodec.LoginRegister{Info: refInfo0111, BindSecret: secret,
		Username: []byte(user), Password: []byte(pass)})
	require.NoError(t, err)
	return b
}

// secretTokenBody is a 0.11.1 LOGIN_REGISTER_WITH_PAT body.
func secretTokenBody(t testing.TB, token string, secret []byte) []byte {
	t.Helper()
	b, err := refcodec.EncodeLoginRegisterPATSecret(refcodec.LoginRegisterPAT{Info: refInfo0111, BindSecret: secret, Token: []byte(token)})
	require.NoError(t, err)
	return b
}

// bindFrame is a BIND_SESSION request of header client hc for the logical
// session (client, session) with secret, its body by the reference codec.
func bindFrame(t testing.TB, hc, client codec.Uint128, session uint64, secret []byte, protocol codec.Version) []byte {
	t.Helper()
	info := refInfo0111
	info.Protocol = uint32(protocol)
	body, err := refcodec.EncodeBindSession(refcodec.BindSession{Info: info, ClientID: refcodec.Uint128{Lo: client.Lo, Hi: client.Hi},
		Session: session, MetadataWatermark: session, BindSecret: secret})
	require.NoError(t, err)
	return request(t, codec.RequestHeader{Client: hc, Request: 9, Session: session,
		Operation: codec.OperationNonReplicated, Code: codec.CodeBindSession}, body)
}

// handle feeds frame to conn and returns the reply's header and body; it
// fails the test on an eviction or a drop.
func handle(t testing.TB, conn *lifecycle.Conn, frame []byte) (codec.ReplyHeader, []byte) {
	t.Helper()
	out, o, err := conn.Handle(frame, nil)
	require.NoError(t, err)
	require.Equal(t, lifecycle.AnswerReply, o.Answer, "answer: %v", o)
	h, err := codec.DecodeReplyHeader(out)
	require.NoError(t, err)
	return h, out[codec.HeaderSize:]
}

// login0111 logs conn in as iggy with a 0.11.1 body carrying secret, and
// returns the session.
func login0111(t testing.TB, conn *lifecycle.Conn, client codec.Uint128, secret []byte) uint64 {
	t.Helper()
	h, body := handle(t, conn, register(t, client, secretLoginBody(t, "iggy", "iggy", secret)))
	require.Equal(t, codec.StatusOK, h.Status)
	payload, code, err := codec.SplitResult(body)
	require.NoError(t, err)
	require.Equal(t, codec.StatusOK, code)
	reply, err := codec.ParseLoginReply(payload)
	require.NoError(t, err)
	require.Equal(t, uint32(1), reply.UserID)
	return reply.Session
}

// TestLogin0111AtEveryServer: a 0.11.1 login built by another
// implementation logs in at a 0.11.1 server, at a server of both
// revisions and at the default 0.11.0 one (whose gate ignores patch), its
// body read by its version; a 0.11.0 login at the 0.11.1 server is
// evicted with 14 and the window, never refused as a credential.
func TestLogin0111AtEveryServer(t *testing.T) {
	for _, w := range []codec.Window{window0111, windowBoth, testWindow} {
		t.Run(w.String(), func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = w })
			assert.NotZero(t, login0111(t, srv.NewConn(), clientA, secretA))
			h, body := handle(t, srv.NewConn(), register(t, clientB, secretTokenBody(t, "tok-iggy", secretA)))
			assert.Equal(t, codec.StatusOK, h.Status)
			_, code, err := codec.SplitResult(body)
			require.NoError(t, err)
			assert.Equal(t, codec.StatusOK, code)
			// A wrong password in the 0.11.1 layout is the credential
			// refusal it is, not a malformed body.
			_, o, err := srv.NewConn().Handle(register(t, clientA, secretLoginBody(t, "iggy", "nope", secretA)), nil)
			require.NoError(t, err)
			assert.Equal(t, codec.ReasonInvalidCredentials, o.Reason)
		})
	}
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
	out, o, err := srv.NewConn().Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil)
	require.NoError(t, err)
	require.Equal(t, codec.ReasonIncompatibleProtocol, o.Reason)
	e, err := codec.DecodeEviction(out)
	require.NoError(t, err)
	assert.Equal(t, v0111, e.Window.Min)
	assert.Equal(t, v0111, e.Window.Max)
	// At the server of both revisions the 0.11.0 login is read as 0.11.0.
	both := newServerWith(t, func(c *lifecycle.Config) { c.Window = windowBoth })
	h, _ := handle(t, both.NewConn(), register(t, clientA, passwordBody(t, v011, "iggy", "iggy")))
	assert.Equal(t, codec.StatusOK, h.Status)
}

// TestBindSessionResumes: the right secret binds a new connection to the
// logical session: the reply is status 0 with the bare login reply, and
// the connection is logged in as that client and session, fenced like the
// login's.
func TestBindSessionResumes(t *testing.T) {
	for _, w := range []codec.Window{window0111, testWindow} {
		t.Run(w.String(), func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = w })
			first := srv.NewConn()
			session := login0111(t, first, clientA, secretA)
			for _, s := range []uint64{session, 0} {
				conn := srv.NewConn()
				h, body := handle(t, conn, bindFrame(t, clientA, clientA, s, secretA, v0111))
				require.Equal(t, codec.StatusOK, h.Status)
				assert.Equal(t, codec.OperationNonReplicated, h.Operation)
				assert.Equal(t, uint64(9), h.Request)
				assert.Equal(t, clientA, h.Client)
				reply, err := codec.ParseLoginReply(body)
				require.NoError(t, err, "the body is the bare login reply, no result section")
				assert.Equal(t, uint32(1), reply.UserID)
				assert.Equal(t, session, reply.Session, "session %d binds the login's", s)
				assert.Equal(t, w.Max, reply.ServerProtocol)
				st := conn.State()
				assert.True(t, st.LoggedIn)
				assert.Equal(t, clientA, st.Client)
				assert.Equal(t, session, st.Session)
				// A replicated request of the bound session is served.
				h, _ = handle(t, conn, replicated(t, clientA, codec.OperationForCode(codec.CodeCreateStream), session, 1))
				assert.Equal(t, codec.StatusInvalidCommand, h.Status, "the default Handler's denial, past the fence")
			}
		})
	}
}

// TestBindSessionRefusals: every refusal of WIRE.md section 10.4, each a
// Reply that leaves the connection open and not logged in.
func TestBindSessionRefusals(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = windowBoth })
	session := login0111(t, srv.NewConn(), clientA, secretA)
	// A 0.11.0 login makes no logical session: it has no secret.
	h, _ := handle(t, srv.NewConn(), register(t, clientB, passwordBody(t, v011, "iggy", "iggy")))
	require.Equal(t, codec.StatusOK, h.Status)

	malformed := request(t, codec.RequestHeader{Client: clientA, Request: 9, Operation: codec.OperationNonReplicated,
		Code: codec.CodeBindSession}, []byte{1, 0x2c, 0, 0, 6})
	full := bindFrame(t, clientA, clientA, session, secretA, v0111)
	truncated := full[:len(full)-1]
	setSize(truncated)
	cases := []struct {
		name  string
		frame []byte
		want  codec.Status
	}{
		{"no ClientVersionInfo", malformed, codec.StatusInvalidCommand},
		{"version outside the window", bindFrame(t, clientA, clientA, session, secretA, codec.MustPack(0, 11, 2)), codec.StatusIncompatibleProtocolVersion},
		{"0.11.0 has no BIND_SESSION", bindFrame(t, clientA, clientA, session, secretA, codec.Protocol0110), codec.StatusInvalidCommand},
		{"a secret byte short", truncated, codec.StatusInvalidCommand},
		{"wrong secret", bindFrame(t, clientA, clientA, session, secretWrong, v0111), codec.StatusUnauthenticated},
		{"wrong secret, session 0", bindFrame(t, clientA, clientA, 0, secretWrong, v0111), codec.StatusUnauthenticated},
		{"unknown client", bindFrame(t, clientA, clientBindID, session, secretA, v0111), codec.StatusUnauthenticated},
		{"unknown client, session 0", bindFrame(t, clientA, clientBindID, 0, secretA, v0111), codec.StatusUnauthenticated},
		{"0.11.0 login's client", bindFrame(t, clientB, clientB, 0, secretA, v0111), codec.StatusUnauthenticated},
		{"another session", bindFrame(t, clientA, clientA, session+1, secretA, v0111), codec.StatusInvalidSession},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := srv.NewConn()
			out, o, err := conn.Handle(c.frame, nil)
			require.NoError(t, err)
			assert.Equal(t, c.want, o.Status)
			assert.Equal(t, codec.Code(15), o.Code)
			assert.Equal(t, replyFrame(t, headerClient(c.frame), 9, codec.OperationNonReplicated, c.want), out)
			assert.False(t, conn.Closed())
			assert.False(t, conn.State().LoggedIn)
		})
	}
	// A refusal on a logged-in connection leaves its binding alone.
	conn := srv.NewConn()
	login0111(t, conn, clientA, secretA)
	before := conn.State()
	h, _ = handle(t, conn, bindFrame(t, clientA, clientA, session, secretWrong, v0111))
	assert.Equal(t, codec.StatusUnauthenticated, h.Status)
	assert.Equal(t, before, conn.State())
}

// headerClient is the header client of a request frame.
func headerClient(frame []byte) codec.Uint128 {
	h, err := codec.DecodeRequestHeader(frame)
	if err != nil {
		panic(err)
	}
	return h.Client
}

// setSize rewrites a frame's size field to its length.
func setSize(frame []byte) {
	n := uint32(len(frame))
	frame[48], frame[49], frame[50], frame[51] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
}

// TestBindSessionAfterLogout: a logout ends the logical session for every
// connection; binding it again is 40, and so is a re-login's old secret,
// while the new login's secret binds the new session.
func TestBindSessionAfterLogout(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
	conn := srv.NewConn()
	session := login0111(t, conn, clientA, secretA)
	other := srv.NewConn()
	h, _ := handle(t, other, bindFrame(t, clientA, clientA, session, secretA, v0111))
	require.Equal(t, codec.StatusOK, h.Status)
	h, _ = handle(t, other, replicated(t, clientA, codec.OperationLogout, session, 1))
	require.Equal(t, codec.StatusOK, h.Status)
	for _, s := range []uint64{session, 0} {
		h, _ = handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, s, secretA, v0111))
		assert.Equal(t, codec.StatusUnauthenticated, h.Status, "bind of session %d after logout", s)
	}
	// A new login (a new client id, a new secret) binds again.
	next := login0111(t, srv.NewConn(), clientB, secretWrong)
	h, body := handle(t, srv.NewConn(), bindFrame(t, clientB, clientB, 0, secretWrong, v0111))
	require.Equal(t, codec.StatusOK, h.Status)
	reply, err := codec.ParseLoginReply(body)
	require.NoError(t, err)
	assert.Equal(t, next, reply.Session)
}

// TestBindSessionForgetsOldest: past MaxSessions the oldest logical
// session is forgotten, and binding it is answered as for an unknown
// client: 40, for good (WIRE.md section 10.4, case e).
func TestBindSessionForgetsOldest(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111; c.MaxSessions = 2 })
	ids := []codec.Uint128{{Lo: 1}, {Lo: 2}, {Lo: 3}}
	sessions := make([]uint64, len(ids))
	for i, id := range ids {
		sessions[i] = login0111(t, srv.NewConn(), id, secretA)
	}
	h, _ := handle(t, srv.NewConn(), bindFrame(t, ids[0], ids[0], 0, secretA, v0111))
	assert.Equal(t, codec.StatusUnauthenticated, h.Status, "the oldest is forgotten: 40, as for an unknown client, session 0 included")
	for i := 1; i < len(ids); i++ {
		h, _ := handle(t, srv.NewConn(), bindFrame(t, ids[i], ids[i], sessions[i], secretA, v0111))
		assert.Equal(t, codec.StatusOK, h.Status)
	}
	_, err := lifecycle.NewServer(lifecycle.Config{Window: window0111, Auth: testAuth, MaxSessions: -1})
	assert.Error(t, err)
}

// TestBindSessionNoSecretPrinted: neither the server nor an Outcome of a
// login or a bind shows the bind secret in any printed form.
func TestBindSessionNoSecretPrinted(t *testing.T) {
	secret := []byte("0123456789abcdefghijklmnopqrstuv")
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
	conn := srv.NewConn()
	_, o1, err := conn.Handle(register(t, clientA, secretLoginBody(t, "iggy", "iggy", secret)), nil)
	require.NoError(t, err)
	login := *o1
	_, o2, err := srv.NewConn().Handle(bindFrame(t, clientA, clientA, 0, secret, v0111), nil)
	require.NoError(t, err)
	for _, v := range []any{srv, login, *o2, conn.State()} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
			s := fmt.Sprintf(verb, v)
			assert.NotContains(t, s, "0123456789abcdef", verb)
			assert.NotContains(t, s, "3031323334", verb)
		}
	}
}

// TestLogoutEndsEveryBoundConn: a Logout ends the logical session for
// every connection bound to it (WIRE.md section 10.4, case f), not only
// for the one that sent it. The other connection is logged out from then
// on: a ping is still answered, another command is 40, a replicated
// request (a second Logout included) is eviction 1 (NoSession), and a
// BIND_SESSION of the ended session is 40.
func TestLogoutEndsEveryBoundConn(t *testing.T) {
	createStream := codec.OperationForCode(codec.CodeCreateStream)
	for _, tc := range []struct {
		name      string
		logoutOnB bool // the logout comes on the bound connection, the login's is the other one
		connIDs   bool
	}{
		{"logout on the login's connection", false, false},
		{"logout on the bound connection", true, false},
		{"conn-id evictions", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111; c.ConnIDEvictions = tc.connIDs })
			a, b := srv.NewConn(), srv.NewConn()
			session := login0111(t, a, clientA, secretA)
			h, _ := handle(t, b, bindFrame(t, clientA, clientA, session, secretA, v0111))
			require.Equal(t, codec.StatusOK, h.Status)
			out, other := a, b
			if tc.logoutOnB {
				out, other = b, a
			}
			h, _ = handle(t, out, replicated(t, clientA, codec.OperationLogout, session, 1))
			require.Equal(t, codec.StatusOK, h.Status)
			assert.False(t, out.State().LoggedIn)
			assert.Equal(t, lifecycle.ConnState{}, other.State(), "the other connection is logged out too")

			out2, o, err := other.Handle(nonReplicated(t, clientA, 2, codec.CodePing), nil)
			require.NoError(t, err)
			assert.Equal(t, replyFrame(t, clientA, 2, codec.OperationNonReplicated, codec.StatusOK), out2, "a ping needs no login")
			assert.True(t, o.LoggedOut(), "the next frame shows the logout: %v -> %v", o.Before, o.After)
			h, _ = handle(t, other, nonReplicated(t, clientA, 2, codec.CodeGetClusterMetadata))
			assert.Equal(t, codec.StatusUnauthenticated, h.Status, "a command after the logout: 40")
			h, _ = handle(t, other, bindFrame(t, clientA, clientA, session, secretA, v0111))
			assert.Equal(t, codec.StatusUnauthenticated, h.Status, "the ended session cannot be bound again")

			for _, op := range []codec.Operation{createStream, codec.OperationLogout} {
				conn := other
				if op == codec.OperationLogout {
					// The second Logout on a fresh copy of the scenario's
					// state: the first replicated request closed other.
					conn = srv.NewConn()
					s := login0111(t, conn, clientB, secretWrong)
					peer := srv.NewConn()
					h, _ = handle(t, peer, bindFrame(t, clientB, clientB, s, secretWrong, v0111))
					require.Equal(t, codec.StatusOK, h.Status)
					h, _ = handle(t, peer, replicated(t, clientB, codec.OperationLogout, s, 1))
					require.Equal(t, codec.StatusOK, h.Status)
					got, o, err := conn.Handle(replicated(t, clientB, op, s, 1), nil)
					require.NoError(t, err)
					assert.Equal(t, lifecycle.PhaseLoggedIn, o.Before, "its first frame since the logout")
					assert.Equal(t, lifecycle.AnswerEviction, o.Answer, "a second Logout: %v", o)
					assert.Equal(t, codec.ReasonNoSession, o.Reason)
					want := clientB
					if tc.connIDs {
						want = conn.ID()
					}
					assert.Equal(t, evictionFrame(t, want, codec.ReasonNoSession), got)
					continue
				}
				got, o, err := conn.Handle(replicated(t, clientA, op, session, 2), nil)
				require.NoError(t, err)
				assert.Equal(t, lifecycle.AnswerEviction, o.Answer, "a replicated request after the logout: %v", o)
				assert.Equal(t, codec.ReasonNoSession, o.Reason)
				want := clientA
				if tc.connIDs {
					want = conn.ID()
				}
				assert.Equal(t, evictionFrame(t, want, codec.ReasonNoSession), got)
				assert.True(t, conn.Closed())
			}
		})
	}
}

// TestLogoutLeavesOtherSessions: a logout ends only its own logical
// session: a connection bound to another client id's session, and one
// logged in by a 0.11.0 login (no logical session), are served on.
func TestLogoutLeavesOtherSessions(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = windowBoth })
	a := srv.NewConn()
	sa := login0111(t, a, clientA, secretA)
	b := srv.NewConn()
	sb := login0111(t, b, clientB, secretA)
	old := srv.NewConn()
	h, body := handle(t, old, register(t, clientBindID, passwordBody(t, v011, "iggy", "iggy")))
	require.Equal(t, codec.StatusOK, h.Status)
	payload, _, err := codec.SplitResult(body)
	require.NoError(t, err)
	reply, err := codec.ParseLoginReply(payload)
	require.NoError(t, err)
	h, _ = handle(t, a, replicated(t, clientA, codec.OperationLogout, sa, 1))
	require.Equal(t, codec.StatusOK, h.Status)
	h, _ = handle(t, b, replicated(t, clientB, codec.OperationForCode(codec.CodeCreateStream), sb, 1))
	assert.Equal(t, codec.StatusInvalidCommand, h.Status, "another session passes the fence")
	h, _ = handle(t, old, replicated(t, clientBindID, codec.OperationForCode(codec.CodeCreateStream), reply.Session, 1))
	assert.Equal(t, codec.StatusInvalidCommand, h.Status, "a 0.11.0 login passes the fence")
}

// TestEvictionEndsLogicalSession: an eviction of a connection bound to a
// logical session ends that session as a logout does (WIRE.md section
// 10.4, case f): BIND_SESSION of it is 40 and every other connection bound
// to it is logged out. A connection closed without an eviction (a frame
// whose size cannot be used) leaves the session to be resumed.
func TestEvictionEndsLogicalSession(t *testing.T) {
	createStream := codec.OperationForCode(codec.CodeCreateStream)
	cases := []struct {
		name   string
		frame  func(session uint64) []byte
		reason codec.EvictionReason
	}{
		{"legacy login code", func(uint64) []byte { return nonReplicated(t, clientA, 1, codec.CodeLoginUser) }, codec.ReasonMalformedLogin},
		{"another client id", func(s uint64) []byte { return replicated(t, clientB, createStream, s, 1) }, codec.ReasonNoSession},
		{"a session below the bound one", func(s uint64) []byte { return replicated(t, clientA, createStream, s-1, 1) }, codec.ReasonSessionTooLow},
		{"a failed re-login", func(uint64) []byte {
			return register(t, clientA, secretLoginBody(t, "iggy", "wrong", secretA))
		}, codec.ReasonInvalidCredentials},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
			login0111(t, srv.NewConn(), clientB, secretWrong) // session 1: a session below A's exists
			conn, other := srv.NewConn(), srv.NewConn()
			session := login0111(t, conn, clientA, secretA)
			h, _ := handle(t, other, bindFrame(t, clientA, clientA, session, secretA, v0111))
			require.Equal(t, codec.StatusOK, h.Status)

			_, o, err := conn.Handle(tc.frame(session), nil)
			require.NoError(t, err)
			require.Equal(t, lifecycle.AnswerEviction, o.Answer, "%v", o)
			require.Equal(t, tc.reason, o.Reason)

			assert.False(t, other.State().LoggedIn, "the other bound connection is logged out")
			for _, s := range []uint64{session, 0} {
				h, _ = handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, s, secretA, v0111))
				assert.Equal(t, codec.StatusUnauthenticated, h.Status, "bind of session %d after the eviction", s)
			}
		})
	}
	t.Run("closed without an eviction", func(t *testing.T) {
		srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
		conn := srv.NewConn()
		session := login0111(t, conn, clientA, secretA)
		_, _, err := conn.Handle(make([]byte, 100), nil)
		require.ErrorIs(t, err, codec.ErrSize)
		require.True(t, conn.Closed())
		h, _ := handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, session, secretA, v0111))
		assert.Equal(t, codec.StatusOK, h.Status, "a lost connection's session is resumed")
	})
	t.Run("the transport's eviction", func(t *testing.T) {
		srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
		conn, other := srv.NewConn(), srv.NewConn()
		session := login0111(t, conn, clientA, secretA)
		h, _ := handle(t, other, bindFrame(t, clientA, clientA, session, secretA, v0111))
		require.Equal(t, codec.StatusOK, h.Status)
		conn.Evicted()
		assert.True(t, conn.Closed())
		assert.Equal(t, lifecycle.ConnState{Closed: true}, conn.State())
		_, _, err := conn.Handle(nonReplicated(t, clientA, 1, codec.CodePing), nil)
		require.ErrorIs(t, err, lifecycle.ErrClosed)
		assert.False(t, other.State().LoggedIn, "the other bound connection is logged out")
		h, _ = handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, session, secretA, v0111))
		assert.Equal(t, codec.StatusUnauthenticated, h.Status)
		srv.NewConn().Evicted() // not logged in: nothing to end
	})
	t.Run("an unbound connection's eviction", func(t *testing.T) {
		srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
		session := login0111(t, srv.NewConn(), clientA, secretA)
		_, o, err := srv.NewConn().Handle(replicated(t, clientA, createStream, session, 1), nil)
		require.NoError(t, err)
		require.Equal(t, codec.ReasonNoSession, o.Reason, "not logged in on this connection")
		h, _ := handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, session, secretA, v0111))
		assert.Equal(t, codec.StatusOK, h.Status, "an eviction of a connection not bound to the session leaves it alone")
	})
}

// TestBindSessionForgetsInPutOrder: the table of logical sessions grows
// with the logins up to MaxSessions and then forgets the oldest; a client
// id logged in again holds its newest session in the newest place, so the
// one forgotten is the next oldest.
func TestBindSessionForgetsInPutOrder(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111; c.MaxSessions = 3 })
	id := func(n uint64) codec.Uint128 { return codec.Uint128{Lo: n} }
	sessions := map[uint64]uint64{}
	for _, n := range []uint64{1, 2, 1, 3, 4} { // 1 again: it moves to the newest place
		sessions[n] = login0111(t, srv.NewConn(), id(n), secretA)
	}
	for n, want := range map[uint64]codec.Status{1: codec.StatusOK, 2: codec.StatusUnauthenticated, 3: codec.StatusOK, 4: codec.StatusOK} {
		h, _ := handle(t, srv.NewConn(), bindFrame(t, id(n), id(n), sessions[n], secretA, v0111))
		assert.Equal(t, want, h.Status, "client %d", n)
	}
}

// TestNewServerMaxSessions: MaxSessions outside 0..MaxSessionsLimit is
// the configuration error, never a panic nor an allocation of its size,
// and a Server at every bound inside serves a login. That it pays nothing
// up front for its bound is held by make bench (NewServer/MaxSessionsLimit,
// a few KiB), not here: a process-wide heap figure is no unit test's.
func TestNewServerMaxSessions(t *testing.T) {
	for _, n := range []int{-1, lifecycle.MaxSessionsLimit + 1, 1 << 50, int(^uint(0) >> 1)} {
		_, err := lifecycle.NewServer(lifecycle.Config{Window: window0111, Auth: testAuth, MaxSessions: n})
		require.Error(t, err, "MaxSessions %d", n)
		assert.Contains(t, err.Error(), "MaxSessions", "MaxSessions %d", n)
	}
	for _, n := range []int{0, 1, lifecycle.MaxSessionsLimit} {
		srv, err := lifecycle.NewServer(lifecycle.Config{Window: window0111, Auth: testAuth, MaxSessions: n})
		require.NoError(t, err, "MaxSessions %d", n)
		login0111(t, srv.NewConn(), clientA, secretA)
	}
}

// twoUsers is iggy (1) and mallory (7), each with a password and a token.
var twoUsers = lifecycle.StaticAuth{
	Users: []lifecycle.User{
		{ID: 1, Name: "iggy", Password: codec.NewSecret([]byte("iggy"))},
		{ID: 7, Name: "mallory", Password: codec.NewSecret([]byte("mal"))},
	},
	Tokens: []lifecycle.Token{{Value: codec.NewSecret([]byte("tok-mal")), User: "mallory"}},
}

// TestLoginTakesNoOtherUsersClientID: a login, of any revision, whose
// client id holds another user's logical session (live or ended) is
// evicted with 12 (SessionError) and leaves that session alone; a wrong
// password is still 9. The same user may log in again with its client id,
// and a forgotten session frees the id.
func TestLoginTakesNoOtherUsersClientID(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = windowBoth; c.Auth = twoUsers; c.MaxSessions = 2 })
	victim := srv.NewConn()
	session := login0111(t, victim, clientA, secretA)
	for _, tc := range []struct {
		name   string
		body   []byte
		reason codec.EvictionReason
	}{
		{"0.11.1 password", secretLoginBody(t, "mallory", "mal", secretWrong), codec.ReasonSessionError},
		{"0.11.1 token", secretTokenBody(t, "tok-mal", secretWrong), codec.ReasonSessionError},
		{"0.11.0 password", passwordBody(t, v011, "mallory", "mal"), codec.ReasonSessionError},
		{"wrong password", secretLoginBody(t, "mallory", "nope", secretWrong), codec.ReasonInvalidCredentials},
	} {
		t.Run(tc.name, func(t *testing.T) {
			admitted := 0
			conn := srv.NewConnWith(lifecycle.ConnConfig{Admit: func(uint32) codec.EvictionReason { admitted++; return 0 }})
			out, o, err := conn.Handle(register(t, clientA, tc.body), nil)
			require.NoError(t, err)
			assert.Equal(t, 0, admitted, "refused before the Admit hook counts it")
			require.Equal(t, lifecycle.AnswerEviction, o.Answer, "%v", o)
			assert.Equal(t, tc.reason, o.Reason)
			assert.Equal(t, evictionFrame(t, clientA, tc.reason), out)
			assert.False(t, o.LoggedIn())
			h, _ := handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, session, secretA, v0111))
			assert.Equal(t, codec.StatusOK, h.Status, "the victim's session binds on")
			h, _ = handle(t, victim, replicated(t, clientA, codec.OperationForCode(codec.CodeCreateStream), session, 1))
			assert.Equal(t, codec.StatusInvalidCommand, h.Status, "the victim's connection is served on")
		})
	}
	// An ended session keeps its client id from other users too.
	h, _ := handle(t, victim, replicated(t, clientA, codec.OperationLogout, session, 1))
	require.Equal(t, codec.StatusOK, h.Status)
	_, o, err := srv.NewConn().Handle(register(t, clientA, secretLoginBody(t, "mallory", "mal", secretWrong)), nil)
	require.NoError(t, err)
	assert.Equal(t, codec.ReasonSessionError, o.Reason, "after the victim's logout")
	// The same user logs in again with its client id: a new session.
	again := login0111(t, srv.NewConn(), clientA, secretWrong)
	assert.True(t, again > session, "a new session")
	// Once forgotten (MaxSessions 2), the id is free.
	login0111(t, srv.NewConn(), clientB, secretA)
	login0111(t, srv.NewConn(), clientBindID, secretA)
	h, _ = handle(t, srv.NewConn(), register(t, clientA, secretLoginBody(t, "mallory", "mal", secretWrong)))
	assert.Equal(t, codec.StatusOK, h.Status, "a forgotten session frees its client id")
}

// TestBindSessionPerUserBound: with MaxUserSessions, one user logging in
// over and over forgets its own oldest logical sessions, never another
// user's; a user's re-login with its client id takes no second place.
func TestBindSessionPerUserBound(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) {
		c.Window = window0111
		c.Auth = twoUsers
		c.MaxSessions = 8
		c.MaxUserSessions = 2
	})
	id := func(n uint64) codec.Uint128 { return codec.Uint128{Lo: 0x100 + n} }
	victim := login0111(t, srv.NewConn(), clientA, secretA) // iggy
	mallory := map[uint64]uint64{}
	for n := uint64(1); n <= 20; n++ {
		h, body := handle(t, srv.NewConn(), register(t, id(n), secretLoginBody(t, "mallory", "mal", secretWrong)))
		require.Equal(t, codec.StatusOK, h.Status)
		payload, _, err := codec.SplitResult(body)
		require.NoError(t, err)
		reply, err := codec.ParseLoginReply(payload)
		require.NoError(t, err)
		mallory[n] = reply.Session
	}
	h, _ := handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, victim, secretA, v0111))
	assert.Equal(t, codec.StatusOK, h.Status, "another user's 20 logins leave iggy's session")
	for n, s := range mallory {
		want := codec.StatusUnauthenticated
		if n > 18 {
			want = codec.StatusOK
		}
		h, _ := handle(t, srv.NewConn(), bindFrame(t, id(n), id(n), s, secretWrong, v0111))
		assert.Equal(t, want, h.Status, "mallory's login %d", n)
	}
	// iggy: clientA, clientB twice (one place), then clientBindID: the
	// second of clientB replaced the first, so clientA is the one that goes.
	b1 := login0111(t, srv.NewConn(), clientB, secretA)
	b2 := login0111(t, srv.NewConn(), clientB, secretA)
	h, _ = handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, victim, secretA, v0111))
	assert.Equal(t, codec.StatusOK, h.Status, "clientB's second login took no second place")
	h, _ = handle(t, srv.NewConn(), bindFrame(t, clientB, clientB, b1, secretA, v0111))
	assert.Equal(t, codec.StatusInvalidSession, h.Status, "the replaced session")
	login0111(t, srv.NewConn(), clientBindID, secretA)
	h, _ = handle(t, srv.NewConn(), bindFrame(t, clientA, clientA, victim, secretA, v0111))
	assert.Equal(t, codec.StatusUnauthenticated, h.Status, "iggy's oldest, at iggy's bound")
	h, _ = handle(t, srv.NewConn(), bindFrame(t, clientB, clientB, b2, secretA, v0111))
	assert.Equal(t, codec.StatusOK, h.Status)

	_, err := lifecycle.NewServer(lifecycle.Config{Window: window0111, Auth: testAuth, MaxUserSessions: -1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "MaxUserSessions")
}

// TestBindSessionAdmitBind: a BIND_SESSION whose secret passed asks the
// AdmitBind hook, told which logical session it resumes, instead of
// Admit; a refusal is 40 and binds nothing. Without AdmitBind, Admit is
// asked with the user, as for a login.
func TestBindSessionAdmitBind(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
	session := login0111(t, srv.NewConn(), clientA, secretA)
	var logins []uint32
	var binds []lifecycle.BindAdmission
	refuse := codec.EvictionReason(0)
	cfg := lifecycle.ConnConfig{
		Admit:     func(u uint32) codec.EvictionReason { logins = append(logins, u); return 0 },
		AdmitBind: func(b lifecycle.BindAdmission) codec.EvictionReason { binds = append(binds, b); return refuse },
	}
	conn := srv.NewConnWith(cfg)
	h, _ := handle(t, conn, bindFrame(t, clientA, clientA, 0, secretA, v0111))
	require.Equal(t, codec.StatusOK, h.Status)
	assert.Equal(t, []lifecycle.BindAdmission{{UserID: 1, Client: clientA, Session: session}}, binds, "session 0 is told as the session it binds")
	assert.Len(t, logins, 0, "Admit is not asked for a bind")
	h, _ = handle(t, conn, bindFrame(t, clientA, clientA, session, secretWrong, v0111))
	assert.Equal(t, codec.StatusUnauthenticated, h.Status)
	assert.Len(t, binds, 1, "a wrong secret is refused before the hook")

	for _, r := range []codec.EvictionReason{codec.ReasonSessionError, codec.ReasonIncompatibleProtocol, 200} {
		refuse = r
		other := srv.NewConnWith(cfg)
		h, _ = handle(t, other, bindFrame(t, clientA, clientA, session, secretA, v0111))
		assert.Equal(t, codec.StatusUnauthenticated, h.Status, "refused with reason %d", r)
		assert.False(t, other.State().LoggedIn)
	}
	login0111(t, srv.NewConnWith(cfg), clientB, secretA)
	assert.Equal(t, []uint32{1}, logins, "a login asks Admit")

	var asked []uint32
	onlyAdmit := srv.NewConnWith(lifecycle.ConnConfig{Admit: func(u uint32) codec.EvictionReason { asked = append(asked, u); return codec.ReasonSessionError }})
	h, _ = handle(t, onlyAdmit, bindFrame(t, clientA, clientA, session, secretA, v0111))
	assert.Equal(t, codec.StatusUnauthenticated, h.Status)
	assert.Equal(t, []uint32{1}, asked, "without AdmitBind, Admit decides a bind")
}
