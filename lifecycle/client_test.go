package lifecycle_test

import (
	"errors"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/lifecycletest"
	"github.com/iggywire/iggywire/lifecycle"
)

func id(n uint64) codec.Uint128 { return codec.Uint128{Lo: n} }

// TestClientFrames: every builder's exact bytes, and the request numbers of
// WIRE.md section 7, point 9.
func TestClientFrames(t *testing.T) {
	c := newTestClient(t)
	srv := newTestServer(t).NewConn()
	exchange := func(name string, frame []byte, want []byte) lifecycle.Response {
		t.Helper()
		require.Equal(t, want, frame, name+": request bytes")
		answer, err := srv.Handle(frame, nil)
		require.NoError(t, err, name)
		r, err := c.Receive(answer)
		if err != nil && !errors.Is(err, codec.StatusInvalidCommand) {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	f, err := c.Ping(nil)
	require.NoError(t, err)
	exchange("ping before login", f, nonReplicated(t, id(1), 1, codec.CodePing))

	f, err = c.Login(nil, []byte("iggy"), []byte("iggy"))
	require.NoError(t, err)
	r := exchange("login", f, register(t, id(1), passwordBody(t, v011, "iggy", "iggy")))
	require.Equal(t, uint64(1), r.Login.Session)
	require.Equal(t, uint32(1), r.Login.UserID)
	require.Equal(t, testServerVersion, string(r.Login.ServerVersion))
	require.Equal(t, lifecycle.ClientState{Client: id(1), Session: 1, UserID: 1, Watermark: 1}, c.State())

	f, err = c.Request(nil, codec.CodeGetClusterMetadata, nil)
	require.NoError(t, err)
	want := request(t, codec.RequestHeader{Client: id(1), Request: 1, Session: 1, Operation: codec.OperationNonReplicated, Code: 12}, nil)
	r = exchange("GetClusterMetadata", f, want)
	require.Equal(t, codec.StatusInvalidCommand, r.Status)

	f, err = c.Replicated(nil, codec.OperationPartitionFirst, []byte{1})
	require.NoError(t, err)
	exchange("partition op carries 1", f, request(t, codec.RequestHeader{Client: id(1), Request: 1, Session: 1, Operation: codec.OperationPartitionFirst}, []byte{1}))
	f, err = c.Replicated(nil, codec.OperationMetadataFirst, nil)
	require.NoError(t, err)
	exchange("metadata op consumes 1", f, replicated(t, id(1), codec.OperationMetadataFirst, 1, 1))
	f, err = c.Replicated(nil, codec.OperationMetadataLast, nil)
	require.NoError(t, err)
	exchange("metadata op consumes 2", f, replicated(t, id(1), codec.OperationMetadataLast, 1, 2))
	f, err = c.Ping(nil)
	require.NoError(t, err)
	exchange("ping carries 3", f, request(t, codec.RequestHeader{Client: id(1), Request: 3, Session: 1, Operation: codec.OperationNonReplicated, Code: 1}, nil))
	f, err = c.Logout(nil)
	require.NoError(t, err)
	exchange("logout consumes 3", f, replicated(t, id(1), codec.OperationLogout, 1, 3))
	require.Equal(t, lifecycle.ClientState{Client: id(1), Watermark: 4}, c.State())

	f, err = c.LoginWithToken(nil, []byte("tok-iggy"))
	require.NoError(t, err)
	r = exchange("re-login mints id 2", f, register(t, id(2), tokenBody(t, v011, "tok-iggy")))
	require.Equal(t, uint64(2), r.Login.Session)
	require.Equal(t, lifecycle.ClientState{Client: id(2), Session: 2, UserID: 1, Watermark: 1}, c.State())
}

func TestClientRefusals(t *testing.T) {
	c := newTestClient(t)
	_, err := c.Logout([]byte("kept"))
	require.ErrorIs(t, err, lifecycle.ErrNoSession)
	f, err := c.Replicated([]byte("kept"), codec.OperationMetadataFirst, nil)
	require.ErrorIs(t, err, lifecycle.ErrNoSession)
	require.Equal(t, []byte("kept"), f)
	_, err = c.Replicated(nil, codec.OperationLogout, nil)
	require.ErrorIs(t, err, lifecycle.ErrOperation)
	_, err = c.Replicated(nil, codec.OperationInternalFirst, nil)
	require.ErrorIs(t, err, lifecycle.ErrOperation)
	_, err = c.Request(nil, 0, nil)
	require.ErrorIs(t, err, codec.ErrField)
	_, err = c.Login(nil, nil, []byte("x"))
	require.ErrorIs(t, err, codec.ErrLength)
	_, err = c.Ping(nil)
	require.NoError(t, err)
	f, err = c.Ping([]byte("kept"))
	require.ErrorIs(t, err, lifecycle.ErrPending)
	require.Equal(t, []byte("kept"), f)
	_, err = c.Login(nil, []byte("iggy"), []byte("iggy"))
	require.ErrorIs(t, err, lifecycle.ErrPending)
	require.Equal(t, lifecycle.ClientState{Client: id(1), Watermark: 1, Pending: true}, c.State())

	_, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKVersion: "1"})
	require.ErrorIs(t, err, codec.ErrLength)
	_, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "a", SDKVersion: "1", Rand: &lifecycletest.IDs{Zeros: 100}})
	require.ErrorIs(t, err, lifecycle.ErrRandom)
	_, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "a", SDKVersion: "1", Rand: iotest.ErrReader(errors.New("no entropy"))})
	require.ErrorIs(t, err, lifecycle.ErrRandom)
	c, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "a", SDKVersion: "1", Rand: &lifecycletest.IDs{Zeros: 2}})
	require.NoError(t, err)
	require.Equal(t, id(1), c.ID(), "zero ids are skipped")
}

// loggedInClient returns a client logged in as session 5, user 1.
func loggedInClient(t *testing.T) *lifecycle.Client {
	c := newTestClient(t)
	_, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
	require.NoError(t, err)
	_, err = c.Receive(loginReplyAs(t, id(1), 5))
	require.NoError(t, err)
	return c
}

func loginReplyAs(t *testing.T, client codec.Uint128, session uint64) []byte {
	b, err := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Client: client, Operation: codec.OperationRegister},
		codec.LoginReply{UserID: 1, Session: session, ServerProtocol: v011, ServerVersion: []byte("x")})
	require.NoError(t, err)
	return b
}

// TestClientReceive: what each answer means to a client, and whether it
// stays open.
func TestClientReceive(t *testing.T) {
	loginReply := func(t *testing.T, body []byte) []byte {
		b, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: id(1), Operation: codec.OperationRegister}, body)
		require.NoError(t, err)
		return b
	}
	sessionZero := loginReplyAs(t, id(1), 5)
	clear(sessionZero[260+4 : 260+12])
	withResult := loginReply(t, []byte{1, 0, 0, 0, 0, 0, 0, 0, 42, 0, 0, 0})
	trailing := loginReply(t, append(loginReplyAs(t, id(1), 5)[codec.HeaderSize:], 0))
	cases := []struct {
		name      string
		login     bool // the outstanding request is a login (else a ping)
		frame     []byte
		err       error
		closed    bool
		loggedIn  bool
		extraTest func(t *testing.T, err error)
	}{
		{"login reply", true, loginReplyAs(t, id(1), 5), nil, false, true, nil},
		{"login reply, session 0", true, sessionZero, lifecycle.ErrMalformed, true, false, nil},
		// The conformance vectors decide it: a byte after the reply body.
		{"login reply, trailing byte", true, trailing, lifecycle.ErrMalformed, true, false, nil},
		{"login reply, no result section", true, loginReply(t, nil), codec.StatusInvalidCommand, true, false, nil},
		{"login reply, result code 42", true, withResult, codec.StatusInvalidCredentials, false, false, nil},
		{"ping reply", false, replyFrame(t, id(1), 1, codec.OperationNonReplicated, 0), nil, false, false, nil},
		{"deny 40", false, replyFrame(t, id(1), 1, codec.OperationNonReplicated, codec.StatusUnauthenticated), codec.StatusUnauthenticated, false, false, nil},
		{"request number mismatch", false, replyFrame(t, id(1), 2, codec.OperationNonReplicated, 0), lifecycle.ErrMismatch, true, false, nil},
		// WIRE.md section 7, point 9: correlated by request number and
		// client id; the request sent (a ping) decides what it means.
		{"another operation, same request and client", false, replyFrame(t, id(1), 1, codec.OperationLogout, 0), nil, false, false, nil},
		{"client mismatch", false, replyFrame(t, id(9), 1, codec.OperationNonReplicated, 0), lifecycle.ErrMismatch, true, false, nil},
		{"eviction 9", true, evictionFrame(t, id(1), codec.ReasonInvalidCredentials), codec.StatusInvalidCredentials, true, false, nil},
		{"eviction 10", true, evictionFrame(t, id(1), codec.ReasonInvalidToken), codec.StatusInvalidPersonalAccessToken, true, false, nil},
		{"eviction 15", false, evictionFrame(t, id(1), codec.ReasonMalformedLogin), codec.StatusInvalidFormat, true, false, nil},
		{"eviction 14", true, evictionFrame(t, id(1), codec.ReasonIncompatibleProtocol), codec.IncompatibleProtocolError{Client: v011, Window: testWindow}, true, false,
			func(t *testing.T, err error) {
				var e codec.IncompatibleProtocolError
				require.True(t, errors.As(err, &e))
				require.Equal(t, testWindow, e.Window)
				require.Equal(t, v011, e.Client, "the version the client sent")
			}},
		// WIRE.md section 8: reason 14 with an ill-formed window is 40.
		{"eviction 14 ill-formed window", true, evictionIllFormed(t, id(1)), codec.StatusUnauthenticated, true, false, nil},
		// WIRE.md section 7, point 10: an eviction means what its reason
		// says whatever non-zero client id it carries.
		{"eviction 14 ill-formed window, another client", true, evictionIllFormed(t, id(2)), codec.StatusUnauthenticated, true, false, nil},
		{"eviction for another client", false, evictionFrame(t, id(2), codec.ReasonNoSession), codec.StatusUnauthenticated, true, false, nil},
		{"eviction with client id 0", false, func() []byte { b := evictionFrame(t, id(2), codec.ReasonNoSession); clear(b[128:144]); return b }(), lifecycle.ErrMalformed, true, false, nil},
		{"request frame", false, nonReplicated(t, id(1), 1, 1), lifecycle.ErrMalformed, true, false, nil},
		{"bad size", false, replyFrame(t, id(1), 1, codec.OperationNonReplicated, 0)[:200], lifecycle.ErrFrameSize, true, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t)
			var err error
			if tc.login {
				_, err = c.Login(nil, []byte("iggy"), []byte("iggy"))
			} else {
				_, err = c.Ping(nil)
			}
			require.NoError(t, err)
			_, err = c.Receive(tc.frame)
			if tc.err == nil {
				require.NoError(t, err)
			} else {
				require.ErrorIs(t, err, tc.err)
			}
			if tc.extraTest != nil {
				tc.extraTest(t, err)
			}
			require.Equal(t, tc.closed, c.Closed(), "closed")
			require.Equal(t, tc.loggedIn, c.Session() != 0, "logged in")
			require.Equal(t, false, c.State().Pending, "nothing outstanding")
			if tc.closed {
				_, err = c.Ping(nil)
				require.ErrorIs(t, err, lifecycle.ErrClosed)
				_, err = c.Receive(tc.frame)
				require.ErrorIs(t, err, lifecycle.ErrClosed)
				_, err = c.Login(nil, []byte("iggy"), []byte("iggy"))
				require.NoError(t, err, "a login opens a closed client")
				require.True(t, !c.Closed() && c.ID() == id(2), "reopened with a new id")
			}
		})
	}
}

// evictionIllFormed is an eviction with reason 14 and window {min 2, max 1},
// which the codec refuses to decode.
func evictionIllFormed(t *testing.T, client codec.Uint128) []byte {
	t.Helper()
	b := evictionFrame(t, client, codec.ReasonNoSession)
	b[144], b[148], b[255] = 1, 2, byte(codec.ReasonIncompatibleProtocol)
	_, err := codec.DecodeEviction(b)
	require.ErrorIs(t, err, codec.ErrWindow, "the fixture must be the frame the codec refuses")
	return b
}

func TestClientUnexpectedReply(t *testing.T) {
	c := loggedInClient(t)
	_, err := c.Receive(replyFrame(t, id(1), 1, codec.OperationNonReplicated, 0))
	require.ErrorIs(t, err, lifecycle.ErrMismatch)
	require.True(t, c.Closed())
}

func TestClientDeniedLogoutKeepsSession(t *testing.T) {
	c := loggedInClient(t)
	_, err := c.Logout(nil)
	require.NoError(t, err)
	_, err = c.Receive(replyFrame(t, id(1), 1, codec.OperationLogout, codec.StatusInvalidCommand))
	require.ErrorIs(t, err, codec.StatusInvalidCommand)
	require.Equal(t, uint64(5), c.Session())
	require.Equal(t, uint64(2), c.State().Watermark, "the watermark stays consumed")
}

// refLoginResult is a Register reply as the reference frames a failed
// commit: header, then a result section with one entry whose result is
// code (WIRE.md section 4).
func refLoginResult(client codec.Uint128, code uint32) []byte {
	b := refReply(client, 0, byte(codec.OperationRegister), 0)
	le.PutUint32(b[48:], codec.HeaderSize+12)
	b = le.AppendUint32(b, 1)
	b = le.AppendUint32(b, 0)
	return le.AppendUint32(b, code)
}

// TestClientTransientLogin: result codes 57 and 58 of a Register reply
// (WIRE.md section 8) are a retryable *TransientError; the connection
// stays open. After 57 the next login is the same request (same client id,
// same bytes); after 58 it is a new one under a fresh client id.
func TestClientTransientLogin(t *testing.T) {
	cases := []struct {
		code    codec.Status
		replay  bool
		nextID  codec.Uint128
		message string
	}{
		{codec.StatusTransientNotCommitted, true, id(1), "replay the same login on the same connection"},
		{codec.StatusTransientNotAccepted, false, id(2), "the login may be re-issued anywhere"},
	}
	for _, tc := range cases {
		t.Run(tc.code.String(), func(t *testing.T) {
			c := newTestClient(t)
			first, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
			require.NoError(t, err)
			r, err := c.Receive(refLoginResult(id(1), uint32(tc.code)))
			require.ErrorIs(t, err, lifecycle.ErrTransient)
			require.ErrorIs(t, err, tc.code)
			var te *lifecycle.TransientError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, tc.code, te.Code)
			assert.Equal(t, tc.replay, te.Replay())
			assert.Equal(t, !tc.replay, te.Reissue())
			assert.True(t, te.Temporary())
			assert.Contains(t, err.Error(), tc.message)
			assert.Nil(t, r.Body)
			assert.Equal(t, lifecycle.ClientState{Client: id(1), Watermark: 1}, c.State(), "open, not logged in, nothing pending")

			again, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
			require.NoError(t, err)
			assert.Equal(t, tc.nextID, c.ID())
			assert.Equal(t, tc.replay, string(first) == string(again), "the retry is the same request")
			_, err = c.Receive(loginReplyAs(t, tc.nextID, 7))
			require.NoError(t, err)
			assert.Equal(t, uint64(7), c.Session())
		})
	}
	c := newTestClient(t)
	_, err := c.Login(nil, []byte("iggy"), []byte("iggy"))
	require.NoError(t, err)
	_, err = c.Receive(refLoginResult(id(1), 42))
	require.ErrorIs(t, err, codec.StatusInvalidCredentials)
	assert.NotErrorIs(t, err, lifecycle.ErrTransient, "only 57 and 58 are transient")
}

// TestClientRequestRefusals: Request builds neither a login nor a logout
// with a body, and a replicated code needs a session.
func TestClientRequestRefusals(t *testing.T) {
	c := newTestClient(t)
	for _, code := range []codec.Code{codec.CodeLoginRegister, codec.CodeLoginRegisterWithPAT} {
		f, err := c.Request([]byte("kept"), code, nil)
		require.ErrorIs(t, err, lifecycle.ErrOperation, "code %d", code)
		assert.Equal(t, []byte("kept"), f)
	}
	_, err := c.Request(nil, codec.CodeLogoutUser, nil)
	require.ErrorIs(t, err, lifecycle.ErrNoSession, "logout before login")
	_, err = c.Request(nil, 503, nil)
	require.ErrorIs(t, err, lifecycle.ErrNoSession, "DeleteSegments before login")
	assert.Equal(t, lifecycle.ClientState{Client: id(1), Watermark: 1}, c.State(), "nothing was built")

	c = loggedInClient(t)
	_, err = c.Request(nil, codec.CodeLogoutUser, []byte{1})
	require.ErrorIs(t, err, lifecycle.ErrOperation, "a logout carries no body")
	f, err := c.Request(nil, codec.CodeLogoutUser, nil)
	require.NoError(t, err)
	assert.Equal(t, refRequest(id(1), 1, byte(codec.OperationLogout), 5, 0, nil), f, "39 is Logout")
	_, err = c.Replicated(nil, codec.OperationDeleteSegments, nil)
	require.ErrorIs(t, err, lifecycle.ErrPending)
	_, err = c.Receive(refReply(id(1), 1, byte(codec.OperationLogout), 0))
	require.NoError(t, err)
	assert.Zero(t, c.Session(), "the logout ended the session")

	c = loggedInClient(t)
	for _, op := range []codec.Operation{codec.OperationReserved, codec.OperationRegister, codec.OperationNonReplicated,
		codec.OperationLogout, codec.OperationInternalFirst, codec.OperationTruncatePartition, 150, 159, 163} {
		_, err = c.Replicated(nil, op, nil)
		require.ErrorIs(t, err, lifecycle.ErrOperation, "operation %d", op)
	}
	f, err = c.Replicated(nil, codec.OperationDeleteSegments, nil)
	require.NoError(t, err)
	assert.Equal(t, refRequest(id(1), 1, 138, 5, 0, nil), f)
	assert.Equal(t, uint64(2), c.State().Watermark, "DeleteSegments consumes the request number")
}
