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
	ID       uint32
	Name     string
	Password codec.Secret
	Inactive bool
}

// Token is a personal access token of a StaticAuth, naming its user.
type Token struct {
	Value codec.Secret
	User  string
}

// StaticAuth is an Authenticator over a fixed list of users and tokens,
// written as a literal; it is meant for tests and the login server command.
// Secrets compare in constant time; lookups are linear scans. It is safe for
// concurrent use as long as nobody modifies it, and it prints without
// showing any secret.
type StaticAuth struct {
	Users  []User
	Tokens []Token
}

// Password implements Authenticator.
func (a StaticAuth) Password(username []byte, password codec.Secret) (uint32, error) {
	u, ok := a.user(string(username))
	// Compare even for an unknown user (against nothing), so that the
	// work done does not depend on whether the account exists.
	match := subtle.ConstantTimeCompare(u.Password.Bytes(), password.Bytes()) == 1
	if !ok || u.Inactive || !match {
		return 0, ErrInvalidCredentials
	}
	return u.ID, nil
}

// Token implements Authenticator. A token that names no user is
// ErrInvalidToken.
func (a StaticAuth) Token(token codec.Secret) (uint32, error) {
	found := -1
	for i, t := range a.Tokens {
		// Every token is compared, so the time taken does not say which matched.
		if subtle.ConstantTimeCompare(t.Value.Bytes(), token.Bytes()) == 1 && found < 0 {
			found = i
		}
	}
	if found < 0 {
		return 0, ErrInvalidToken
	}
	u, ok := a.user(a.Tokens[found].User)
	switch {
	case !ok:
		return 0, ErrInvalidToken
	case u.Inactive:
		return 0, ErrUserInactive
	}
	return u.ID, nil
}

func (a StaticAuth) user(name string) (User, bool) {
	for _, u := range a.Users {
		if u.Name == name {
			return u, true
		}
	}
	return User{}, false
}
