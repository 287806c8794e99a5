package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
)

// span is a header field the comparison reads.
type span struct {
	name      string
	off, size int
	rule      string // "exact", "any" (the server's to fill), "echo-or-zero"
}

// prologue is every header's first 128 bytes (WIRE.md section 5): nobody
// verifies checksum, cluster, view, release or replica, so a server fills
// them as it likes.
var prologue = []span{
	{"checksum", 0, 16, "any"}, {"checksum_body", 16, 16, "any"}, {"cluster", 32, 16, "any"},
	{"view", 52, 4, "any"}, {"release", 56, 4, "any"}, {"command", 60, 1, "exact"}, {"replica", 61, 1, "any"},
	{"reserved_frame", 62, 66, "exact"},
}

// replySpans and evictionSpans are the rest of each header.
var replySpans = []span{
	{"request_checksum", 128, 16, "echo-or-zero"}, {"context", 144, 16, "any"}, {"client", 160, 16, "exact"},
	{"op", 176, 8, "any"}, {"commit", 184, 8, "any"}, {"timestamp", 192, 8, "any"}, {"request", 200, 8, "exact"},
	{"operation", 208, 1, "exact"}, {"operation_padding", 209, 7, "exact"}, {"status", 216, 4, "exact"}, {"reserved", 220, 36, "exact"},
}

var evictionSpans = []span{
	{"size", 48, 4, "exact"}, {"client", 128, 16, "exact"}, {"server_protocol_version", 144, 4, "exact"},
	{"server_protocol_version_min", 148, 4, "exact"}, {"reserved", 152, 103, "exact"}, {"reason", 255, 1, "exact"},
}

// compare checks got against the model's want, field by field; sent is
// the request. It returns "" or every difference.
func (r *caseRec) compare(sent, want, got []byte) string {
	if len(got) < codec.HeaderSize || got[60] != want[60] {
		return "want " + describeFrame(want) + ", got " + describeFrame(got)
	}
	var diffs []string
	spans := append([]span(nil), prologue...)
	if want[60] == byte(codec.CommandEviction) {
		spans = append(spans, evictionSpans...)
	} else {
		spans = append(spans, replySpans...)
	}
	for _, s := range spans {
		w, g := want[s.off:s.off+s.size], got[s.off:s.off+s.size]
		switch {
		case s.rule == "any":
		case s.rule == "echo-or-zero":
			if !bytes.Equal(g, sent[144:160]) && !isZeroBytes(g) {
				diffs = append(diffs, fmt.Sprintf("%s at %d: want the request's (%x) or zero, got %x", s.name, s.off, sent[144:160], g))
			}
		case s.name == "client" && want[60] == byte(codec.CommandEviction) && r.p.opts.EvictOwnID && (want[255] == 1 || want[255] == 13):
			if isZeroBytes(g) {
				diffs = append(diffs, "client at 128: zero")
			}
		case !bytes.Equal(w, g):
			diffs = append(diffs, fmt.Sprintf("%s at %d: want %x, got %x", s.name, s.off, w, g))
		}
	}
	if want[60] == byte(codec.CommandReply) {
		diffs = append(diffs, r.compareBody(want, got)...)
	}
	if len(diffs) > 0 {
		return fmt.Sprint(diffs)
	}
	return ""
}

// compareBody checks a Reply's body: a login reply by rule (the session
// and user id are the server's), any other byte for byte.
func (r *caseRec) compareBody(want, got []byte) []string {
	wb, gb := want[codec.HeaderSize:], got[codec.HeaderSize:]
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
	if gl.Session <= r.p.sessions {
		diffs = append(diffs, fmt.Sprintf("session: want one above every session handed out before (%d), got %d", r.p.sessions, gl.Session))
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
		r.mapping = append(r.mapping, [2]uint64{wl.Session, gl.Session})
	}
	return diffs
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
	if f[208] != byte(codec.OperationRegister) || binary.LittleEndian.Uint32(f[216:]) != 0 {
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
	_, p, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		return in
	}
	var out []byte
	if l, _, err := codec.DecodeLoginRegister(body); err == nil {
		name, password := mapUser(string(l.Username), l.Password.Bytes(), vsrv, a)
		end := p + 1 + len(l.Username) + 1 + l.Password.Len()
		out = append(append(append(append([]byte{}, body[:p]...), byte(len(name))), name...), byte(len(password)))
		out = append(append(out, password...), body[end:]...)
	} else if t, _, err := codec.DecodeLoginRegisterPAT(body); err == nil {
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
