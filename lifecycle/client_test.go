package lifecycle_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

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
		if !bytes.Equal(frame, want) {
			t.Fatalf("%s: request bytes =\n%x\nwant\n%x", name, frame, want)
		}
		answer, _, err := srv.Handle(frame, nil)
		if err != nil {
			t.Fatalf("%s: Handle: %v", name, err)
		}
		r, err := c.Receive(answer)
		if err != nil && !errors.Is(err, codec.StatusInvalidCommand.Err()) {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	f, err := c.Ping(nil)
	if err != nil {
		t.Fatalf("Ping: %v", err)
	}
	exchange("ping before login", f, nonReplicated(t, id(1), 1, codec.CodePing))

	f, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	r := exchange("login", f, register(t, id(1), passwordBody(t, v011, "iggy", "iggy")))
	if r.Login.Session != 1 {
		t.Fatalf("login: Login.Session = %d, want 1", r.Login.Session)
	}
	if r.Login.UserID != 1 {
		t.Fatalf("login: Login.UserID = %d, want 1", r.Login.UserID)
	}
	if got := string(r.Login.ServerVersion); got != testServerVersion {
		t.Fatalf("login: Login.ServerVersion = %q, want %q", got, testServerVersion)
	}
	if got, want := c.State(), (lifecycle.ClientState{Client: id(1), Session: 1, UserID: 1, Watermark: 1}); got != want {
		t.Fatalf("after login: State() = %+v, want %+v", got, want)
	}

	f, err = c.Request(nil, codec.CodeGetClusterMetadata, nil)
	if err != nil {
		t.Fatalf("Request(GetClusterMetadata): %v", err)
	}
	want := request(t, codec.RequestHeader{Client: id(1), Request: 1, Session: 1, Operation: codec.OperationNonReplicated, Code: 12}, nil)
	r = exchange("GetClusterMetadata", f, want)
	if r.Status != codec.StatusInvalidCommand {
		t.Fatalf("GetClusterMetadata: Status = %v, want %v", r.Status, codec.StatusInvalidCommand)
	}

	f, err = c.Replicated(nil, codec.OperationSendMessages, []byte{1})
	if err != nil {
		t.Fatalf("Replicated(PartitionFirst): %v", err)
	}
	exchange("partition op carries 1", f, request(t, codec.RequestHeader{Client: id(1), Request: 1, Session: 1, Operation: codec.OperationSendMessages}, []byte{1}))
	f, err = c.Replicated(nil, codec.OperationCreateStream, nil)
	if err != nil {
		t.Fatalf("Replicated(MetadataFirst): %v", err)
	}
	exchange("metadata op consumes 1", f, replicated(t, id(1), codec.OperationCreateStream, 1, 1))
	f, err = c.Replicated(nil, codec.OperationLeaveConsumerGroup, nil)
	if err != nil {
		t.Fatalf("Replicated(MetadataLast): %v", err)
	}
	exchange("metadata op consumes 2", f, replicated(t, id(1), codec.OperationLeaveConsumerGroup, 1, 2))
	f, err = c.Ping(nil)
	if err != nil {
		t.Fatalf("Ping: %v", err)
	}
	exchange("ping carries 3", f, request(t, codec.RequestHeader{Client: id(1), Request: 3, Session: 1, Operation: codec.OperationNonReplicated, Code: 1}, nil))
	f, err = c.Logout(nil)
	if err != nil {
		t.Fatalf("Logout: %v", err)
	}
	exchange("logout consumes 3", f, replicated(t, id(1), codec.OperationLogout, 1, 3))
	if got, want := c.State(), (lifecycle.ClientState{Client: id(1), Watermark: 4}); got != want {
		t.Fatalf("after logout: State() = %+v, want %+v", got, want)
	}

	f, err = c.LoginPAT(nil, codec.NewSecret([]byte("tok-iggy")))
	if err != nil {
		t.Fatalf("LoginPAT: %v", err)
	}
	r = exchange("re-login mints id 2", f, register(t, id(2), tokenBody(t, v011, "tok-iggy")))
	if r.Login.Session != 2 {
		t.Fatalf("re-login: Login.Session = %d, want 2", r.Login.Session)
	}
	if got, want := c.State(), (lifecycle.ClientState{Client: id(2), Session: 2, UserID: 1, Watermark: 1}); got != want {
		t.Fatalf("after re-login: State() = %+v, want %+v", got, want)
	}
}

func TestClientRefusals(t *testing.T) {
	c := newTestClient(t)
	_, err := c.Logout([]byte("kept"))
	if !errors.Is(err, lifecycle.ErrNoSession) {
		t.Fatalf("Logout before login: error = %v, want %v", err, lifecycle.ErrNoSession)
	}
	f, err := c.Replicated([]byte("kept"), codec.OperationCreateStream, nil)
	if !errors.Is(err, lifecycle.ErrNoSession) {
		t.Fatalf("Replicated(MetadataFirst) before login: error = %v, want %v", err, lifecycle.ErrNoSession)
	}
	if !bytes.Equal(f, []byte("kept")) {
		t.Fatalf("Replicated(MetadataFirst) before login returned %q, want %q", f, "kept")
	}
	_, err = c.Replicated(nil, codec.OperationLogout, nil)
	if !errors.Is(err, lifecycle.ErrOperation) {
		t.Fatalf("Replicated(Logout): error = %v, want %v", err, lifecycle.ErrOperation)
	}
	_, err = c.Replicated(nil, codec.OperationCreateTopicWithAssignments, nil)
	if !errors.Is(err, lifecycle.ErrOperation) {
		t.Fatalf("Replicated(InternalFirst): error = %v, want %v", err, lifecycle.ErrOperation)
	}
	_, err = c.Request(nil, 0, nil)
	if !errors.Is(err, codec.ErrField) {
		t.Fatalf("Request(code 0): error = %v, want %v", err, codec.ErrField)
	}
	_, err = c.Login(nil, nil, codec.NewSecret([]byte("x")))
	if !errors.Is(err, codec.ErrLength) {
		t.Fatalf("Login with no username: error = %v, want %v", err, codec.ErrLength)
	}
	if _, err = c.Ping(nil); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	f, err = c.Ping([]byte("kept"))
	if !errors.Is(err, lifecycle.ErrPending) {
		t.Fatalf("Ping while pending: error = %v, want %v", err, lifecycle.ErrPending)
	}
	if !bytes.Equal(f, []byte("kept")) {
		t.Fatalf("Ping while pending returned %q, want %q", f, "kept")
	}
	_, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	if !errors.Is(err, lifecycle.ErrPending) {
		t.Fatalf("Login while pending: error = %v, want %v", err, lifecycle.ErrPending)
	}
	if got, want := c.State(), (lifecycle.ClientState{Client: id(1), Watermark: 1, Pending: true}); got != want {
		t.Fatalf("State() = %+v, want %+v", got, want)
	}

	_, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKVersion: "1"})
	if !errors.Is(err, codec.ErrLength) {
		t.Fatalf("NewClient with no SDK name: error = %v, want %v", err, codec.ErrLength)
	}
	_, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "a", SDKVersion: "1", Rand: &lifecycletest.IDs{Zeros: 100}})
	if !errors.Is(err, lifecycle.ErrRandom) {
		t.Fatalf("NewClient with only zero ids: error = %v, want %v", err, lifecycle.ErrRandom)
	}
	_, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "a", SDKVersion: "1", Rand: iotest.ErrReader(errors.New("no entropy"))})
	if !errors.Is(err, lifecycle.ErrRandom) {
		t.Fatalf("NewClient with a failing Rand: error = %v, want %v", err, lifecycle.ErrRandom)
	}
	c, err = lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "a", SDKVersion: "1", Rand: &lifecycletest.IDs{Zeros: 2}})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	if got := c.ID(); got != id(1) {
		t.Fatalf("zero ids are skipped: ID() = %v, want %v", got, id(1))
	}
}

// loggedInClient returns a client logged in as session 5, user 1.
func loggedInClient(t *testing.T) *lifecycle.Client {
	c := newTestClient(t)
	if _, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))); err != nil {
		t.Fatalf("Login: %v", err)
	}
	if _, err := c.Receive(loginReplyAs(t, id(1), 5)); err != nil {
		t.Fatalf("Receive(login reply): %v", err)
	}
	return c
}

func loginReplyAs(t *testing.T, client codec.Uint128, session uint64) []byte {
	b, err := codec.AppendLoginReplyFrame(nil, codec.ReplyHeader{Client: client, Operation: codec.OperationRegister},
		codec.LoginReply{UserID: 1, Session: session, ServerProtocol: v011, ServerVersion: []byte("x")})
	if err != nil {
		t.Fatalf("AppendLoginReplyFrame: %v", err)
	}
	return b
}

// TestClientReceive: what each answer means to a client, and whether it
// stays open.
func TestClientReceive(t *testing.T) {
	loginReply := func(t *testing.T, body []byte) []byte {
		b, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: id(1), Operation: codec.OperationRegister}, body)
		if err != nil {
			t.Fatalf("AppendReplyFrame: %v", err)
		}
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
		{"login reply, no result section", true, loginReply(t, nil), codec.StatusInvalidCommand.Err(), true, false, nil},
		{"login reply, result code 42", true, withResult, codec.StatusInvalidCredentials.Err(), false, false, nil},
		{"ping reply", false, replyFrame(t, id(1), 1, codec.OperationNonReplicated, 0), nil, false, false, nil},
		{"deny 40", false, replyFrame(t, id(1), 1, codec.OperationNonReplicated, codec.StatusUnauthenticated), codec.StatusUnauthenticated.Err(), false, false, nil},
		{"request number mismatch", false, replyFrame(t, id(1), 2, codec.OperationNonReplicated, 0), lifecycle.ErrMismatch, true, false, nil},
		// WIRE.md section 7, point 9: correlated by request number and
		// client id; the request sent (a ping) decides what it means.
		{"another operation, same request and client", false, replyFrame(t, id(1), 1, codec.OperationLogout, 0), nil, false, false, nil},
		{"client mismatch", false, replyFrame(t, id(9), 1, codec.OperationNonReplicated, 0), lifecycle.ErrMismatch, true, false, nil},
		{"eviction 9", true, evictionFrame(t, id(1), codec.ReasonInvalidCredentials), codec.StatusInvalidCredentials.Err(), true, false, nil},
		{"eviction 10", true, evictionFrame(t, id(1), codec.ReasonInvalidToken), codec.StatusInvalidPAT.Err(), true, false, nil},
		{"eviction 15", false, evictionFrame(t, id(1), codec.ReasonMalformedLogin), codec.StatusInvalidFormat.Err(), true, false, nil},
		{"eviction 14", true, evictionFrame(t, id(1), codec.ReasonIncompatibleProtocol), &codec.IncompatibleProtocolError{Client: v011, Window: testWindow}, true, false,
			func(t *testing.T, err error) {
				var e *codec.IncompatibleProtocolError
				if !errors.As(err, &e) {
					t.Fatalf("error %v is not a *codec.IncompatibleProtocolError", err)
				}
				if e.Window != testWindow {
					t.Fatalf("Window = %v, want %v", e.Window, testWindow)
				}
				if e.Client != v011 {
					t.Fatalf("the version the client sent: Client = %v, want %v", e.Client, v011)
				}
			}},
		// WIRE.md section 8: reason 14 with an ill-formed window is 40.
		{"eviction 14 ill-formed window", true, evictionIllFormed(t, id(1)), codec.StatusUnauthenticated.Err(), true, false, nil},
		// WIRE.md section 7, point 10: an eviction means what its reason
		// says whatever non-zero client id it carries.
		{"eviction 14 ill-formed window, another client", true, evictionIllFormed(t, id(2)), codec.StatusUnauthenticated.Err(), true, false, nil},
		{"eviction for another client", false, evictionFrame(t, id(2), codec.ReasonNoSession), codec.StatusUnauthenticated.Err(), true, false, nil},
		{"eviction with client id 0", false, func() []byte { b := evictionFrame(t, id(2), codec.ReasonNoSession); clear(b[128:144]); return b }(), lifecycle.ErrMalformed, true, false, nil},
		{"request frame", false, nonReplicated(t, id(1), 1, 1), lifecycle.ErrMalformed, true, false, nil},
		{"bad size", false, replyFrame(t, id(1), 1, codec.OperationNonReplicated, 0)[:200], codec.ErrSize, true, false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := newTestClient(t)
			var err error
			if tc.login {
				_, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
			} else {
				_, err = c.Ping(nil)
			}
			if err != nil {
				t.Fatalf("sending the outstanding request: %v", err)
			}
			_, err = c.Receive(tc.frame)
			var wantIPE *codec.IncompatibleProtocolError
			switch {
			case tc.err == nil:
				if err != nil {
					t.Fatalf("Receive: %v", err)
				}
			case errors.As(tc.err, &wantIPE):
				var got *codec.IncompatibleProtocolError
				if !errors.As(err, &got) {
					t.Fatalf("Receive error = %v, want a *codec.IncompatibleProtocolError", err)
				}
				if *got != *wantIPE {
					t.Fatalf("Receive error = %+v, want %+v", *got, *wantIPE)
				}
			default:
				if !errors.Is(err, tc.err) {
					t.Fatalf("Receive error = %v, want %v", err, tc.err)
				}
			}
			if tc.extraTest != nil {
				tc.extraTest(t, err)
			}
			if got := c.Closed(); got != tc.closed {
				t.Fatalf("closed = %t, want %t", got, tc.closed)
			}
			if got := c.Session() != 0; got != tc.loggedIn {
				t.Fatalf("logged in = %t (session %d), want %t", got, c.Session(), tc.loggedIn)
			}
			if c.State().Pending {
				t.Fatalf("nothing outstanding: State().Pending = true, want false")
			}
			if tc.closed {
				_, err = c.Ping(nil)
				if !errors.Is(err, lifecycle.ErrClosed) {
					t.Fatalf("Ping on a closed client: error = %v, want %v", err, lifecycle.ErrClosed)
				}
				_, err = c.Receive(tc.frame)
				if !errors.Is(err, lifecycle.ErrClosed) {
					t.Fatalf("Receive on a closed client: error = %v, want %v", err, lifecycle.ErrClosed)
				}
				_, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
				if err != nil {
					t.Fatalf("a login opens a closed client: %v", err)
				}
				if c.Closed() || c.ID() != id(2) {
					t.Fatalf("reopened with a new id: Closed() = %t, ID() = %v, want false, %v", c.Closed(), c.ID(), id(2))
				}
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
	if _, err := codec.DecodeEviction(b); !errors.Is(err, codec.ErrWindow) {
		t.Fatalf("the fixture must be the frame the codec refuses: DecodeEviction error = %v, want %v", err, codec.ErrWindow)
	}
	return b
}

func TestClientUnexpectedReply(t *testing.T) {
	c := loggedInClient(t)
	_, err := c.Receive(replyFrame(t, id(1), 1, codec.OperationNonReplicated, 0))
	if !errors.Is(err, lifecycle.ErrMismatch) {
		t.Fatalf("Receive error = %v, want %v", err, lifecycle.ErrMismatch)
	}
	if !c.Closed() {
		t.Fatalf("Closed() = false, want true")
	}
}

func TestClientDeniedLogoutKeepsSession(t *testing.T) {
	c := loggedInClient(t)
	if _, err := c.Logout(nil); err != nil {
		t.Fatalf("Logout: %v", err)
	}
	_, err := c.Receive(replyFrame(t, id(1), 1, codec.OperationLogout, codec.StatusInvalidCommand))
	if want := codec.StatusInvalidCommand.Err(); !errors.Is(err, want) {
		t.Fatalf("Receive error = %v, want %v", err, want)
	}
	if s := c.Session(); s != 5 {
		t.Fatalf("Session() = %d, want 5", s)
	}
	if w := c.State().Watermark; w != 2 {
		t.Fatalf("the watermark stays consumed: State().Watermark = %d, want 2", w)
	}
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
		{codec.StatusTransientNotCommitted, true, id(1), "replay the same request on the same connection"},
		{codec.StatusTransientNotAccepted, false, id(2), "the request may be re-issued anywhere"},
	}
	for _, tc := range cases {
		t.Run(tc.code.String(), func(t *testing.T) {
			c := newTestClient(t)
			first, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
			if err != nil {
				t.Fatalf("Login: %v", err)
			}
			r, err := c.Receive(refLoginResult(id(1), uint32(tc.code)))
			if !errors.Is(err, lifecycle.ErrTransient) {
				t.Fatalf("Receive error = %v, want %v", err, lifecycle.ErrTransient)
			}
			if want := tc.code.Err(); !errors.Is(err, want) {
				t.Fatalf("Receive error = %v, want %v", err, want)
			}
			var te *lifecycle.TransientError
			if !errors.As(err, &te) {
				t.Fatalf("Receive error = %v, want a *lifecycle.TransientError", err)
			}
			if te.Status != tc.code {
				t.Errorf("Status = %v, want %v", te.Status, tc.code)
			}
			if got := te.Replay(); got != tc.replay {
				t.Errorf("Replay() = %t, want %t", got, tc.replay)
			}
			if got := te.Reissue(); got != !tc.replay {
				t.Errorf("Reissue() = %t, want %t", got, !tc.replay)
			}
			if !strings.Contains(err.Error(), tc.message) {
				t.Errorf("error text %q does not contain %q", err.Error(), tc.message)
			}
			if r.Body != nil {
				t.Errorf("Body = %q, want nil", r.Body)
			}
			if got, want := c.State(), (lifecycle.ClientState{Client: id(1), Watermark: 1, Replay: true}); got != want {
				t.Errorf("open, not logged in, nothing pending, replayable: State() = %+v, want %+v", got, want)
			}

			again, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
			if err != nil {
				t.Fatalf("retried Login: %v", err)
			}
			if got := c.ID(); got != tc.nextID {
				t.Errorf("ID() = %v, want %v", got, tc.nextID)
			}
			if same := string(first) == string(again); same != tc.replay {
				t.Errorf("the retry is the same request: same bytes = %t, want %t", same, tc.replay)
			}
			if _, err := c.Receive(loginReplyAs(t, tc.nextID, 7)); err != nil {
				t.Fatalf("Receive(login reply): %v", err)
			}
			if s := c.Session(); s != 7 {
				t.Errorf("Session() = %d, want 7", s)
			}
		})
	}
	c := newTestClient(t)
	if _, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))); err != nil {
		t.Fatalf("Login: %v", err)
	}
	_, err := c.Receive(refLoginResult(id(1), 42))
	if want := codec.StatusInvalidCredentials.Err(); !errors.Is(err, want) {
		t.Fatalf("Receive error = %v, want %v", err, want)
	}
	if errors.Is(err, lifecycle.ErrTransient) {
		t.Errorf("only 57 and 58 are transient: error %v matches %v", err, lifecycle.ErrTransient)
	}
}

// TestClientRequestRefusals: Request builds neither a login nor a logout
// with a body, and a replicated code needs a session.
func TestClientRequestRefusals(t *testing.T) {
	c := newTestClient(t)
	for _, code := range []codec.Code{codec.CodeLoginRegister, codec.CodeLoginRegisterPAT} {
		f, err := c.Request([]byte("kept"), code, nil)
		if !errors.Is(err, lifecycle.ErrOperation) {
			t.Fatalf("code %d: Request error = %v, want %v", code, err, lifecycle.ErrOperation)
		}
		if !bytes.Equal(f, []byte("kept")) {
			t.Errorf("code %d: Request returned %q, want %q", code, f, "kept")
		}
	}
	_, err := c.Request(nil, codec.CodeLogoutUser, nil)
	if !errors.Is(err, lifecycle.ErrNoSession) {
		t.Fatalf("logout before login: error = %v, want %v", err, lifecycle.ErrNoSession)
	}
	_, err = c.Request(nil, 503, nil)
	if !errors.Is(err, lifecycle.ErrNoSession) {
		t.Fatalf("DeleteSegments before login: error = %v, want %v", err, lifecycle.ErrNoSession)
	}
	if got, want := c.State(), (lifecycle.ClientState{Client: id(1), Watermark: 1}); got != want {
		t.Errorf("nothing was built: State() = %+v, want %+v", got, want)
	}

	c = loggedInClient(t)
	_, err = c.Request(nil, codec.CodeLogoutUser, []byte{1})
	if !errors.Is(err, lifecycle.ErrOperation) {
		t.Fatalf("a logout carries no body: error = %v, want %v", err, lifecycle.ErrOperation)
	}
	f, err := c.Request(nil, codec.CodeLogoutUser, nil)
	if err != nil {
		t.Fatalf("Request(LogoutUser): %v", err)
	}
	if want := refRequest(id(1), 1, byte(codec.OperationLogout), 5, 0, nil); !bytes.Equal(f, want) {
		t.Errorf("39 is Logout: request bytes =\n%x\nwant\n%x", f, want)
	}
	_, err = c.Replicated(nil, codec.OperationDeleteSegments, nil)
	if !errors.Is(err, lifecycle.ErrPending) {
		t.Fatalf("Replicated(DeleteSegments) while pending: error = %v, want %v", err, lifecycle.ErrPending)
	}
	if _, err = c.Receive(refReply(id(1), 1, byte(codec.OperationLogout), 0)); err != nil {
		t.Fatalf("Receive(logout reply): %v", err)
	}
	if s := c.Session(); s != 0 {
		t.Errorf("the logout ended the session: Session() = %d, want 0", s)
	}

	c = loggedInClient(t)
	for _, op := range []codec.Operation{codec.OperationReserved, codec.OperationRegister, codec.OperationNonReplicated,
		codec.OperationLogout, codec.OperationCreateTopicWithAssignments, codec.OperationTruncatePartition, 150, 159, 163} {
		_, err = c.Replicated(nil, op, nil)
		if !errors.Is(err, lifecycle.ErrOperation) {
			t.Fatalf("operation %d: Replicated error = %v, want %v", op, err, lifecycle.ErrOperation)
		}
	}
	f, err = c.Replicated(nil, codec.OperationDeleteSegments, nil)
	if err != nil {
		t.Fatalf("Replicated(DeleteSegments): %v", err)
	}
	if want := refRequest(id(1), 1, 138, 5, 0, nil); !bytes.Equal(f, want) {
		t.Errorf("request bytes =\n%x\nwant\n%x", f, want)
	}
	if w := c.State().Watermark; w != 2 {
		t.Errorf("DeleteSegments consumes the request number: State().Watermark = %d, want 2", w)
	}
}
