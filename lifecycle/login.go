package lifecycle

import (
	"errors"

	"github.com/iggywire/iggywire/codec"
)

// login decides a Register request exactly in the reference server's order
// (WIRE.md section 7, point 1):
//
//	a. the ClientVersionInfo prefix does not decode => eviction 15;
//	b. the version is outside the window => eviction 14 with the window;
//	   from here on the body is read in the layout its version selects
//	   (codec.RevisionOf: 0.11.1 on carries a bind secret, WIRE.md
//	   section 10.1);
//	c. the body decodes as LOGIN_REGISTER => check the password; success
//	   logs in, any failure is remembered;
//	d. the body decodes as LOGIN_REGISTER_WITH_PAT => check the token;
//	   success logs in, inactive user => 11, any other failure => 10;
//	e. otherwise 9 if c rejected a password, else 15.
//
// All decodes are prefix decodes, as the reference's: bytes after the last
// field are ignored. So a password body with an empty password and no
// context also decodes as a token body (the username becomes the token),
// and a wrong empty password is answered 10, not 9.
//
// "Success logs in" is the reference's rule; a login whose client id holds
// another user's logical session is refused with eviction 12 (WIRE.md
// section 10.6), and a ConnConfig.Admit hook may still refuse a login that
// passed, with the eviction it names (a quota).
func (c *Conn) login(out []byte, h *codec.RequestHeader, body []byte, o *Outcome) ([]byte, error) {
	info, _, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonMalformedLogin), o)
	}
	if !c.srv.window.Accepts(info.Protocol) {
		return c.evict(out, codec.NewIncompatibleProtocolEviction(h.Client, c.srv.window), o)
	}
	rev := codec.RevisionOf(info.Protocol)
	passwordFailed := false
	if l, _, err := codec.DecodeLoginRegisterRev(body, rev); err == nil {
		userID, err := c.check(Attempt{Username: l.Username}, o, func() (uint32, error) {
			return c.srv.auth.Password(l.Username, l.Password)
		})
		if err == nil {
			out, err := c.bind(out, h, userID, l.BindSecret, o)
			if err == nil && o.Login.OK {
				// Only now are the bytes an account's name. A body that
				// parses as a password login may be a token body whose
				// context broke the token shape: its "username" is the
				// token, so a login that did not bind names nobody.
				// A copy in the Conn, not the frame's bytes: the Outcome
				// outlives the call, and must not keep a large frame's
				// buffer alive.
				u := append(c.username[:0], l.Username...)
				o.Login.Username = u[:len(u):len(u)]
			}
			return out, err
		}
		passwordFailed = true
	}
	if l, _, err := codec.DecodeLoginRegisterPATRev(body, rev); err == nil {
		o.Login.PAT, o.Login.Username = true, nil
		userID, err := c.check(Attempt{PAT: true}, o, func() (uint32, error) { return c.srv.auth.Token(l.Token) })
		switch {
		case err == nil:
			return c.bind(out, h, userID, l.BindSecret, o)
		case errors.Is(err, ErrUserInactive):
			return c.evict(out, codec.NewEviction(h.Client, codec.ReasonUserInactive), o)
		}
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonInvalidToken), o)
	}
	if passwordFailed {
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonInvalidCredentials), o)
	}
	return c.evict(out, codec.NewEviction(h.Client, codec.ReasonMalformedLogin), o)
}

// check runs one credential check behind the connection's Guard. A
// refused check fails as a wrong credential does and marks o throttled.
func (c *Conn) check(a Attempt, o *Outcome, run func() (uint32, error)) (uint32, error) {
	if c.guard == nil {
		return run()
	}
	if !c.guard.Allow(a) {
		o.Login.Throttled = true
		if a.PAT {
			return 0, ErrInvalidToken
		}
		return 0, ErrInvalidCredentials
	}
	userID, err := run()
	c.guard.Checked(a, err == nil)
	return userID, err
}

// bind logs the connection in with a fresh session and appends the login
// reply: a Reply (operation Register, request 0, status 0, op and commit set
// to the session, which stands for the login's commit number) whose body is
// an empty result section followed by the login reply. A login on a
// logged-in connection replaces the binding. A login that carried a bind
// secret (0.11.1) also creates the logical session BIND_SESSION resumes,
// keyed by its client id, with a verifier of the secret (WIRE.md section
// 10.6); the secret itself is not kept.
func (c *Conn) bind(out []byte, h *codec.RequestHeader, userID uint32, secret codec.Secret, o *Outcome) ([]byte, error) {
	// A client id that holds another user's logical session is not this
	// login's to take, whatever its revision: taking it would end that
	// session unseen (upstream: ClientIdOwnedByAnotherUser, a terminal
	// refusal sent as eviction 12, WIRE.md section 10.6). Asked before the
	// Admit hook, which counts the login as a session.
	if c.srv.logical().owned(h.Client, userID) {
		o.Login.UserID = userID
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonSessionError), o)
	}
	if reason := c.admitted(userID); reason != 0 {
		o.Login.UserID = userID
		return c.evict(out, codec.NewEviction(h.Client, reason), o)
	}
	session := c.srv.nextSession()
	var live *liveSession
	if !secret.IsZero() {
		// Recorded before the reply is written, as a login is committed
		// before it is answered: a reply that cannot be written is then a
		// lost reply, and a bind of session 0 finds the session.
		var ok bool
		if live, ok = c.srv.logical().put(h.Client, userID, session, secret); !ok {
			o.Login.UserID = userID // another user's login took the id since owned
			return c.evict(out, codec.NewEviction(h.Client, codec.ReasonSessionError), o)
		}
	}
	out, err := codec.AppendLoginReplyFrame(out, codec.ReplyHeader{
		RequestChecksum: h.RequestChecksum,
		Client:          h.Client,
		Op:              session,
		Commit:          session,
		Operation:       codec.OperationRegister,
	}, codec.LoginReply{
		UserID:         userID,
		Session:        session,
		ServerProtocol: c.srv.window.Max,
		ServerVersion:  c.srv.version,
	})
	if err != nil {
		return out, err
	}
	c.bound, c.client, c.session, c.userID, c.live = true, h.Client, session, userID, live
	o.Answer, o.Status = AnswerReply, codec.StatusOK
	o.Login.OK, o.Login.UserID, o.Login.Session = true, userID, session
	o.Login.Reason = 0
	return out, nil
}

// admitted asks the Admit hook about a login of userID that passed its
// check: 0 lets it bind, else the reason to evict with, never 14 (whose
// window the hook does not give) nor a value that is not a reason.
func (c *Conn) admitted(userID uint32) codec.EvictionReason {
	if c.admit == nil {
		return 0
	}
	r := c.admit(userID)
	if r != 0 && (r == codec.ReasonIncompatibleProtocol || r > codec.ReasonMalformedLogin) {
		r = codec.ReasonSessionError
	}
	return r
}
