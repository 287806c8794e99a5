package lifecycle_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/leakcheck"
	"github.com/iggywire/iggywire/lifecycle"
)

// new0111Client is a Client of protocol 0.11.1 whose randomness is rnd
// (crypto/rand when nil).
func new0111Client(t testing.TB, rnd *bytes.Reader) *lifecycle.Client {
	t.Helper()
	cfg := lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: v0111}
	if rnd != nil {
		cfg.Rand = rnd
	}
	c, err := lifecycle.NewClient(cfg)
	require.NoError(t, err)
	return c
}

// exchange hands the Client's request to conn and the answer back.
func exchange(t testing.TB, c *lifecycle.Client, conn *lifecycle.Conn, req []byte, err error) (lifecycle.Response, error) {
	t.Helper()
	require.NoError(t, err)
	answer, _, herr := conn.Handle(req, nil)
	require.NoError(t, herr)
	return c.Receive(answer)
}

// TestClient0111AgainstServers: a 0.11.1 Client logs in (password and
// token), works, resumes its session on a new connection with BindSession
// and works there, at a 0.11.1 server, at a server of both revisions, and
// at the default 0.11.0 one (whose gate ignores patch).
func TestClient0111AgainstServers(t *testing.T) {
	for _, w := range []codec.Window{window0111, windowBoth, testWindow} {
		t.Run(w.String(), func(t *testing.T) {
			srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = w })
			for _, pat := range []bool{false, true} {
				c := new0111Client(t, nil)
				conn := srv.NewConn()
				assert.False(t, c.State().Resumable, "nothing to resume before a login")
				_, err := c.BindSession(nil)
				require.ErrorIs(t, err, lifecycle.ErrLoginAgain)

				var req []byte
				if pat {
					req, err = c.LoginPAT(nil, codec.NewSecret([]byte("tok-iggy")))
				} else {
					req, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
				}
				r, err := exchange(t, c, conn, req, err)
				require.NoError(t, err)
				session := r.Login.Session
				require.NotZero(t, session)
				assert.Equal(t, w.Max, r.Login.ServerProtocol)
				assert.True(t, c.State().Resumable)
				req, err = c.Request(nil, codec.CodeCreateStream, []byte("s"))
				_, err = exchange(t, c, conn, req, err)
				require.ErrorIs(t, err, codec.StatusInvalidCommand.Err(), "the default Handler's denial, past the fence")

				// the connection is lost; a new one resumes the session
				conn = srv.NewConn()
				req, err = c.BindSession(nil)
				r, err = exchange(t, c, conn, req, err)
				require.NoError(t, err)
				assert.Equal(t, session, r.Login.Session)
				assert.Equal(t, uint32(1), r.Login.UserID)
				st := c.State()
				assert.Equal(t, session, st.Session)
				assert.Equal(t, uint64(2), st.Watermark, "the request numbers go on")
				assert.Equal(t, session, conn.State().Session)
				assert.True(t, conn.State().LoggedIn)
				req, err = c.Request(nil, codec.CodeCreateStream, []byte("s"))
				_, err = exchange(t, c, conn, req, err)
				require.ErrorIs(t, err, codec.StatusInvalidCommand.Err(), "served on the new connection")

				// a logout ends the logical session everywhere
				req, err = c.Logout(nil)
				_, err = exchange(t, c, conn, req, err)
				require.NoError(t, err)
				assert.False(t, c.State().Resumable)
				_, err = c.BindSession(nil)
				require.ErrorIs(t, err, lifecycle.ErrLoginAgain)
			}
		})
	}
}

// TestClient0110AtServers: a Client of the default protocol sends the
// 0.11.0 layout: it logs in where 0.11.0 is accepted, is evicted with 14
// and the window by a 0.11.1 server, and has nothing to resume.
func TestClient0110AtServers(t *testing.T) {
	for _, w := range []codec.Window{windowBoth, testWindow, window0111} {
		srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = w })
		c := newTestClient(t)
		req, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		_, err = exchange(t, c, srv.NewConn(), req, err)
		if w == window0111 {
			var incompatible *codec.IncompatibleProtocolError
			require.ErrorAs(t, err, &incompatible, w.String())
			assert.Equal(t, [2]codec.Version{w.Min, w.Max}, [2]codec.Version{incompatible.Window.Min, incompatible.Window.Max})
		} else {
			require.NoError(t, err, w.String())
		}
		assert.False(t, c.State().Resumable, w.String())
		_, err = c.BindSession(nil)
		require.ErrorIs(t, err, lifecycle.ErrLoginAgain, w.String())
	}
}

// TestClientBindRefusals: each answer of WIRE.md section 10.4 as the
// Client reads it, against the server.
func TestClientBindRefusals(t *testing.T) {
	srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
	login := func(t *testing.T) (*lifecycle.Client, *lifecycle.Conn) {
		c, conn := new0111Client(t, nil), srv.NewConn()
		req, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		_, err = exchange(t, c, conn, req, err)
		require.NoError(t, err)
		return c, conn
	}
	refused := func(t *testing.T, c *lifecycle.Client, err error, status codec.Status) {
		t.Helper()
		var be *lifecycle.BindRefusedError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, status, be.Status)
		require.ErrorIs(t, err, lifecycle.ErrLoginAgain)
		require.ErrorIs(t, err, status.Err())
		st := c.State()
		assert.False(t, st.Resumable || st.Closed || st.Session != 0, "log in again, on this connection: %+v", st)
		// and that works
		req, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		_, err = exchange(t, c, srv.NewConn(), req, err)
		require.NoError(t, err)
	}

	t.Run("wrong secret", func(t *testing.T) {
		c, _ := login(t)
		req, err := c.BindSession(nil)
		require.NoError(t, err)
		req[len(req)-1] ^= 0xff // the last byte of the secret
		_, err = exchange(t, c, srv.NewConn(), req, nil)
		refused(t, c, err, codec.StatusUnauthenticated)
	})
	t.Run("logout whose reply was lost", func(t *testing.T) {
		c, conn := login(t)
		req, err := c.Logout(nil)
		require.NoError(t, err)
		_, _, err = conn.Handle(req, nil) // the answer never arrives
		require.NoError(t, err)
		assert.True(t, c.State().Resumable, "the Client cannot know")
		req, err = c.BindSession(nil)
		_, err = exchange(t, c, srv.NewConn(), req, err)
		refused(t, c, err, codec.StatusUnauthenticated)
	})
	t.Run("login reply lost", func(t *testing.T) {
		c, conn := new0111Client(t, nil), srv.NewConn()
		req, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		require.NoError(t, err)
		_, o, err := conn.Handle(req, nil) // logged in; the reply is lost
		require.NoError(t, err)
		require.True(t, o.LoggedIn())
		assert.True(t, c.State().Resumable)
		req, err = c.BindSession(nil) // session 0: the one the login got
		require.NoError(t, err)
		h, err := codec.DecodeRequestHeader(req)
		require.NoError(t, err)
		assert.Equal(t, uint64(0), h.Session)
		r, err := exchange(t, c, srv.NewConn(), req, nil)
		require.NoError(t, err)
		assert.Equal(t, o.Login.Session, r.Login.Session)
		assert.Equal(t, o.Login.Session, c.Session())
	})
	t.Run("login never arrived", func(t *testing.T) {
		c := new0111Client(t, nil)
		_, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		require.NoError(t, err)
		req, err := c.BindSession(nil)
		_, err = exchange(t, c, srv.NewConn(), req, err)
		// This server decides a login before it answers: a client id it
		// does not know is 40, not a 58 to wait out (WIRE.md 10.4, e).
		refused(t, c, err, codec.StatusUnauthenticated)
	})
	t.Run("eviction ends it", func(t *testing.T) {
		c, _ := login(t)
		_, err := c.Request(nil, codec.CodeCreateStream, nil)
		require.NoError(t, err)
		_, err = c.Receive(refEviction(c.ID(), byte(codec.ReasonSessionTooLow)))
		require.ErrorIs(t, err, codec.ReasonSessionTooLow.Status().Err())
		assert.True(t, c.Closed())
		assert.False(t, c.State().Resumable, "an eviction is session-terminal")
		_, err = c.BindSession(nil)
		require.ErrorIs(t, err, lifecycle.ErrLoginAgain)
	})
	t.Run("mismatch keeps it", func(t *testing.T) {
		c, conn := login(t)
		session := c.Session()
		_, err := c.Request(nil, codec.CodeCreateStream, nil)
		require.NoError(t, err)
		_, err = c.Receive(refReply(c.ID(), 99, byte(codec.OperationCreateStream), 0))
		require.ErrorIs(t, err, lifecycle.ErrMismatch)
		assert.True(t, c.Closed())
		assert.True(t, c.State().Resumable, "the connection is dropped, the logical session lives on")
		req, err := c.BindSession(nil)
		r, err := exchange(t, c, srv.NewConn(), req, err)
		require.NoError(t, err)
		assert.Equal(t, session, r.Login.Session)
		assert.False(t, c.Closed())
		_ = conn
	})
}

// TestClientBindSecretPerSession: every logical session (a new client id)
// gets a fresh secret from the randomness source, and a login retried
// after 57 keeps it (the same bytes); the secret travels in the bodies
// and nowhere else.
func TestClientBindSecretPerSession(t *testing.T) {
	var rnd []byte
	for i := range 4 {
		id := bytes.Repeat([]byte{byte(0x10 + i)}, 16)
		secret := bytes.Repeat([]byte{byte(0xa0 + i)}, 32)
		rnd = append(append(rnd, id...), secret...)
	}
	c := new0111Client(t, bytes.NewReader(rnd))
	secretOf := func(frame []byte) []byte {
		l, err := codec.ParseLoginRegisterRev(frame[codec.HeaderSize:], codec.RevisionBindSecret)
		require.NoError(t, err)
		return bytes.Clone(l.BindSecret.Bytes())
	}
	first, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	require.NoError(t, err)
	assert.Equal(t, bytes.Repeat([]byte{0xa0}, 32), secretOf(first))
	_, err = c.Receive(refLoginResult(c.ID(), uint32(codec.StatusTransientNotCommitted)))
	require.ErrorIs(t, err, lifecycle.ErrTransient)
	again, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	require.NoError(t, err)
	assert.Equal(t, first, again, "after 57 the same login: same id, same secret")
	_, err = c.Receive(refLoginResult(c.ID(), uint32(codec.StatusTransientNotAccepted)))
	require.ErrorIs(t, err, lifecycle.ErrTransient)
	assert.False(t, c.State().Resumable, "58: nothing was committed")
	third, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	require.NoError(t, err)
	assert.Equal(t, bytes.Repeat([]byte{0xa1}, 32), secretOf(third), "a new client id, a new secret")

	// crypto/rand: two clients, two secrets
	a, b := new0111Client(t, nil), new0111Client(t, nil)
	fa, err := a.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	require.NoError(t, err)
	fb, err := b.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	require.NoError(t, err)
	assert.False(t, bytes.Equal(secretOf(fa), secretOf(fb)))
}

// TestClientBindSecretNeverPrinted prints a Client holding a bind secret,
// its state, and the errors of every bind answer, in every form, and finds
// the secret in none.
func TestClientBindSecretNeverPrinted(t *testing.T) {
	secret := []byte("hunter2-bind-secret-32-bytes-ok!")
	require.Len(t, secret, 32)
	rnd := bytes.NewReader(append(bytes.Repeat([]byte{7}, 16), secret...))
	// The source is a func, which prints as an address: what is printed
	// of the Client is then the Client's own, not the test reader's.
	c, err := lifecycle.NewClient(lifecycle.ClientConfig{SDKName: "go-sdk", SDKVersion: "0.1.0", Protocol: v0111,
		Rand: readerFunc(rnd.Read)})
	require.NoError(t, err)
	_, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
	require.NoError(t, err)
	_, err = c.Receive(loginReplyAs(t, c.ID(), 5))
	require.NoError(t, err)
	req, err := c.BindSession(nil)
	require.NoError(t, err)
	require.True(t, bytes.Contains(req, secret), "the secret travels in the body")
	m := leakcheck.NewMatcher(secret)
	values := map[string]any{"client": c, "*client": *c, "state": c.State(),
		"refused": &lifecycle.BindRefusedError{Status: codec.StatusUnauthenticated},
		"again":   lifecycle.ErrLoginAgain, "hidden client": leakcheck.Hide(c)}
	for name, v := range values {
		for form, text := range leakcheck.PrintForms(v) {
			if f := m.Find(text); f != "" {
				t.Errorf("%s printed with %s shows the secret as %q", name, form, f)
			}
		}
	}
	assert.Equal(t, fmt.Sprint(c), c.String())
	assert.Contains(t, c.String(), "resumable true")
}

// readerFunc is an io.Reader made of a function.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// TestClientBindSessionZeroWaits: transient answers (57, 58) to binds of
// session 0 keep the logical session up to MaxSessionZeroWaits in a row,
// replays included; the last gives it up (a *BindRefusedError, nothing to
// replay), so that a Client whose login the server never saw or forgot
// (upstream answers 58 for ever) does not bind for ever. A bind that names
// its session, and a bind that succeeded, are not counted.
func TestClientBindSessionZeroWaits(t *testing.T) {
	answer := func(t *testing.T, c *lifecycle.Client, req []byte, status codec.Status) error {
		t.Helper()
		h, err := codec.DecodeRequestHeader(req)
		require.NoError(t, err)
		_, err = c.Receive(refReply(c.ID(), h.Request, byte(codec.OperationNonReplicated), uint32(status)))
		return err
	}
	t.Run("session 0 gives up", func(t *testing.T) {
		c := new0111Client(t, nil)
		_, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy"))) // its reply is lost
		require.NoError(t, err)
		statuses := []codec.Status{codec.StatusTransientNotAccepted, codec.StatusTransientNotCommitted, codec.StatusTransientNotAccepted}
		require.Equal(t, lifecycle.MaxSessionZeroWaits, len(statuses))
		req, err := c.BindSession(nil)
		require.NoError(t, err)
		for i, status := range statuses {
			err = answer(t, c, req, status)
			if i < len(statuses)-1 {
				var te *lifecycle.TransientError
				require.ErrorAs(t, err, &te, "answer %d", i+1)
				assert.True(t, c.State().Resumable, "answer %d: the identity is kept", i+1)
				if i == 0 {
					require.NoError(t, c.Replay(), "a replay counts too")
				} else {
					req, err = c.BindSession(nil)
					require.NoError(t, err)
				}
				continue
			}
			var be *lifecycle.BindRefusedError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, status, be.Status)
			require.ErrorIs(t, err, lifecycle.ErrLoginAgain)
			require.ErrorIs(t, err, status.Err())
		}
		st := c.State()
		assert.False(t, st.Resumable || st.Replay || st.Pending || st.Closed, "log in again: %+v", st)
		require.ErrorIs(t, c.Replay(), lifecycle.ErrNoReplay)
		_, err = c.BindSession(nil)
		require.ErrorIs(t, err, lifecycle.ErrLoginAgain)
		// A new login counts afresh.
		_, err = c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		require.NoError(t, err)
		req, err = c.BindSession(nil)
		require.NoError(t, err)
		var te *lifecycle.TransientError
		require.ErrorAs(t, answer(t, c, req, codec.StatusTransientNotAccepted), &te)
		assert.True(t, c.State().Resumable)
	})
	t.Run("a named session waits on", func(t *testing.T) {
		srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
		c := new0111Client(t, nil)
		req, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		_, err = exchange(t, c, srv.NewConn(), req, err)
		require.NoError(t, err)
		for i := 0; i < 2*lifecycle.MaxSessionZeroWaits; i++ {
			req, err := c.BindSession(nil)
			require.NoError(t, err)
			var te *lifecycle.TransientError
			require.ErrorAs(t, answer(t, c, req, codec.StatusTransientNotAccepted), &te)
			assert.True(t, c.State().Resumable, "answer %d", i+1)
		}
		req, err = c.BindSession(nil)
		_, err = exchange(t, c, srv.NewConn(), req, err)
		require.NoError(t, err)
	})
	t.Run("success resets", func(t *testing.T) {
		srv := newServerWith(t, func(c *lifecycle.Config) { c.Window = window0111 })
		c := new0111Client(t, nil)
		req, err := c.Login(nil, []byte("iggy"), codec.NewSecret([]byte("iggy")))
		require.NoError(t, err)
		_, _, err = srv.NewConn().Handle(req, nil) // logged in; the reply is lost
		require.NoError(t, err)
		for i := 0; i < lifecycle.MaxSessionZeroWaits-1; i++ {
			req, err := c.BindSession(nil)
			require.NoError(t, err)
			var te *lifecycle.TransientError
			require.ErrorAs(t, answer(t, c, req, codec.StatusTransientNotAccepted), &te)
		}
		req, err = c.BindSession(nil)
		_, err = exchange(t, c, srv.NewConn(), req, err)
		require.NoError(t, err, "the session-0 bind that succeeds")
		assert.NotZero(t, c.Session())
		assert.True(t, c.State().Resumable)
	})
}
