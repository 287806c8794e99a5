package main

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"sync"

	"github.com/iggywire/iggywire/codec"
)

// hexLimit bounds the bytes of one frame shown in a report.
const hexLimit = 4096

// redactor turns frames into report hex with every secret hidden: the
// password or token field of any body that reads as a login (WIRE.md
// sections 2 and 3), whatever its header says, and any occurrence of a
// known secret anywhere: the configured ones and every password and token
// the kit decoded from a client during the run.
type redactor struct {
	mu      sync.Mutex
	secrets [][]byte // the configured and learned passwords and tokens
}

// minScan is the shortest configured secret searched for anywhere in a
// frame; shorter ones are hidden where the login layout puts them.
const minScan = 3

// maxSecrets bounds the secrets a run learns: a client sending endless
// distinct passwords still has each hidden where the login layout puts it.
const maxSecrets = 1024

// learn adds the password or token of a frame whose body reads as a login
// to the known secrets, so that it is hidden wherever it appears later.
func (r *redactor) learn(frame []byte) {
	if len(frame) <= codec.HeaderSize {
		return
	}
	body := frame[codec.HeaderSize:]
	if l, _, err := codec.DecodeLoginRegister(body); err == nil {
		r.add(l.Password.Bytes())
	}
	if t, _, err := codec.DecodeLoginRegisterPAT(body); err == nil {
		r.add(t.Token.Bytes())
	}
}

// add makes s a known secret, once.
func (r *redactor) add(s []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(s) == 0 || len(r.secrets) >= maxSecrets {
		return
	}
	for _, k := range r.secrets {
		if bytes.Equal(k, s) {
			return
		}
	}
	r.secrets = append(r.secrets, bytes.Clone(s))
}

// hex renders b with each secret byte as "**".
func (r *redactor) hex(b []byte) string { return r.hexOf(b, len(b)) }

// hexOf renders the kept bytes b of a frame of size bytes (b is its
// first bytes, at least hexLimit of them when the frame is longer), each
// secret byte as "**".
func (r *redactor) hexOf(b []byte, size int) string {
	hide := make([]bool, len(b))
	markLoginSecret(b, hide)
	r.mu.Lock()
	for _, s := range r.secrets {
		markAll(b, s, hide)
	}
	r.mu.Unlock()
	n := min(len(b), hexLimit)
	var out strings.Builder
	out.Grow(2*n + 32)
	for i := range n {
		if hide[i] {
			out.WriteString("**")
			continue
		}
		out.WriteString(hex.EncodeToString(b[i : i+1]))
	}
	if size > n {
		out.WriteString("...(" + strconv.Itoa(size-n) + " more bytes)")
	}
	return out.String()
}

// markAll marks every occurrence of secret s in b.
func markAll(b, s []byte, hide []bool) {
	if len(s) < minScan {
		return
	}
	for at := 0; ; {
		i := bytes.Index(b[at:], s)
		if i < 0 {
			return
		}
		for k := at + i; k < at+i+len(s); k++ {
			hide[k] = true
		}
		at += i + 1
	}
}

// markLoginSecret marks the credential of a frame's body: the password
// when the body reads as a LOGIN_REGISTER, the token when it reads as a
// LOGIN_REGISTER_PAT (both when it reads as either), whatever the header
// says, since a client may send a login body under a broken header. A
// Register request whose body reads as neither has the first and second
// length-prefixed fields after the ClientVersionInfo hidden (a token, or
// what might be one).
func markLoginSecret(frame []byte, hide []bool) {
	if len(frame) <= codec.HeaderSize {
		return
	}
	body := frame[codec.HeaderSize:]
	mark := func(start, end int) {
		for k := start; k < end && codec.HeaderSize+k < len(hide); k++ {
			hide[codec.HeaderSize+k] = true
		}
	}
	decoded := false
	if l, _, err := codec.DecodeLoginRegister(body); err == nil {
		p := l.Info.EncodedLen() + 1 + len(l.Username)
		mark(p+1, p+1+l.Password.Len())
		decoded = true
	}
	if t, _, err := codec.DecodeLoginRegisterPAT(body); err == nil {
		p := t.Info.EncodedLen()
		mark(p+1, p+1+t.Token.Len())
		decoded = true
	}
	if decoded || frame[60] != byte(codec.CommandRequest) || frame[176] != byte(codec.OperationRegister) {
		return
	}
	_, p, err := codec.DecodeClientVersionInfo(body)
	if err != nil {
		p = cviEnd(body)
	}
	first, second := field(body, p), -1
	if first >= 0 {
		second = field(body, first)
		mark(p+1, first)
	}
	if second >= 0 {
		mark(first+1, second)
	}
}

// cviEnd finds where a ClientVersionInfo ends by its lengths alone, for a
// body whose prefix does not decode (a text that is not UTF-8, say).
func cviEnd(body []byte) int {
	p := 4
	for range 2 {
		if p >= len(body) {
			return len(body)
		}
		p += 1 + int(body[p])
	}
	return min(p, len(body))
}

// field returns the end of the u8-length-prefixed field at p, clipped to
// body, or -1 when there is none.
func field(body []byte, p int) int {
	if p < 0 || p >= len(body) {
		return -1
	}
	return min(p+1+int(body[p]), len(body))
}
