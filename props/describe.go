package props

import (
	"fmt"

	"github.com/iggywire/iggywire/codec"
)

// Describe renders a codec message readably for a failure report: the
// message's own String (fields by their wire names, texts quoted, versions
// and client ids in their own notation), with a long context cut to its
// first 32 bytes and each secret shown only by its length, never its
// bytes; the lengths follow in parentheses. Any other value prints as its
// type.
func Describe(v any) string {
	switch v := v.(type) {
	case codec.LoginRegister:
		n, ctx := v.Password.Len(), len(v.Context)
		v.Context = shortContext(v.Context)
		return fmt.Sprintf("%v (password: %d bytes, context: %d bytes)", v, n, ctx)
	case codec.LoginRegisterPAT:
		n, ctx := v.Token.Len(), len(v.Context)
		v.Context = shortContext(v.Context)
		return fmt.Sprintf("%v (token: %d bytes, context: %d bytes)", v, n, ctx)
	case codec.ClientVersionInfo, codec.LoginReply, codec.RequestHeader, codec.ReplyHeader, codec.Eviction:
		return v.(fmt.Stringer).String()
	}
	return fmt.Sprintf("%T", v)
}

// shortContext keeps a context a person can read in a failure report: its
// first 32 bytes, when it is longer.
func shortContext(b []byte) []byte {
	if len(b) <= 32 {
		return b
	}
	return b[:32:32]
}
