package main

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/iggywire/iggywire/codec"
)

// Server mode and protocol 0.11.1 (WIRE.md section 10): a client that logs
// in at 0.11.1 carries a bind secret, and one that reconnects may resume
// its logical session on the new connection with BIND_SESSION instead of
// logging in again. The kit answers a bind as a server does (section
// 10.4), except in the cases that script its answer (refuseBinds), and
// holds the client to what it does with the answer: on status 0 it carries
// the session there; on 40 it logs in again, with a new client id and a
// new secret, before any other request.

// logicalSession is what the kit keeps of a 0.11.1 login it answered with
// a good reply: the case, the session, and a keyed hash of the bind secret
// (the kit, like a server, keeps a verifier, never the secret).
type logicalSession struct {
	cr       *caseRun
	session  uint64
	verifier [sha256.Size]byte
	ended    bool // a logout of that session
}

// verifier is the keyed hash of a bind secret for client, under the run's
// key (drawn at the first use).
func (k *kitServer) verifier(client codec.Uint128, secret []byte) [sha256.Size]byte {
	if k.bindKey == nil {
		k.bindKey = make([]byte, 32)
		_, _ = rand.Read(k.bindKey)
	}
	m := hmac.New(sha256.New, k.bindKey)
	var id [16]byte
	binary.LittleEndian.PutUint64(id[:], client.Lo)
	binary.LittleEndian.PutUint64(id[8:], client.Hi)
	m.Write(id[:])
	m.Write(secret)
	var v [sha256.Size]byte
	m.Sum(v[:0])
	return v
}

// bindSecretOf returns the bind secret of a Register frame of protocol
// 0.11.1 (read in its own layout), or nil.
func bindSecretOf(frame []byte) []byte {
	if len(frame) <= codec.HeaderSize {
		return nil
	}
	body := frame[codec.HeaderSize:]
	info, _, err := codec.DecodeClientVersionInfo(body)
	if err != nil || codec.RevisionOf(info.Protocol) != codec.RevisionBindSecret {
		return nil
	}
	if l, _, err := codec.DecodeLoginRegisterRev(body, codec.RevisionBindSecret); err == nil {
		return l.BindSecret.Bytes()
	}
	if t, _, err := codec.DecodeLoginRegisterPATRev(body, codec.RevisionBindSecret); err == nil {
		return t.BindSecret.Bytes()
	}
	return nil
}

// learnRevision makes the credentials and bind secret of a 0.11.1 login
// known secrets of the run, hidden wherever they appear: the redactor reads
// a login in 0.11.0's layout, where a 0.11.1 body's credential is not.
func (k *kitServer) learnRevision(frame []byte) {
	if k.opts.Redact == nil || len(frame) <= codec.HeaderSize {
		return
	}
	body := frame[codec.HeaderSize:]
	info, _, err := codec.DecodeClientVersionInfo(body)
	if err != nil || codec.RevisionOf(info.Protocol) != codec.RevisionBindSecret {
		return
	}
	if l, _, err := codec.DecodeLoginRegisterRev(body, codec.RevisionBindSecret); err == nil {
		k.opts.Redact.add(l.Password.Bytes())
		k.opts.Redact.add(l.BindSecret.Bytes())
	}
	if t, _, err := codec.DecodeLoginRegisterPATRev(body, codec.RevisionBindSecret); err == nil {
		k.opts.Redact.add(t.Token.Bytes())
		k.opts.Redact.add(t.BindSecret.Bytes())
	}
	if b, _, err := codec.DecodeBindSession(body); err == nil {
		k.opts.Redact.add(b.BindSecret.Bytes())
	}
}

// registered records the logical session a good login reply to a 0.11.1
// login made; the kit hides its secret in every report from then on.
// Called under the kit's lock.
func (k *kitServer) registered(cr *caseRun, h *codec.RequestHeader, frame []byte, session uint64) {
	cr.sessions[session] = true
	secret := bindSecretOf(frame)
	if secret == nil {
		return
	}
	if k.opts.Redact != nil {
		k.opts.Redact.add(secret)
	}
	if len(k.logical) >= maxLogical {
		return // a client logging in without end gets nothing more to bind
	}
	k.logical[h.Client] = &logicalSession{cr: cr, session: session, verifier: k.verifier(h.Client, secret)}
}

// maxLogical bounds the logical sessions a run keeps: a full run makes a
// few hundred.
const maxLogical = 1 << 14

// loggedOut ends the logical session of a logout. Called under the lock.
func (k *kitServer) loggedOut(h *codec.RequestHeader) {
	if ls := k.logical[h.Client]; ls != nil && ls.session == h.Session {
		ls.ended = true
	}
}

// bindCase finds the case a BIND_SESSION belongs to, by the client id its
// body names (a connection that binds names no case by login).
func (k *kitServer) bindCase(frame []byte) *caseRun {
	k.mu.Lock()
	defer k.mu.Unlock()
	b, _, err := codec.DecodeBindSession(frame[codec.HeaderSize:])
	if err != nil {
		return nil
	}
	if ls := k.logical[b.ClientID]; ls != nil {
		return ls.cr
	}
	return nil
}

// respondBind answers a BIND_SESSION (WIRE.md section 10.4) under the
// kit's lock.
func (s *session) respondBind(h *codec.RequestHeader, frame []byte) (answer, string, bool, bool) {
	c := s.conn()
	body := frame[codec.HeaderSize:]
	info, _, err := codec.DecodeClientVersionInfo(body)
	if err != nil || codec.RevisionOf(info.Protocol) != codec.RevisionBindSecret {
		return s.refuseBind(codec.StatusInvalidCommand, "BIND_SESSION whose version has no bind secret, or does not decode")
	}
	b, _, err := codec.DecodeBindSession(body)
	if err != nil {
		return s.refuseBind(codec.StatusInvalidCommand, "BIND_SESSION that does not decode")
	}
	ls := s.k.logical[b.ClientID]
	var v [sha256.Size]byte
	if ls != nil {
		v = s.k.verifier(b.ClientID, b.BindSecret.Bytes())
	}
	switch {
	case ls == nil && b.Session == 0:
		return s.refuseBind(codec.StatusTransientNotAccepted, "BIND_SESSION of a client id no 0.11.1 login of the run has")
	case ls == nil:
		return s.refuseBind(codec.StatusUnauthenticated, "BIND_SESSION of a client id no 0.11.1 login of the run has")
	case ls.ended:
		return s.refuseBind(codec.StatusUnauthenticated, "BIND_SESSION of a session logged out")
	case !hmac.Equal(ls.verifier[:], v[:]):
		return s.refuseBind(codec.StatusUnauthenticated, "BIND_SESSION with a wrong secret")
	case ls.cr.c.refuseBinds:
		return s.refuseBind(codec.StatusUnauthenticated, "the case's scripted answer to a bind")
	case b.Session != 0 && b.Session != ls.session:
		return s.refuseBind(codec.StatusInvalidSession, fmt.Sprintf("BIND_SESSION of session %d, not the login's %d", b.Session, ls.session))
	}
	c.bound = ls.session
	f, _ := codec.AppendBindReplyFrame(nil, codec.ReplyHeader{Operation: codec.OperationNonReplicated}, codec.LoginReply{
		UserID: 1, Session: ls.session, ServerProtocol: s.k.protocol(), ServerVersion: []byte("conform"),
	})
	return answer{frame: f, patchClient: true, patchRequest: true}, "bound: session " + uitoa(ls.session), false, false
}

// refuseBind is a bind's refusal. One with 40 is marked, so that the
// verdict holds the client to logging in again (bindRule).
func (s *session) refuseBind(status codec.Status, why string) (answer, string, bool, bool) {
	s.refused = status == codec.StatusUnauthenticated
	return echo(status), fmt.Sprintf("%s: status %d", why, status), false, false
}

// bindRule holds a case's client to WIRE.md section 10.4's rule for a bind
// refused with 40: its next request, on any connection, other than a ping
// or another bind, is a login under a new client id with a new secret. A
// client that sends nothing more has given up, which the rule allows.
// Called under the kit's lock.
func (k *kitServer) bindRule(cr *caseRun) string {
	for _, c := range cr.conns {
		for i, e := range c.events {
			if !e.refusedBind || i == 0 || c.events[i-1].req == nil {
				continue
			}
			b, _, err := codec.DecodeBindSession(c.events[i-1].frame[min(len(c.events[i-1].frame), codec.HeaderSize):])
			if err != nil {
				continue
			}
			next := cr.nextRequestAfter(e.at, c, i)
			switch {
			case next == nil:
			case next.req.Operation != codec.OperationRegister:
				return "after the bind was refused with 40 the client sent " + next.note + ", not a new login (WIRE.md §10.4)"
			case next.req.Client == b.ClientID:
				return "after the bind was refused with 40 the client logged in again under the same client id, not a new one (WIRE.md §10.4): " + next.note
			default:
				if ls := k.logical[b.ClientID]; ls != nil {
					if secret := bindSecretOf(next.frame); secret != nil && k.verifier(b.ClientID, secret) == ls.verifier {
						return "after the bind was refused with 40 the client logged in again with the same bind secret, not a new one (WIRE.md §10.4): " + next.note
					}
				}
			}
		}
	}
	return ""
}

// nextRequestAfter is the case's first request after the event at index i
// of connection c (at time at), on any connection, that is neither a ping
// nor a bind.
func (cr *caseRun) nextRequestAfter(at time.Duration, c *connRun, i int) *event {
	var first *event
	for _, o := range cr.conns {
		for j := range o.events {
			e := &o.events[j]
			if e.req == nil || e.dir != dirClient || o == c && j <= i || o != c && e.at < at {
				continue
			}
			if e.req.Operation == codec.OperationNonReplicated && (e.req.Code == codec.CodePing || e.req.Code == codec.CodeBindSession) {
				continue
			}
			if first == nil || e.at < first.at {
				first = e
			}
			break
		}
	}
	return first
}
