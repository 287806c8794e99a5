package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
)

// freeTable holds the free fields the vectors give an answer, by the
// answer's shape (answerShape).
type freeTable map[string][]freeField

// newFreeTable gathers the free fields of every answered lifecycle step.
func newFreeTable(cases []vectorCase) freeTable {
	t := freeTable{}
	for _, c := range cases {
		for _, s := range c.Steps {
			out := unhex(s.Out)
			if k := answerShape(out); k != "" && t[k] == nil && s.Free != nil {
				t[k] = s.Free
			}
		}
	}
	return t
}

// answerShape names the kind of an answer whose free fields are the same:
// a login reply, any other Reply, an eviction of each reason.
func answerShape(f []byte) string {
	if len(f) < codec.HeaderSize {
		return ""
	}
	switch codec.Command(f[60]) {
	case codec.CommandReply:
		if _, ok := loginReply(f); ok {
			return "reply/login"
		}
		return "reply"
	case codec.CommandEviction:
		return fmt.Sprintf("eviction/%d", f[255])
	}
	return fmt.Sprintf("command/%d", f[60])
}

// freeFor is the free fields of the answer want to frame k of step s: the
// vector step's, when the vector's answer has want's shape, else those the
// vectors give any answer of that shape.
func freeFor(t freeTable, s clientStep, k int, want []byte) []freeField {
	if k < len(s.vec) && s.vec[k] != nil && answerShape(unhex(s.vec[k].Out)) == answerShape(want) {
		return s.vec[k].Free
	}
	return t[answerShape(want)]
}

// headerFields name the bytes of a Reply and an Eviction header, to say
// where an answer differs.
var (
	prologueFields = []freeField{{"checksum", 0, 16, ""}, {"checksum_body", 16, 16, ""}, {"cluster", 32, 16, ""}, {"size", 48, 4, ""},
		{"view", 52, 4, ""}, {"release", 56, 4, ""}, {"command", 60, 1, ""}, {"replica", 61, 1, ""}, {"reserved_frame", 62, 66, ""}}
	replyFields = []freeField{{"request_checksum", 128, 16, ""}, {"context", 144, 16, ""}, {"client", 160, 16, ""},
		{"op", 176, 8, ""}, {"commit", 184, 8, ""}, {"timestamp", 192, 8, ""}, {"request", 200, 8, ""},
		{"operation", 208, 1, ""}, {"operation_padding", 209, 7, ""}, {"status", 216, 4, ""}, {"reserved", 220, 36, ""}}
	evictionFields = []freeField{{"client", 128, 16, ""}, {"server_protocol_version", 144, 4, ""},
		{"server_protocol_version_min", 148, 4, ""}, {"reserved", 152, 103, ""}, {"reason", 255, 1, ""}}
)

// compare checks got against the model's want, field by field: equal
// outside the free fields, each free field true to its rule. A login
// reply's size, user id and server version are the kit's to compare (the
// server's accounts and version are not the vectors'): compareBody does.
func (r *caseRec) compare(want, got []byte, free []freeField) string {
	if len(got) < codec.HeaderSize || got[60] != want[60] {
		return "want " + describeFrame(want) + ", got " + describeFrame(got)
	}
	var diffs []string
	g, w := bytes.Clone(got[:codec.HeaderSize]), bytes.Clone(want[:codec.HeaderSize])
	for _, f := range free {
		if f.Offset < 0 || f.Offset+f.Length > codec.HeaderSize {
			continue // a body field: compareBody
		}
		switch f.Rule {
		case freeAny:
		case freeNonZero:
			// The vectors allow any non-zero id (the reference's own, on
			// evictions 1 and 13); the kit holds a server to the request's
			// unless -evict-own-id says it puts its own.
			if !r.p.opts.EvictOwnID {
				continue
			}
			if isZeroBytes(g[f.Offset : f.Offset+f.Length]) {
				diffs = append(diffs, fmt.Sprintf("%s at %d: zero", f.Field, f.Offset))
			}
		default:
			diffs = append(diffs, fmt.Sprintf("%s at %d: the vectors' rule %q is unknown to the kit", f.Field, f.Offset, f.Rule))
		}
		clear(g[f.Offset : f.Offset+f.Length])
		clear(w[f.Offset : f.Offset+f.Length])
	}
	_, login := loginReply(want)
	_, bind := bindReply(want)
	if login || bind {
		clear(g[48:52])
		clear(w[48:52])
	}
	fields := append(append([]freeField(nil), prologueFields...), replyFields...)
	if want[60] == byte(codec.CommandEviction) {
		fields = append(prologueFields[:len(prologueFields):len(prologueFields)], evictionFields...)
	}
	for _, f := range fields {
		if a, b := w[f.Offset:f.Offset+f.Length], g[f.Offset:f.Offset+f.Length]; !bytes.Equal(a, b) {
			diffs = append(diffs, fmt.Sprintf("%s at %d: want %x, got %x", f.Field, f.Offset, a, b))
		}
	}
	if want[60] == byte(codec.CommandReply) {
		diffs = append(diffs, r.compareBody(want, got, free)...)
	}
	if len(diffs) > 0 {
		return fmt.Sprint(diffs)
	}
	return ""
}

// compareBody checks a Reply's body: a login reply by rule (the session by
// the free field's, the user id and version against the server's
// accounts and version), any other byte for byte.
func (r *caseRec) compareBody(want, got []byte, free []freeField) []string {
	wb, gb := want[codec.HeaderSize:], got[codec.HeaderSize:]
	if wl, isBind := bindReply(want); isBind {
		return r.compareBind(wl, got)
	}
	wl, isLogin := loginReply(want)
	if !isLogin {
		if !bytes.Equal(wb, gb) || binary.LittleEndian.Uint32(got[48:]) != uint32(len(got)) {
			return []string{fmt.Sprintf("body: want %x, got %x", wb, gb)}
		}
		return nil
	}
	gl, ok := loginReply(got)
	if !ok {
		return []string{"body: want a login reply (an empty result section, then user_id, session, protocol, version), got " + fmt.Sprintf("%x", gb)}
	}
	var diffs []string
	for _, f := range free {
		if !knownRules[f.Rule] {
			diffs = append(diffs, fmt.Sprintf("%s at %d: the vectors' rule %q is unknown to the kit", f.Field, f.Offset, f.Rule))
		}
		if f.Rule == freeSession && gl.Session <= r.p.sessions {
			diffs = append(diffs, fmt.Sprintf("%s at %d: want one above every session handed out before (%d), got %d", f.Field, f.Offset, r.p.sessions, gl.Session))
		}
	}
	if gl.Session != wl.Session && !hasRule(free, freeSession) {
		diffs = append(diffs, fmt.Sprintf("session: want %d, got %d", wl.Session, gl.Session))
	}
	if id, seen := r.p.userIDs[wl.UserID]; seen && id != gl.UserID {
		diffs = append(diffs, fmt.Sprintf("user_id: the same account logged in as %d before, now %d", id, gl.UserID))
	}
	if gl.ServerProtocol != wl.ServerProtocol {
		diffs = append(diffs, fmt.Sprintf("server_protocol_version: want %s (the window's max), got %s", wl.ServerProtocol, gl.ServerProtocol))
	}
	if v := gl.ServerVersion; len(v) == 0 || !utf8.Valid(v) || r.p.opts.Version != "" && string(v) != r.p.opts.Version {
		diffs = append(diffs, fmt.Sprintf("server_version: want UTF-8 of 1..255 bytes%s, got %q", versionWant(r.p.opts.Version), v))
	}
	if len(diffs) == 0 {
		r.p.sessions = gl.Session
		r.p.userIDs[wl.UserID] = gl.UserID
		r.handed[r.frame] = gl.Session
	}
	return diffs
}

// compareBind checks the answer to a BIND_SESSION that succeeded (WIRE.md
// section 10.4): the login reply alone, whose session must be the one the
// server handed out to the login the model's session comes from (a bind
// resumes a session, it never makes one), with the user id, protocol and
// version held as a login reply's are.
func (r *caseRec) compareBind(wl codec.LoginReply, got []byte) []string {
	gl, ok := bindReply(got)
	if !ok {
		return []string{fmt.Sprintf("body: want a bind reply (the login reply alone: user_id, session, protocol, version), got %x", got[codec.HeaderSize:])}
	}
	var diffs []string
	if at, session, known := r.serverSession(wl.Session); known && gl.Session != session {
		diffs = append(diffs, fmt.Sprintf("session: want %d, the session the login of frame %d got, got %d", session, at+1, gl.Session))
	} else if !known && gl.Session == 0 {
		diffs = append(diffs, "session: want a session the server handed out, got 0")
	}
	if id, seen := r.p.userIDs[wl.UserID]; seen && id != gl.UserID {
		diffs = append(diffs, fmt.Sprintf("user_id: the account logged in as %d, the bind says %d", id, gl.UserID))
	}
	if gl.ServerProtocol != wl.ServerProtocol {
		diffs = append(diffs, fmt.Sprintf("server_protocol_version: want %s (the window's max), got %s", wl.ServerProtocol, gl.ServerProtocol))
	}
	if v := gl.ServerVersion; len(v) == 0 || !utf8.Valid(v) || r.p.opts.Version != "" && string(v) != r.p.opts.Version {
		diffs = append(diffs, fmt.Sprintf("server_version: want UTF-8 of 1..255 bytes%s, got %q", versionWant(r.p.opts.Version), v))
	}
	return diffs
}

// serverSession finds the login whose model session is model and returns
// its frame and the session the server handed out to it.
func (r *caseRec) serverSession(model uint64) (frame int, session uint64, ok bool) {
	for at, m := range r.modelHanded {
		if s, handed := r.handed[at]; m == model && handed {
			return at, s, true
		}
	}
	return 0, 0, false
}

// bindReply reads the answer to a BIND_SESSION that succeeded: a Reply
// with operation NonReplicated, status 0, and a body that is exactly a
// login reply, with no result section (WIRE.md section 10.4). No other
// NonReplicated reply of the lifecycle has such a body: a ping's is empty.
func bindReply(f []byte) (codec.LoginReply, bool) {
	if len(f) <= codec.HeaderSize || f[208] != byte(codec.OperationNonReplicated) || binary.LittleEndian.Uint32(f[216:]) != 0 {
		return codec.LoginReply{}, false
	}
	l, err := codec.ParseLoginReply(f[codec.HeaderSize:])
	return l, err == nil
}

func hasRule(free []freeField, rule string) bool {
	for _, f := range free {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

func versionWant(v string) string {
	if v == "" {
		return ""
	}
	return fmt.Sprintf(" equal to %q", v)
}

// loginReply reads a successful login reply frame: operation Register,
// status 0, an empty result section, then the login reply.
func loginReply(f []byte) (codec.LoginReply, bool) {
	if len(f) < codec.HeaderSize || f[208] != byte(codec.OperationRegister) || binary.LittleEndian.Uint32(f[216:]) != 0 {
		return codec.LoginReply{}, false
	}
	body := f[codec.HeaderSize:]
	if len(body) < 4 || !isZeroBytes(body[:4]) {
		return codec.LoginReply{}, false
	}
	l, err := codec.ParseLoginReply(body[4:])
	return l, err == nil
}

func isZeroBytes(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// rewriteCredentials puts the server's accounts in a vector's login: the
// vector server's active or inactive user, its password and its tokens
// become the server's account of the same standing. Names and secrets the
// vector server does not know stay as they are (unless one happens to be
// the server's), and every byte after the credential is kept, so the
// frame tests what the vector tests.
func rewriteCredentials(in []byte, vsrv *vectorServer, a *accounts) []byte {
	if vsrv == nil || len(in) <= codec.HeaderSize || in[60] != byte(codec.CommandRequest) || in[176] != byte(codec.OperationRegister) {
		return in
	}
	size, err := codec.FrameSize(in)
	if err != nil || size != len(in) {
		return in
	}
	body := in[codec.HeaderSize:]
	info, p, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		return in
	}
	// A server reads the body in the layout its version selects (WIRE.md
	// section 10.1): 0.11.1's carries the bind secret before the
	// credential, which is kept as it is.
	rev := codec.RevisionOf(info.Protocol)
	var out []byte
	if l, _, err := codec.DecodeLoginRegisterRev(body, rev); err == nil {
		p += l.BindSecret.Len()
		name, password := mapUser(string(l.Username), l.Password.Bytes(), vsrv, a)
		end := p + 1 + len(l.Username) + 1 + l.Password.Len()
		out = append(append(append(append([]byte{}, body[:p]...), byte(len(name))), name...), byte(len(password)))
		out = append(append(out, password...), body[end:]...)
	} else if t, _, err := codec.DecodeLoginRegisterPATRev(body, rev); err == nil {
		p += t.BindSecret.Len()
		token := mapToken(t.Token.Bytes(), vsrv, a)
		end := p + 1 + t.Token.Len()
		out = append(append(append([]byte{}, body[:p]...), byte(len(token))), token...)
		out = append(out, body[end:]...)
	} else {
		return in
	}
	frame := append(bytes.Clone(in[:codec.HeaderSize]), out...)
	binary.LittleEndian.PutUint32(frame[48:], uint32(len(frame)))
	return frame
}

// mapUser maps a vector username and password.
func mapUser(name string, password []byte, vsrv *vectorServer, a *accounts) ([]byte, []byte) {
	for _, u := range vsrv.Users {
		if u.Name != name {
			continue
		}
		t, ok := a.user(u.Inactive)
		if !ok || len(t.Name) > 255 {
			return []byte(name), password
		}
		if string(password) == u.Password {
			return []byte(t.Name), t.Password.Bytes()
		}
		return []byte(t.Name), notSecret(password, a)
	}
	if _, taken := a.byName(name); taken {
		return append([]byte(name), '~')[:min(len(name)+1, 255)], password
	}
	return []byte(name), notSecret(password, a)
}

// mapToken maps a vector token.
func mapToken(token []byte, vsrv *vectorServer, a *accounts) []byte {
	for _, vt := range vsrv.Tokens {
		if vt.Token != string(token) {
			continue
		}
		for _, u := range vsrv.Users {
			if u.Name == vt.User {
				if t, ok := a.token(u.Inactive); ok {
					return t.Value.Bytes()
				}
			}
		}
	}
	return notSecret(token, a)
}

// notSecret changes a wrong password or unknown token that happens to be
// one of the server's real secrets.
func notSecret(b []byte, a *accounts) []byte {
	for _, s := range a.secrets() {
		if len(b) > 0 && bytes.Equal(s, b) {
			c := bytes.Clone(b)
			c[0] ^= 1
			return c
		}
	}
	return b
}

// byName finds a user of the server.
func (a *accounts) byName(name string) (int, bool) {
	for i, u := range a.users {
		if u.Name == name {
			return i, true
		}
	}
	return 0, false
}
