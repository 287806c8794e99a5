package fuzz

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestSecretUTF8ErrorsNameTheField: a password or token that is not UTF-8
// fails with the same error, offset included, wherever its first bad byte
// lies, in both revisions, from the decoders and from Validate: where in a
// secret its first bad byte lies would say something about the secret.
func TestSecretUTF8ErrorsNameTheField(t *testing.T) {
	unitTest(t)
	const n = 24
	info := func(v codec.Version) codec.ClientVersionInfo {
		return codec.ClientVersionInfo{Protocol: v, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}
	}
	bind := codec.NewSecret(make([]byte, codec.BindSecretLen))
	type reading func(secret []byte) error
	readings := map[string]reading{}
	for _, rev := range []codec.Revision{codec.RevisionBase, codec.RevisionBindSecret} {
		var bs codec.Secret
		if rev == codec.RevisionBindSecret {
			bs = bind
		}
		v := rev.Protocol()
		login := func(secret []byte) codec.LoginRegister {
			return codec.LoginRegister{Info: info(v), Revision: rev, BindSecret: bs, Username: []byte("iggy"),
				Password: codec.NewSecret(secret), Context: []byte("ctx")}
		}
		pat := func(secret []byte) codec.LoginRegisterPAT {
			return codec.LoginRegisterPAT{Info: info(v), Revision: rev, BindSecret: bs, Token: codec.NewSecret(secret), Context: []byte("ctx")}
		}
		readings["password decode "+rev.String()] = func(secret []byte) error {
			good := make([]byte, len(secret))
			for i := range good {
				good[i] = 'a'
			}
			b, err := login(good).AppendBinary(nil)
			if err != nil {
				return err
			}
			at := len(b) - len("ctx") - 4 - len(secret)
			copy(b[at:], secret)
			_, _, err = codec.DecodeLoginRegisterRev(b, rev)
			return err
		}
		readings["token decode "+rev.String()] = func(secret []byte) error {
			good := make([]byte, len(secret))
			for i := range good {
				good[i] = 'a'
			}
			b, err := pat(good).AppendBinary(nil)
			if err != nil {
				return err
			}
			at := len(b) - len("ctx") - 4 - len(secret)
			copy(b[at:], secret)
			_, _, err = codec.DecodeLoginRegisterPATRev(b, rev)
			return err
		}
		readings["password Validate "+rev.String()] = func(secret []byte) error { return login(secret).Validate() }
		readings["token Validate "+rev.String()] = func(secret []byte) error { return pat(secret).Validate() }
	}
	for name, read := range readings {
		var first string
		for i := range n {
			secret := make([]byte, n)
			for k := range secret {
				secret[k] = 'a' + byte(k%26)
			}
			secret[i] = 0xff
			err := read(secret)
			if err == nil {
				t.Fatalf("%s: a secret with 0xff at %d decodes", name, i)
			}
			if i == 0 {
				first = err.Error()
			} else if err.Error() != first {
				t.Fatalf("%s: the error depends on where the bad byte is:\n%s\n%s", name, first, err)
			}
		}
	}
}
