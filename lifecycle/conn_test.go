package lifecycle_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/lifecycle"
)

// step is one frame fed to a Conn: the exact answer expected (nil for
// none), the error expected (matched with errors.Is; nil for none) and the
// state after.
type step struct {
	name  string
	in    []byte
	want  []byte
	err   error
	state lifecycle.ConnState
}

var (
	fresh  = lifecycle.ConnState{}
	closed = lifecycle.ConnState{Closed: true}
)

func bound(client codec.Uint128, session uint64, user uint32) lifecycle.ConnState {
	return lifecycle.ConnState{LoggedIn: true, Client: client, Session: session, UserID: user}
}

func runSteps(t *testing.T, steps []step) {
	t.Helper()
	conn := newTestServer(t).NewConn()
	for i, s := range steps {
		got, _, err := conn.Handle(s.in, nil)
		if s.err == nil {
			if err != nil {
				t.Fatalf("step %d %s: Handle: %v", i, s.name, err)
			}
		} else if !errors.Is(err, s.err) {
			t.Fatalf("step %d %s: Handle error = %v, want %v", i, s.name, err, s.err)
		}
		// No answer (want nil) is nil, not an empty slice.
		if !bytes.Equal(got, s.want) || (got == nil) != (s.want == nil) {
			t.Fatalf("step %d %s: answer bytes =\n%x (nil: %t)\nwant\n%x (nil: %t)", i, s.name, got, got == nil, s.want, s.want == nil)
		}
		if st := conn.State(); st != s.state {
			t.Fatalf("step %d %s: state = %+v, want %+v", i, s.name, st, s.state)
		}
		if c := conn.Closed(); c != s.state.Closed {
			t.Fatalf("step %d %s: Closed() = %t, want %t", i, s.name, c, s.state.Closed)
		}
	}
}

func TestConnLifecycle(t *testing.T) {
	v0115 := codec.MustPack(0, 11, 5)
	loginA := register(t, clientA, passwordBody(t, v011, "iggy", "iggy"))
	loginB := register(t, clientB, passwordBody(t, v011, "iggy", "iggy"))
	logged := bound(clientA, 1, 1)
	cases := []struct {
		name  string
		steps []step
	}{
		{"ping before login", []step{
			{"ping", nonReplicated(t, clientA, 1, codec.CodePing), replyFrame(t, clientA, 1, codec.OperationNonReplicated, 0), nil, fresh},
			{"ping again, request not required to grow", nonReplicated(t, clientA, 1, codec.CodePing), replyFrame(t, clientA, 1, codec.OperationNonReplicated, 0), nil, fresh},
		}},
		{"legacy 38", []step{
			{"LOGIN_USER", nonReplicated(t, clientA, 1, codec.CodeLoginUser), evictionFrame(t, clientA, codec.ReasonMalformedLogin), nil, closed},
		}},
		{"legacy 44 after login", []step{
			{"login", loginA, loginFrame(t, clientA, 1, 1), nil, logged},
			{"LOGIN_WITH_PAT", nonReplicated(t, clientA, 1, codec.CodeLoginPAT), evictionFrame(t, clientA, codec.ReasonMalformedLogin), nil, closed},
		}},
		{"non-replicated commands before login are denied 40", []step{
			{"GetClusterMetadata", nonReplicated(t, clientA, 7, codec.CodeGetClusterMetadata), replyFrame(t, clientA, 7, codec.OperationNonReplicated, codec.StatusUnauthenticated), nil, fresh},
			{"39 as NonReplicated", nonReplicated(t, clientA, 1, codec.CodeLogoutUser), replyFrame(t, clientA, 1, codec.OperationNonReplicated, codec.StatusUnauthenticated), nil, fresh},
			{"40 as NonReplicated", nonReplicated(t, clientA, 1, codec.CodeLoginRegister), replyFrame(t, clientA, 1, codec.OperationNonReplicated, codec.StatusUnauthenticated), nil, fresh},
			{"45 as NonReplicated", nonReplicated(t, clientA, 1, codec.CodeLoginRegisterPAT), replyFrame(t, clientA, 1, codec.OperationNonReplicated, codec.StatusUnauthenticated), nil, fresh},
			{"unknown code", nonReplicated(t, clientA, 2, 9999), replyFrame(t, clientA, 2, codec.OperationNonReplicated, codec.StatusUnauthenticated), nil, fresh},
			{"connection lives on", loginA, loginFrame(t, clientA, 1, 1), nil, logged},
		}},
		{"logout before login", []step{
			{"logout", replicated(t, clientA, codec.OperationLogout, 1, 1), evictionFrame(t, clientA, codec.ReasonNoSession), nil, closed},
		}},
		{"metadata op before login", []step{
			{"metadata", replicated(t, clientB, codec.OperationCreateStream, 5, 1), evictionFrame(t, clientB, codec.ReasonNoSession), nil, closed},
		}},
		{"empty login body", []step{
			{"register", register(t, clientA, nil), evictionFrame(t, clientA, codec.ReasonMalformedLogin), nil, closed},
		}},
		{"bad prefix: sdk_name_len 0", []step{
			{"register", register(t, clientA, []byte{0x00, 0x2C, 0, 0, 0, 1, 'x'}), evictionFrame(t, clientA, codec.ReasonMalformedLogin), nil, closed},
		}},
		{"prefix decodes but nothing else does", []step{
			{"register", register(t, clientA, func() []byte { b, _ := info(v011).AppendBinary(nil); return b }()), evictionFrame(t, clientA, codec.ReasonMalformedLogin), nil, closed},
		}},
		{"incompatible version above", []step{
			{"register", register(t, clientA, passwordBody(t, codec.MustPack(0, 12, 0), "iggy", "iggy")), evictionFrame(t, clientA, codec.ReasonIncompatibleProtocol), nil, closed},
		}},
		{"incompatible version below", []step{
			{"register", register(t, clientA, tokenBody(t, codec.MustPack(0, 10, 9), "tok-iggy")), evictionFrame(t, clientA, codec.ReasonIncompatibleProtocol), nil, closed},
		}},
		{"version with reserved bits", []step{
			{"register", register(t, clientA, passwordBody(t, v011|0xC000_0000, "iggy", "iggy")), evictionFrame(t, clientA, codec.ReasonIncompatibleProtocol), nil, closed},
		}},
		{"wrong password", []step{
			{"register", register(t, clientA, passwordBody(t, v011, "iggy", "nope")), evictionFrame(t, clientA, codec.ReasonInvalidCredentials), nil, closed},
		}},
		{"unknown user", []step{
			{"register", register(t, clientA, passwordBody(t, v011, "nobody", "iggy")), evictionFrame(t, clientA, codec.ReasonInvalidCredentials), nil, closed},
		}},
		{"wrong empty password decodes as a token too", []step{
			{"register", register(t, clientA, passwordBody(t, v011, "iggy", "")), evictionFrame(t, clientA, codec.ReasonInvalidToken), nil, closed},
		}},
		{"bad token", []step{
			{"register", register(t, clientA, tokenBody(t, v011, "tok-nobody")), evictionFrame(t, clientA, codec.ReasonInvalidToken), nil, closed},
		}},
		{"inactive user by password", []step{
			{"register", register(t, clientA, passwordBody(t, v011, "bob", "bobpw")), evictionFrame(t, clientA, codec.ReasonInvalidCredentials), nil, closed},
		}},
		{"inactive user by token", []step{
			{"register", register(t, clientA, tokenBody(t, v011, "tok-bob")), evictionFrame(t, clientA, codec.ReasonUserInactive), nil, closed},
		}},
		{"login by password, ping, command, logout, re-login", []step{
			{"login", loginA, loginFrame(t, clientA, 1, 1), nil, logged},
			{"ping", nonReplicated(t, clientA, 1, codec.CodePing), replyFrame(t, clientA, 1, codec.OperationNonReplicated, 0), nil, logged},
			{"GetClusterMetadata denied 3", nonReplicated(t, clientA, 1, codec.CodeGetClusterMetadata), replyFrame(t, clientA, 1, codec.OperationNonReplicated, codec.StatusInvalidCommand), nil, logged},
			{"metadata op denied 3", replicated(t, clientA, 130, 1, 1), replyFrame(t, clientA, 1, 130, codec.StatusInvalidCommand), nil, logged},
			{"logout", replicated(t, clientA, codec.OperationLogout, 1, 2), replyFrame(t, clientA, 2, codec.OperationLogout, 0), nil, fresh},
			{"ping after logout", nonReplicated(t, clientA, 3, codec.CodePing), replyFrame(t, clientA, 3, codec.OperationNonReplicated, 0), nil, fresh},
			{"command after logout denied 40", nonReplicated(t, clientA, 3, codec.CodeGetClusterMetadata), replyFrame(t, clientA, 3, codec.OperationNonReplicated, codec.StatusUnauthenticated), nil, fresh},
			{"re-login with a new client id", loginB, loginFrame(t, clientB, 2, 1), nil, bound(clientB, 2, 1)},
			{"old client id after re-login", replicated(t, clientA, codec.OperationLogout, 1, 3), evictionFrame(t, clientA, codec.ReasonNoSession), nil, closed},
		}},
		{"login by token, patch above ignored", []step{
			{"login", register(t, clientA, tokenBody(t, v0115, "tok-iggy")), loginFrame(t, clientA, 1, 1), nil, logged},
		}},
		{"login body with trailing bytes", []step{
			{"login", register(t, clientA, append(passwordBody(t, v011, "iggy", "iggy"), 0xFF, 0xFE)), loginFrame(t, clientA, 1, 1), nil, logged},
		}},
		{"stale session after re-login", []step{
			{"login", loginA, loginFrame(t, clientA, 1, 1), nil, logged},
			{"re-login, same client id", loginA, loginFrame(t, clientA, 2, 1), nil, bound(clientA, 2, 1)},
			{"zombie logout", replicated(t, clientA, codec.OperationLogout, 1, 1), evictionFrame(t, clientA, codec.ReasonSessionTooLow), nil, closed},
		}},
		{"higher session is dropped", []step{
			{"login", loginA, loginFrame(t, clientA, 1, 1), nil, logged},
			{"logout from the future", replicated(t, clientA, codec.OperationLogout, 2, 1), nil, lifecycle.ErrSessionAhead, logged},
			{"still logged in", replicated(t, clientA, codec.OperationLogout, 1, 1), replyFrame(t, clientA, 1, codec.OperationLogout, 0), nil, fresh},
		}},
		{"another client id after login", []step{
			{"login", loginA, loginFrame(t, clientA, 1, 1), nil, logged},
			{"metadata from B", replicated(t, clientB, codec.OperationCreateStream, 1, 1), evictionFrame(t, clientB, codec.ReasonNoSession), nil, closed},
		}},
		{"request after eviction", []step{
			{"legacy", nonReplicated(t, clientA, 1, codec.CodeLoginUser), evictionFrame(t, clientA, codec.ReasonMalformedLogin), nil, closed},
			{"ping", nonReplicated(t, clientA, 1, codec.CodePing), nil, lifecycle.ErrClosed, closed},
			{"login", loginA, nil, lifecycle.ErrClosed, closed},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runSteps(t, c.steps) })
	}
}

// TestConnIncompatibleWindowBytes reads the window of eviction 14 straight
// from bytes 144..152, independently of the codec's encoder.
func TestConnIncompatibleWindowBytes(t *testing.T) {
	conn := newTestServer(t).NewConn()
	out, _, err := conn.Handle(register(t, clientA, passwordBody(t, codec.MustPack(1, 0, 0), "iggy", "iggy")), nil)
	if err != nil {
		t.Fatalf("Handle: %v", err)
	}
	if len(out) != 256 {
		t.Fatalf("answer is %d bytes, want 256", len(out))
	}
	if out[60] != 13 {
		t.Fatalf("command = %d, want 13", out[60])
	}
	if size := binary.LittleEndian.Uint32(out[48:]); size != 256 {
		t.Fatalf("size = %d, want 256", size)
	}
	if lo := binary.LittleEndian.Uint64(out[128:]); lo != clientA.Lo {
		t.Fatalf("client lo = %#x, want %#x", lo, clientA.Lo)
	}
	if hi := binary.LittleEndian.Uint64(out[136:]); hi != clientA.Hi {
		t.Fatalf("client hi = %#x, want %#x", hi, clientA.Hi)
	}
	if want := []byte{0x00, 0x2C, 0, 0, 0x00, 0x2C, 0, 0}; !bytes.Equal(out[144:152], want) {
		t.Fatalf("window max then min = % x, want % x", out[144:152], want)
	}
	if out[255] != 14 {
		t.Fatalf("reason = %d, want 14", out[255])
	}
}

// TestConnDroppedHeaders: a frame whose header is not a valid Request gets
// no answer, a *DroppedError wrapping the codec's reason, and no change of
// state, logged in or not.
func TestConnDroppedHeaders(t *testing.T) {
	ping := nonReplicated(t, clientA, 1, codec.CodePing)
	mutate := func(f func(b []byte)) []byte {
		b := append([]byte(nil), ping...)
		f(b)
		return b
	}
	cases := []struct {
		name  string
		frame []byte
		cause error
	}{
		{"reply command byte", mutate(func(b []byte) { b[60] = 8 }), codec.ErrCommand},
		{"eviction command byte", mutate(func(b []byte) { b[60] = 13 }), codec.ErrCommand},
		{"client 0", mutate(func(b []byte) { clear(b[128:144]) }), codec.ErrField},
		{"operation 0", mutate(func(b []byte) { b[176] = 0 }), codec.ErrField},
		{"unknown operation", mutate(func(b []byte) { b[176] = 200 }), codec.ErrField},
		{"code 0", mutate(func(b []byte) { clear(b[196:200]) }), codec.ErrField},
		{"reserved_frame", mutate(func(b []byte) { b[100] = 1 }), codec.ErrReserved},
		{"reserved", mutate(func(b []byte) { b[255] = 1 }), codec.ErrReserved},
		{"logout with request 0", mutate(func(b []byte) { b[176] = 3; clear(b[196:200]); b[184] = 1; clear(b[168:176]) }), codec.ErrField},
		{"register with request", mutate(func(b []byte) { b[176] = 1; clear(b[196:200]) }), codec.ErrField},
	}
	for _, loggedIn := range []bool{false, true} {
		conn := newTestServer(t).NewConn()
		want := fresh
		if loggedIn {
			if _, _, err := conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil); err != nil {
				t.Fatalf("login: %v", err)
			}
			want = bound(clientA, 1, 1)
		}
		for _, c := range cases {
			out, _, err := conn.Handle(c.frame, []byte("kept"))
			if !errors.Is(err, lifecycle.ErrDropped) {
				t.Fatalf("%s: Handle error = %v, want %v", c.name, err, lifecycle.ErrDropped)
			}
			if !errors.Is(err, c.cause) {
				t.Fatalf("%s: Handle error = %v, want %v", c.name, err, c.cause)
			}
			var dropped *lifecycle.DroppedError
			if !errors.As(err, &dropped) {
				t.Fatalf("%s: Handle error %v is not a *lifecycle.DroppedError", c.name, err)
			}
			if !bytes.Equal(out, []byte("kept")) {
				t.Fatalf("%s: Handle returned %q, want %q", c.name, out, "kept")
			}
			if st := conn.State(); st != want {
				t.Fatalf("%s: state = %+v, want %+v", c.name, st, want)
			}
		}
	}
}

// TestConnFrameSize: a size that cannot delimit the frame ends the
// connection without an answer.
func TestConnFrameSize(t *testing.T) {
	ping := nonReplicated(t, clientA, 1, codec.CodePing)
	withSize := func(size uint32) []byte {
		b := append([]byte(nil), ping...)
		binary.LittleEndian.PutUint32(b[48:], size)
		return b
	}
	cases := []struct {
		name  string
		frame []byte
	}{
		{"size 255", withSize(255)},
		{"size 0", withSize(0)},
		{"size above 64 MiB", withSize(codec.MaxFrameSize + 1)},
		{"size says a body follows", withSize(300)},
		{"shorter than a header", ping[:100]},
		{"empty", nil},
		{"longer than its size", append(append([]byte(nil), ping...), 0)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := newTestServer(t).NewConn()
			out, _, err := conn.Handle(c.frame, nil)
			if !errors.Is(err, codec.ErrSize) {
				t.Fatalf("Handle error = %v, want %v", err, codec.ErrSize)
			}
			if out != nil {
				t.Fatalf("no answer: Handle returned %x, want nil", out)
			}
			if !conn.Closed() {
				t.Fatalf("Closed() = false, want true")
			}
			out, _, err = conn.Handle(ping, nil)
			if !errors.Is(err, lifecycle.ErrClosed) {
				t.Fatalf("Handle after the close: error = %v, want %v", err, lifecycle.ErrClosed)
			}
			if out != nil {
				t.Fatalf("no answer: Handle after the close returned %x, want nil", out)
			}
		})
	}
}

// TestConnDropErrorsAreFresh: every drop returns its own error, so a
// caller changing one through errors.As cannot change another's.
func TestConnDropErrorsAreFresh(t *testing.T) {
	conn := newTestServer(t).NewConn()
	if _, _, err := conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil); err != nil {
		t.Fatalf("login: %v", err)
	}
	ahead := replicated(t, clientA, codec.OperationLogout, 1<<40, 1)
	_, _, err1 := conn.Handle(ahead, nil)
	var d1 *lifecycle.DroppedError
	if !errors.As(err1, &d1) {
		t.Fatalf("Handle error %v is not a *lifecycle.DroppedError", err1)
	}
	d1.Err = errors.New("changed by a caller")
	_, _, err2 := conn.Handle(ahead, nil)
	if !errors.Is(err2, lifecycle.ErrSessionAhead) {
		t.Fatalf("the next drop is untouched: error = %v, want %v", err2, lifecycle.ErrSessionAhead)
	}
}

// TestConnFrameSizeLogsOut: a logged-in connection that ends on an unusable
// size is logged out too, so its state never shows a login of a dead
// connection.
func TestConnFrameSizeLogsOut(t *testing.T) {
	conn := newTestServer(t).NewConn()
	_, _, err := conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil)
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	if !conn.State().LoggedIn {
		t.Fatalf("logged in: State() = %+v, want LoggedIn", conn.State())
	}
	_, _, err = conn.Handle(make([]byte, 100), nil)
	if !errors.Is(err, codec.ErrSize) {
		t.Fatalf("Handle error = %v, want %v", err, codec.ErrSize)
	}
	if got, want := conn.State(), (lifecycle.ConnState{Closed: true}); got != want {
		t.Fatalf("State() = %+v, want %+v", got, want)
	}
}

// TestConnEchoes: the request checksum, client id and request number come
// back in the reply, and the answer is appended after what out held.
func TestConnEchoes(t *testing.T) {
	h := codec.RequestHeader{Client: clientB, RequestChecksum: codec.Uint128{Lo: 7, Hi: 9}, Request: 1 << 40,
		Operation: codec.OperationNonReplicated, Code: codec.CodePing, Timestamp: 123}
	conn := newTestServer(t).NewConn()
	out, _, err := conn.Handle(request(t, h, nil), []byte("prefix"))
	if err != nil {
		t.Fatalf("Handle: %v", err)
	}
	want, err := codec.AppendReplyFrame([]byte("prefix"), codec.ReplyHeader{RequestChecksum: h.RequestChecksum,
		Client: clientB, Request: 1 << 40, Operation: codec.OperationNonReplicated}, nil)
	if err != nil {
		t.Fatalf("AppendReplyFrame: %v", err)
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("answer bytes =\n%x\nwant\n%x", out, want)
	}
}

// TestConnSessionsIncrease: sessions grow across every login on a Server,
// whichever connection makes it.
func TestConnSessionsIncrease(t *testing.T) {
	srv := newTestServer(t)
	var last uint64
	for i := range 5 {
		conn := srv.NewConn()
		for range i % 2 { // the second login on one connection replaces the binding
			if _, _, err := conn.Handle(register(t, clientA, tokenBody(t, v011, "tok-iggy")), nil); err != nil {
				t.Fatalf("first login: %v", err)
			}
		}
		if _, _, err := conn.Handle(register(t, clientA, tokenBody(t, v011, "tok-iggy")), nil); err != nil {
			t.Fatalf("login: %v", err)
		}
		if s := conn.State().Session; s <= last {
			t.Fatalf("session grows: session = %d, want above %d", s, last)
		}
		last = conn.State().Session
	}
}

// TestConnHandler: a Handler's reply body reaches the client; a non-zero
// status drops the body.
func TestConnHandler(t *testing.T) {
	srv, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Version: testServerVersion, Auth: testAuth,
		Handler: func(r lifecycle.Request) (codec.Status, []byte) {
			if r.Header.Code == 100 {
				return codec.StatusOK, []byte("hello")
			}
			return codec.StatusUnauthenticated, []byte("ignored")
		}})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	conn := srv.NewConn()
	if _, _, err = conn.Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil); err != nil {
		t.Fatalf("login: %v", err)
	}
	out, _, err := conn.Handle(nonReplicated(t, clientA, 1, 100), nil)
	if err != nil {
		t.Fatalf("Handle(code 100): %v", err)
	}
	want, err := codec.AppendReplyFrame(nil, codec.ReplyHeader{Client: clientA, Request: 1, Operation: codec.OperationNonReplicated}, []byte("hello"))
	if err != nil {
		t.Fatalf("AppendReplyFrame: %v", err)
	}
	if !bytes.Equal(out, want) {
		t.Fatalf("answer to code 100 =\n%x\nwant\n%x", out, want)
	}
	out, _, err = conn.Handle(nonReplicated(t, clientA, 1, 101), nil)
	if err != nil {
		t.Fatalf("Handle(code 101): %v", err)
	}
	if want := replyFrame(t, clientA, 1, codec.OperationNonReplicated, codec.StatusUnauthenticated); !bytes.Equal(out, want) {
		t.Fatalf("answer to code 101 =\n%x\nwant\n%x", out, want)
	}
}

func TestNewServerConfig(t *testing.T) {
	if _, err := lifecycle.NewServer(lifecycle.Config{Window: codec.Window{Min: 2, Max: 1}, Auth: testAuth}); err == nil {
		t.Fatalf("NewServer with an ill-formed window: no config error")
	}
	if _, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow}); err == nil {
		t.Fatalf("NewServer without Auth: no config error")
	}
	if _, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth, Version: string([]byte{0xff})}); err == nil {
		t.Fatalf("NewServer with a version that is not UTF-8: no config error")
	}
	s, err := lifecycle.NewServer(lifecycle.Config{Window: testWindow, Auth: testAuth})
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	out, _, err := s.NewConn().Handle(register(t, clientA, passwordBody(t, v011, "iggy", "iggy")), nil)
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	_, code, err := codec.SplitResult(out[256:])
	if err != nil {
		t.Fatalf("SplitResult: %v", err)
	}
	if code != codec.StatusOK {
		t.Fatalf("result code = %v, want %v", code, codec.StatusOK)
	}
	reply, err := codec.ParseLoginReply(out[260:])
	if err != nil {
		t.Fatalf("ParseLoginReply: %v", err)
	}
	if got := string(reply.ServerVersion); got != "0.11.0" {
		t.Fatalf("default version text is the window's max: ServerVersion = %q, want %q", got, "0.11.0")
	}
}
