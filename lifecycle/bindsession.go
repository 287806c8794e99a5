package lifecycle

import (
	"github.com/iggywire/iggywire/codec"
)

// bindSession answers BIND_SESSION (code 15, WIRE.md section 10.4), before
// or after login, with a Reply and never an eviction, in this order:
//
//	a. the ClientVersionInfo prefix does not decode => status 3;
//	b. its version is outside the window => status 14003;
//	c. its version selects a revision without a bind secret => status 3;
//	d. the rest of the body does not decode => status 3 (a prefix decode,
//	   as the reference's: bytes after the secret are ignored);
//	e. no logical session of the body's client id => 40, session 0
//	   included: a login here is decided synchronously, so an unknown
//	   client id cannot become known by waiting;
//	f. that session ended (a logout, or an eviction of a connection bound
//	   to it), or the secret does not match => 40;
//	g. a non-zero session that is not the logical session's => 14001;
//	h. the Admit hook refuses => 40;
//	i. success: status 0, body the bare login reply (user, session, the
//	   window's max, server version); the connection is logged in as that
//	   logical session, replacing any binding it had. A refusal leaves the
//	   binding as it was.
//
// The header's session and request number are not looked at, as the
// reference does not; the reply echoes them like every reply.
func (c *Conn) bindSession(out []byte, h *codec.RequestHeader, body []byte, o *Outcome) ([]byte, error) {
	o.Login.Bind = true
	info, _, err := codec.DecodeClientVersionInfo(body)
	switch {
	case err != nil:
		return c.refuseBind(out, h, codec.StatusInvalidCommand, o)
	case !c.srv.window.Accepts(info.Protocol):
		return c.refuseBind(out, h, codec.StatusIncompatibleProtocolVersion, o)
	case codec.RevisionOf(info.Protocol) != codec.RevisionBindSecret:
		return c.refuseBind(out, h, codec.StatusInvalidCommand, o)
	}
	b, _, err := codec.DecodeBindSession(body)
	if err != nil {
		return c.refuseBind(out, h, codec.StatusInvalidCommand, o)
	}
	userID, session, live, status := c.srv.logical().bind(b.ClientID, b.Session, b.BindSecret)
	if status == codec.StatusOK && c.admitted(userID) != 0 {
		status = codec.StatusUnauthenticated
	}
	if status != codec.StatusOK {
		return c.refuseBind(out, h, status, o)
	}
	out, err = codec.AppendBindReplyFrame(out, codec.ReplyHeader{
		RequestChecksum: h.RequestChecksum,
		Client:          h.Client,
		Request:         h.Request,
		Operation:       h.Operation,
	}, codec.LoginReply{
		UserID:         userID,
		Session:        session,
		ServerProtocol: c.srv.window.Max,
		ServerVersion:  c.srv.version,
	})
	if err != nil {
		return out, err
	}
	c.bound, c.client, c.session, c.userID, c.live = true, b.ClientID, session, userID, live
	o.Answer, o.Status = AnswerReply, codec.StatusOK
	o.Login.OK, o.Login.UserID, o.Login.Session = true, userID, session
	return out, nil
}

// refuseBind answers a BIND_SESSION with status, and records it in o.
func (c *Conn) refuseBind(out []byte, h *codec.RequestHeader, status codec.Status, o *Outcome) ([]byte, error) {
	o.Login.Result = status
	return reply(out, h, status, nil, o)
}
