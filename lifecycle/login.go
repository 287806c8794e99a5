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
func (c *Conn) login(out []byte, h *codec.RequestHeader, body []byte) ([]byte, error) {
	info, _, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonMalformedLogin))
	}
	if !c.srv.window.Accepts(info.Protocol) {
		return c.evict(out, codec.NewIncompatibleProtocol(h.Client, c.srv.window))
	}
	passwordFailed := false
	if l, _, err := codec.DecodeLoginRegister(body); err == nil {
		userID, err := c.authenticator().Password(l.Username, l.Password)
		if err == nil {
			return c.bind(out, h, userID)
		}
		passwordFailed = true
	}
	if l, _, err := codec.DecodeLoginRegisterPAT(body); err == nil {
		userID, err := c.authenticator().Token(l.Token)
		switch {
		case err == nil:
			return c.bind(out, h, userID)
		case errors.Is(err, ErrUserInactive):
			return c.evict(out, codec.NewEviction(h.Client, codec.ReasonUserInactive))
		}
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonInvalidToken))
	}
	if passwordFailed {
		return c.evict(out, codec.NewEviction(h.Client, codec.ReasonInvalidCredentials))
	}
	return c.evict(out, codec.NewEviction(h.Client, codec.ReasonMalformedLogin))
}

// bind logs the connection in with a fresh session and appends the login
// reply: a Reply (operation Register, request 0, status 0, op and commit set
// to the session, which stands for the login's commit number) whose body is
// an empty result section followed by the login reply. A login on a
// logged-in connection replaces the binding.
func (c *Conn) bind(out []byte, h *codec.RequestHeader, userID uint32) ([]byte, error) {
	session := c.srv.nextSession()
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
	c.bound, c.client, c.session, c.userID = true, h.Client, session, userID
	return out, nil
}
