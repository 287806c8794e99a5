package lifecycle

import (
	"crypto/subtle"

	"github.com/iggywire/iggywire/codec"
)

// Authenticator checks login credentials. Implementations must be safe for
// concurrent use, since one Server serves many connections.
//
// Password returns the user id of an active user whose password matches.
// Every failure, whatever its cause, must be ErrInvalidCredentials: the
// answer on the wire is the same for all of them, so a login cannot probe
// which accounts exist. Token returns the user id a personal access token
// belongs to, or ErrInvalidToken (unknown or expired) or ErrUserInactive.
// The arguments alias the request frame and are valid only during the call;
// the password and the token arrive as codec.Secret, which no log line or
// error text can show (read them with Bytes, compare them with Equal).
type Authenticator interface {
	Password(username []byte, password codec.Secret) (userID uint32, err error)
	Token(token codec.Secret) (userID uint32, err error)
}

// User is an account of a StaticAuth.
type User struct {
	ID       uint32       // the user id a login binds
	Name     string       // the username a password login names
	Password codec.Secret // the password, compared in constant time
	Inactive bool         // an inactive user cannot log in
}

// Token is a personal access token of a StaticAuth, naming its user.
type Token struct {
	Value codec.Secret // the token, compared in constant time
	User  string       // the Name of the user it logs in as
}

// StaticAuth is an Authenticator over a fixed list of users and tokens,
// written as a literal; it is meant for tests and the login server command.
// It is safe for concurrent use as long as nobody modifies it, and it
// prints without showing any secret.
//
// The time a check takes does not depend on whether the account or the
// token exists, nor on which one matched, at any number of users: every
// check reads every user (or every token) in full and compares in constant
// time, and selects what matched with masks, not branches. Its cost is
// fixed by the list (the lengths of all the names, passwords and tokens)
// and by the lengths of what the peer sent, which the peer knows already.
// No hash is involved, so a name matches only itself. A name or a token
// given twice matches its first entry, as a lookup would.
type StaticAuth struct {
	Users  []User  // the accounts
	Tokens []Token // the personal access tokens
}

// Password implements Authenticator.
//
// Each user's name and password are compared with the ones given, the
// password whether or not the name matched, so an unknown user costs
// what a known user with a wrong password does.
func (a StaticAuth) Password(username []byte, password codec.Secret) (uint32, error) {
	var nameBuf, passwordBuf [padSize]byte
	name := pad(&nameBuf, username)
	given := pad(&passwordBuf, password.Bytes())
	defer clear(given.buf) // a copy of the password: not left on the stack
	var found, ok int
	var id uint32
	for i := range a.Users {
		u := &a.Users[i]
		first := isZero(diff(u.Name, name)) &^ found
		found |= first
		match := isZero(diff(u.Password.Bytes(), given)) & first & (1 ^ oneIf(u.Inactive))
		ok |= match
		id = selectU32(match, u.ID, id)
	}
	if ok != 1 {
		return 0, ErrInvalidCredentials
	}
	return id, nil
}

// Token implements Authenticator. A token that names no user is
// ErrInvalidToken.
//
// Every token is compared, then every user's name with the user of the
// token that matched (of the first token when none did), so the time does
// not say whether or which token matched.
func (a StaticAuth) Token(token codec.Secret) (uint32, error) {
	var tokenBuf, userBuf [padSize]byte
	given := pad(&tokenBuf, token.Bytes())
	defer clear(given.buf)
	var found, at int
	for i := range a.Tokens {
		first := isZero(diff(a.Tokens[i].Value.Bytes(), given)) &^ found
		found |= first
		at = subtle.ConstantTimeSelect(first, i, at)
	}
	if len(a.Tokens) == 0 {
		return 0, ErrInvalidToken
	}
	owner := pad(&userBuf, a.Tokens[at].User)
	var known, inactive int
	var id uint32
	for i := range a.Users {
		u := &a.Users[i]
		first := isZero(diff(u.Name, owner)) &^ known
		known |= first
		inactive |= first & oneIf(u.Inactive)
		id = selectU32(first, u.ID, id)
	}
	switch {
	case found != 1 || known != 1:
		return 0, ErrInvalidToken
	case inactive == 1:
		return 0, ErrUserInactive
	}
	return id, nil
}

// padSize is the size of the buffer a given name, password or token is
// copied into for comparison: a login body carries each in at most 255
// bytes. A longer one (a caller other than Conn) gets a buffer of its own.
const padSize = 256

// padded is a given value copied to the start of a zeroed buffer, so that
// a stored value can be compared with it by reading as far as the stored
// value goes, whatever the given one's length.
type padded struct {
	buf []byte // the value, then zeros
	n   int    // the value's length
}

func pad[S ~string | ~[]byte](buf *[padSize]byte, b S) padded {
	p := padded{buf: buf[:], n: len(b)}
	if len(b) > padSize {
		p.buf = make([]byte, len(b))
	}
	copy(p.buf, b)
	return p
}

// diff is zero when stored equals the padded value. It reads all of stored
// (up to the buffer's end: a longer value cannot be equal) a word at a
// time, the last word overlapping the one before, with no branch on a
// byte, so its time depends on len(stored) and the buffer's length alone.
func diff[S ~string | ~[]byte](stored S, p padded) uint64 {
	v := uint64(len(stored) ^ p.n)
	n := min(len(stored), len(p.buf))
	s, b := stored[:n], p.buf[:n]
	if n < 8 {
		for k := range n {
			v |= uint64(s[k] ^ b[k])
		}
		return v
	}
	for k := 0; k < n-8; k += 8 {
		v |= load64(s[k:]) ^ load64(b[k:])
	}
	return v | (load64(s[n-8:]) ^ load64(b[n-8:]))
}

// load64 reads the first 8 bytes of s, little-endian.
func load64[S ~string | ~[]byte](s S) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// isZero is 1 when v is 0 and 0 otherwise, without a branch.
func isZero(v uint64) int { return int(((v | -v) >> 63) ^ 1) }

// oneIf is 1 for true and 0 for false.
func oneIf(b bool) int {
	var i int
	if b {
		i = 1
	}
	return i
}

// selectU32 is x when v is 1 and y when v is 0, without a branch.
func selectU32(v int, x, y uint32) uint32 {
	m := -uint32(v)
	return x&m | y&^m
}
