package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

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

// maxSecrets bounds the secrets a run learns: a client sending endless
// distinct passwords still has each hidden where the login layout puts it.
const maxSecrets = 1024

// learn adds the secrets of a frame whose body reads as a login to the
// known secrets, so that they are hidden wherever they appear later: the
// password or token, read in the layout the body's version selects
// (WIRE.md section 10.1), and a 0.11.1 login's or BIND_SESSION's bind
// secret.
func (r *redactor) learn(frame []byte) {
	if len(frame) <= codec.HeaderSize {
		return
	}
	body := frame[codec.HeaderSize:]
	rev := codec.RevisionBase
	if info, _, err := codec.DecodeClientVersionInfo(body); err == nil {
		rev = codec.RevisionOf(info.Protocol)
	}
	if l, _, err := codec.DecodeLoginRegisterRev(body, rev); err == nil {
		r.add(l.Password.Bytes())
		r.add(l.BindSecret.Bytes())
	}
	if t, _, err := codec.DecodeLoginRegisterPATRev(body, rev); err == nil {
		r.add(t.Token.Bytes())
		r.add(t.BindSecret.Bytes())
	}
	if h, err := codec.DecodeRequestHeader(frame); err == nil && h.Operation == codec.OperationNonReplicated &&
		h.Code == codec.CodeBindSession {
		if b, _, err := codec.DecodeBindSession(body); err == nil {
			r.add(b.BindSecret.Bytes())
		}
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

// markAll marks every occurrence of secret s in b, however short s is:
// a secret of one or two bytes is still a secret, and bytes hidden that
// were not one cost only hex.
func markAll(b, s []byte, hide []bool) {
	if len(s) == 0 {
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

// A login shape's steps: what places its secrets (WIRE.md sections 2, 3
// and 10).
type step uint8

const (
	stepInfo     step = iota // protocol u32, then sdk_name and sdk_version (u8 length, bytes)
	stepName                 // username: u8 length, bytes
	stepSecret8              // password or token: u8 length, bytes
	stepSecret32             // a bind secret: 32 bytes
	stepSkip32               // BIND_SESSION's client_id, session and watermark
)

// loginShapes are the bodies that hold a secret: both login bodies of
// 0.11.0, then both of 0.11.1 (a bind secret after the ClientVersionInfo)
// and BIND_SESSION.
var loginShapes = [][]step{
	{stepInfo, stepName, stepSecret8},
	{stepInfo, stepSecret8},
	{stepInfo, stepSecret32, stepName, stepSecret8},
	{stepInfo, stepSecret32, stepSecret8},
	{stepInfo, stepSkip32, stepSecret32},
}

// markLoginSecret hides the secrets of a frame's body: where the length
// fields of each login shape put a password, a token or a bind secret,
// read from the lengths alone, whether or not the body decodes, whatever
// the header says (a client may send a login body under a broken header,
// or cut it short: a secret cut by the end runs to the end). A username
// is hidden too unless it is a name the kit gave a case: a token body
// whose context breaks the token shape still reads as a password login
// with the token as its username, so a username is not taken for a name
// on its own say.
func markLoginSecret(frame []byte, hide []bool) {
	if len(frame) <= codec.HeaderSize {
		return
	}
	body := frame[codec.HeaderSize:]
	mark := func(start, end int) {
		for k := max(start, 0); k < end && codec.HeaderSize+k < len(hide); k++ {
			hide[codec.HeaderSize+k] = true
		}
	}
	shapes := loginShapes
	if len(body) >= 4 && codec.Version(binary.LittleEndian.Uint32(body)) == codec.Protocol0110 {
		// The version selects the layout (WIRE.md section 10.1): a
		// 0.11.0 body has no bind secret, and 0.11.1's shapes would hide
		// every byte after its ClientVersionInfo.
		shapes = loginShapes[:2]
	}
	for _, shape := range shapes {
		p := 0
	walk:
		for _, st := range shape {
			if p >= len(body) {
				break
			}
			switch st {
			case stepInfo:
				p = cviEnd(body)
			case stepName:
				end := field(body, p)
				if !caseName(body[p+1 : end]) {
					mark(p+1, end)
				}
				p = end
			case stepSecret8:
				end := field(body, p)
				// A token shape's token is where the password shape has
				// its username: a case's name there is that name.
				if !slices.Contains(shape, stepName) && caseName(body[p+1:end]) {
					p = end
					break
				}
				mark(p+1, end)
				p = end
			case stepSecret32:
				mark(p, p+codec.BindSecretLen)
				p += codec.BindSecretLen
			case stepSkip32:
				p += 32
			}
			if p < 0 {
				break walk
			}
		}
	}
}

// caseName reports whether b is a name the kit gives a case or a run
// (WIRE.md is silent on names; ids.json's s1, c2, v300 and the name that
// finishes a run), the one kind of username a report shows.
func caseName(b []byte) bool {
	if string(b) == finishName {
		return true
	}
	if len(b) < 2 || len(b) > 8 || !bytes.ContainsRune([]byte("scv"), rune(b[0])) {
		return false
	}
	for _, c := range b[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
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

// hideInText replaces every secret the run knows (configured, or decoded
// from a login) with "**" in a text a driver posted, which the reports
// print: an SDK's error text may quote what it was given. Every secret is
// hidden here, however short, since a text has no layout to find it by;
// and in the forms the kit records a text in (canonSurfaced: control
// characters as spaces, invalid UTF-8 replaced), including a secret cut
// where the text was cut to its limit, whose kept part is hidden.
func (r *redactor) hideInText(s string) string {
	if r == nil || s == "" {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	body, more := s, ""
	if i := strings.LastIndex(s, "...("); i >= 0 && strings.HasSuffix(s, " more bytes)") {
		body, more = s[:i], s[i:]
	}
	for _, secret := range r.secrets {
		for _, form := range []string{string(secret), canonText(string(secret))} {
			body = strings.ReplaceAll(body, form, "**")
			if more == "" {
				continue
			}
			// A secret cut by the limit: its kept part ends the text.
			for n := len(form) - 1; n > 0; n-- {
				if strings.HasSuffix(body, form[:n]) {
					body = body[:len(body)-n] + "**"
					break
				}
			}
		}
	}
	return body + more
}

// canonText is a text as canonSurfaced keeps it, before its cut: invalid
// UTF-8 replaced, control characters as spaces.
func canonText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
}
