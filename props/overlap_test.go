package props

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
	"github.com/iggywire/iggywire/internal/refcodec"
	"github.com/iggywire/iggywire/lifecycle"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The two login shapes share the ClientVersionInfo prefix; after it
// (WIRE.md section 3):
//
//	password: [u][username: u][p][password: p][c u32][context: c]
//	token:    [t][token: t][c' u32][context': c']
//
// Read as a token body, a password body has t = u and token = username
// (valid UTF-8 of 1..255 bytes, so always a token), and c' is the u32 made
// of the 4 bytes after the username: p, then the password's first bytes,
// then the bytes of c when p < 3. The bytes left after c' are p+1+c. So:
//
// Prefix overlap (tokenView): a password body prefix-decodes as a token
// body iff c' <= p+1+c and the c' bytes after c' are valid UTF-8; the
// token body is then {info, username, those bytes}, using
// len(info)+5+u+c' bytes. WIRE.md names the family p = 0, c = 0 (c' = 0,
// token = username, one byte left over), but the family is wider: any
// password starting with three NUL bytes (c' = p), p = 0 with a context
// length that is a multiple of 2^24, and passwords whose first bytes are
// small enough for the context to cover c'.
//
// Strict overlap: none. A strict parse as both needs c' = p+1+c exactly.
// Working the little-endian arithmetic through each case (p = 0, 1, 2, >= 3)
// forces a byte 0xFE or 0xFF into the part of c's encoding that lands in
// context' (for p >= 3, c = X-1 where X = password[0:3] << 8 has a zero low
// byte, so c's low byte is 0xFF), and such a byte is never UTF-8. Only the
// UTF-8 rule separates the shapes: TestOverlapNearMiss shows bodies whose
// lengths line up exactly and which the token parse refuses with ErrUTF8 at
// that byte.

// tokenView predicts, from the password body l and its encoding b alone,
// what a token decoder makes of b.
type tokenView struct {
	ok, truncated  bool
	ctxOff, ctxLen int
}

func predictTokenView(l codec.LoginRegister, b []byte) tokenView {
	at := l.Info.EncodedLen() + 1 + len(l.Username)
	claim := int(binary.LittleEndian.Uint32(b[at:]))
	v := tokenView{ctxOff: at + 4, ctxLen: claim}
	switch {
	case claim > len(b)-v.ctxOff:
		v.truncated = true
	case utf8.Valid(b[v.ctxOff : v.ctxOff+claim]):
		v.ok = true
	}
	return v
}

// GenOverlapLogin generates password bodies biased towards the overlap:
// empty passwords with and without a context, passwords starting with NUL
// or small bytes, and contexts long enough to cover what those claim.
func GenOverlapLogin() gopter.Gen {
	return derive(
		func(l codec.LoginRegister, shape uint8, k uint16) codec.LoginRegister {
			return overlapShape(l, shape, k)
		},
		func(l codec.LoginRegister) (codec.LoginRegister, uint8, uint16) { return l, 0, 0 },
		GenLoginRegister(), pick[uint8](0, 5), pick[uint16](0, 600, 0, 1, 2, 255, 256, 257),
	)
}

func overlapShape(l codec.LoginRegister, shape uint8, k uint16) codec.LoginRegister {
	ascii := bytes.Repeat([]byte("c"), int(k))
	switch shape {
	case 1: // the named family: empty password, no context
		l.Password, l.Context = codec.Secret{}, nil
	case 2: // empty password, some context
		l.Password, l.Context = codec.Secret{}, nilIfEmpty(ascii)
	case 3: // three NULs, then anything
		l.Password = codec.NewSecret(append([]byte{0, 0, 0}, l.Password.Bytes()[:runeBoundary(l.Password.Bytes(), min(l.Password.Len(), 200))]...))
	case 4: // a small first byte: c' = p + 256*k1, covered by a long context
		l.Password = codec.NewSecret([]byte{byte(k % 3), 0, 0, 'x'})
		l.Context = nilIfEmpty(ascii)
	case 5: // one byte: c' takes two bytes of the context length
		l.Password = codec.NewSecret([]byte{byte(k % 128)})
		l.Context = nilIfEmpty(ascii)
	}
	return l
}

func TestOverlapPrefix(t *testing.T) {
	t.Parallel()
	overlaps, named := 0, 0
	property(t, 1, "a password body prefix-decodes as a token body exactly as predicted", prop.ForAll(func(l codec.LoginRegister) string {
		b, _ := l.AppendBinary(nil)
		want := predictTokenView(l, b)
		got, n, err := codec.DecodeLoginRegisterPAT(b)
		switch {
		case want.truncated:
			if !errors.Is(err, codec.ErrTruncated) {
				return fmt.Sprintf("predicted ErrTruncated, got %v", err)
			}
		case !want.ok:
			if !errors.Is(err, codec.ErrUTF8) {
				return fmt.Sprintf("predicted ErrUTF8, got %v", err)
			}
		default:
			exp := codec.LoginRegisterPAT{Info: l.Info, Token: codec.NewSecret(l.Username), Context: nilIfEmpty(b[want.ctxOff : want.ctxOff+want.ctxLen])}
			if err != nil || n != want.ctxOff+want.ctxLen || !equalPAT(got, exp) {
				return fmt.Sprintf("predicted %s using %d bytes, got %s, %d, %v", Describe(exp), want.ctxOff+want.ctxLen, Describe(got), n, err)
			}
			overlaps++
			if l.Password.Len() == 0 && len(l.Context) == 0 {
				if n != len(b)-1 {
					return fmt.Sprintf("empty password, no context: token decode used %d of %d bytes, want all but one", n, len(b))
				}
				named++
			}
		}
		if _, err := codec.ParseLoginRegisterPAT(b); err == nil {
			return "a password body strict-parses as a token body"
		}
		return ""
	}, GenOverlapLogin()))
	t.Logf("%d overlaps, %d of them in the named family", overlaps, named)
	assert.Positive(t, named, "the generator reached the named overlap family")
	assert.Greater(t, overlaps, named, "the generator reached overlaps outside the named family")
}

// TestOverlapStrict: no byte string strict-parses both as a password body
// and as a token body, whatever shape or damage it comes from.
func TestOverlapStrict(t *testing.T) {
	t.Parallel()
	both := func(b []byte) string {
		_, err1 := codec.ParseLoginRegister(b)
		_, err2 := codec.ParseLoginRegisterPAT(b)
		_, r1 := refcodec.ParseLoginRegister(b)
		_, r2 := refcodec.ParseLoginRegisterPAT(b)
		if err1 == nil && err2 == nil || r1 == nil && r2 == nil {
			return fmt.Sprintf("% x strict-parses as both shapes", b)
		}
		return ""
	}
	property(t, 1, "no body has both shapes (password side)", prop.ForAll(func(h Hostile[codec.LoginRegister]) string {
		return both(h.Bytes())
	}, GenHostile[codec.LoginRegister](GenOverlapLogin())))
	property(t, 1, "no body has both shapes (token side)", prop.ForAll(func(h Hostile[codec.LoginRegisterPAT]) string {
		return both(h.Bytes())
	}, GenHostile[codec.LoginRegisterPAT](GenLoginRegisterPAT())))
}

// TestOverlapNearMiss: bodies whose lengths line up for both strict
// parses (password = [a, 0, 0, ...], context of (a<<8)-1 bytes, so the
// token's context claim is exactly what is left) are refused as token
// bodies only by the UTF-8 rule, at the 0xFF low byte of the password's
// context length, as the derivation says.
func TestOverlapNearMiss(t *testing.T) {
	t.Parallel()
	property(t, 1, "only UTF-8 keeps the shapes apart", prop.ForAll(func(l codec.LoginRegister, a uint8, rest []byte) string {
		l.Password = codec.NewSecret(append([]byte{a, 0, 0}, rest[:min(len(rest), 200)]...))
		l.Context = bytes.Repeat([]byte("c"), int(a)<<8-1)
		b, err := l.AppendBinary(nil)
		if err != nil {
			return "near-miss body does not encode: " + err.Error()
		}
		lenAt := l.Info.EncodedLen() + 1 + len(l.Username) + 1 + l.Password.Len()
		_, err = codec.ParseLoginRegisterPAT(b)
		var ce *codec.Error
		if !errors.Is(err, codec.ErrUTF8) || !errors.As(err, &ce) || ce.Offset != lenAt || b[lenAt] != 0xFF {
			return fmt.Sprintf("token parse = %v; want ErrUTF8 at %d (byte %#x)", err, lenAt, b[lenAt])
		}
		return ""
	}, GenLoginRegister(), pick[uint8](1, 127, 1, 2, 127), GenText(0, 200)))
}

// TestOverlapServerAnswer: what the server answers a password login whose
// password is wrong: eviction 9 when the body is not also a token body;
// when it is, the username is tried as a token: eviction 10 if it is not
// one, and a successful login if it happens to be a valid token.
func TestOverlapServerAnswer(t *testing.T) {
	t.Parallel()
	const validToken = "tok"
	srv, err := lifecycle.NewServer(lifecycle.Config{
		Window: codec.DefaultWindow(codec.MustPack(0, 11, 0)),
		Auth: lifecycle.StaticAuth{
			Users:  []lifecycle.User{{ID: 7, Name: "tok", Password: codec.NewSecret([]byte(string(SecretMarker) + "never generated"))}},
			Tokens: []lifecycle.Token{{Value: codec.NewSecret([]byte(validToken)), User: "tok"}},
		},
	})
	require.NoError(t, err)
	answers := map[string]int{}
	property(t, 1, "wrong password: 9, or 10 (or a token login) when the body is also a token body", prop.ForAll(
		func(l codec.LoginRegister, asToken bool, client codec.Uint128) string {
			l.Info.Protocol = codec.MustPack(0, 11, 0)
			if asToken {
				l.Username = []byte(validToken)
			}
			body, err := l.AppendBinary(nil)
			if err != nil {
				return fmt.Sprintf("%s does not encode: %v", Describe(l), err)
			}
			view := predictTokenView(l, body)
			frame, err := codec.AppendRequestFrame(nil, codec.RequestHeader{Client: client, Operation: codec.OperationRegister}, body)
			if err != nil {
				return err.Error()
			}
			out, _, err := srv.NewConn().Handle(frame, nil)
			if err != nil {
				return "Handle: " + err.Error()
			}
			got := answerOf(out)
			want := "eviction InvalidCredentials"
			if view.ok {
				want = "eviction InvalidToken"
				if asToken {
					want = "login"
				}
			}
			answers[want]++
			if got != want {
				return fmt.Sprintf("%s (token view %+v): server answered %s, want %s", Describe(l), view, got, want)
			}
			return ""
		}, GenOverlapLogin(), genBool(), GenClient()))
	t.Logf("answers: %v", answers)
	assert.GreaterOrEqual(t, len(answers), 3, "not every answer was reached: %v", answers)
}

// answerOf names a server answer: "login" for a successful Register reply,
// "reply <op> <status>" for another reply, "eviction <reason>".
func answerOf(out []byte) string {
	cmd, err := codec.PeekCommand(out)
	if err != nil {
		return "nothing"
	}
	switch cmd {
	case codec.CommandEviction:
		e, err := codec.DecodeEviction(out)
		if err != nil {
			return "bad eviction: " + err.Error()
		}
		return "eviction " + e.Reason.String()
	case codec.CommandReply:
		h, err := codec.DecodeReplyHeader(out)
		if err != nil {
			return "bad reply: " + err.Error()
		}
		if h.Operation == codec.OperationRegister && h.Status == 0 {
			return "login"
		}
		return fmt.Sprintf("reply %v %v", h.Operation, h.Status)
	}
	return "frame " + cmd.String()
}
