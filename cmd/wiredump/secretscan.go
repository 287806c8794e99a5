package main

import (
	"encoding/binary"
	"errors"
	"unicode/utf8"

	"github.com/iggywire/iggywire/codec"
)

// loginKinds returns the two Register body shapes, in the order the server
// tries them (WIRE.md section 7, steps 1c and 1d).
func loginKinds() [2]string { return [2]string{kindLogin, kindLoginPAT} }

// shapeTexts is how many u8-prefixed texts a login shape has up to and
// including its secret: sdk name, sdk version, then username and password,
// or the token alone.
func shapeTexts(kind string) int {
	if kind == kindLoginPAT {
		return 3
	}
	return 4
}

// secretField names the secret of a login shape as the codec's errors do.
func secretField(kind string) string {
	if kind == kindLoginPAT {
		return "token"
	}
	return "password"
}

// loginWindow is how far a login shape reaches before its context bytes:
// a u32 version, four u8-prefixed texts of at most 255 bytes (sdk name, sdk
// version, username, password) and a u32 context claim. The token shape,
// one text shorter, fits too.
const loginWindow = 4 + 4*(1+255) + 4

// legacyReach is how far a legacy login body can hold a secret: a u8
// username then a u8 password (LOGIN_USER, code 38); a LOGIN_WITH_PAT
// token (code 44) is shorter. A withheld body is blanked at least this far
// whatever its size field says.
const legacyReach = 2 * (1 + 255)

// scanSecrets returns the secrets of every login shape found at any offset
// of src. Any offset may start a body: a stream holds several frames, a
// size field may lie in either direction, and the frame after a lying one
// starts where no header says. A shape is found where the server's prefix
// decode accepts it or where the input ends inside its secret (secretAt),
// so a username or a context is not taken for a secret, while bytes that
// merely look like a login body are: that is the over-redaction this rule
// accepts. A reading cut inside its secret blanks from there to the end of
// the input, so that part of it is confined to the last 255 bytes.
func scanSecrets(src []byte) []span {
	var out []span
	for i := range src {
		if !mayStartLogin(src, i) {
			continue
		}
		for _, kind := range loginKinds() {
			if s, decodes, cut := secretAt(src, i, kind); (decodes || cut) && s.end > s.start {
				out = append(out, s)
			}
		}
	}
	return out
}

// mayStartLogin is a fast exit for the offsets where no login shape can
// start: both shapes begin with a u32 version then two UTF-8 texts that may
// not be empty (WIRE.md section 2). It only rejects what the codec would
// reject, so the codec still decides every offset it lets through; it
// exists because most offsets of a header (zero) or of binary data fail
// here, and a failed decode allocates its error.
func mayStartLogin(src []byte, i int) bool {
	name, next, ok := text8At(src, i+4)
	if !ok || len(name) == 0 || !utf8.Valid(name) {
		return false
	}
	version, _, ok := text8At(src, next)
	return ok && len(version) > 0 && utf8.Valid(version)
}

// claimMayFit is the second fast exit, per shape: it follows the lengths
// alone to the context claim and rejects a claim larger than the rest of
// the input, which the codec rejects too (ErrTruncated at the context, or
// an earlier error). Text, whose bytes read as huge claims, ends here. An
// input that ends before the claim is left to the codec: it may end inside
// the secret.
func claimMayFit(src []byte, i int, kind string) bool {
	at := i + 4
	for range shapeTexts(kind) {
		_, next, ok := text8At(src, at)
		if !ok {
			return true
		}
		at = next
	}
	if at+4 > len(src) {
		return true
	}
	return int64(binary.LittleEndian.Uint32(src[at:])) <= int64(len(src)-at-4)
}

// text8At returns the u8-prefixed text at src[at:] and the offset after
// it, or false when src ends first.
func text8At(src []byte, at int) (text []byte, next int, ok bool) {
	if at >= len(src) || at < 0 {
		return nil, 0, false
	}
	next = at + 1 + int(src[at])
	if next > len(src) {
		return nil, 0, false
	}
	return src[at+1 : next], next, true
}

// secretAt reads src[i:] as a body of the given login shape and returns
// where its secret lies. decodes is the server's prefix decode, with one
// allowance that can only add secrets: context bytes past loginWindow are
// not checked for UTF-8, only that the claim fits, so that a scan of every
// offset stays linear in the length of the input. cut reports that the
// input ends inside the secret after a prefix that decodes: a capture cut
// there still holds the part of a password or token it got.
func secretAt(src []byte, i int, kind string) (s span, decodes, cut bool) {
	if !claimMayFit(src, i, kind) {
		return span{}, false, false
	}
	b := src[i:]
	window := b[:min(len(b), loginWindow)]
	secretLen, contextLen, n, err := decodeLogin(window, kind)
	var ce *codec.Error
	switch {
	case err == nil:
		end := i + n - contextLen - 4
		return span{end - secretLen, end}, true, false
	case !errors.As(err, &ce) || !errors.Is(err, codec.ErrTruncated):
		return span{}, false, false
	case ce.Field == secretField(kind):
		// The window holds every byte a secret can reach, so the input
		// itself ends inside the secret, which starts where the codec
		// stopped.
		return span{i + ce.Offset, len(src)}, false, true
	case ce.Field == "context" && len(window) < len(b):
		// claimMayFit has checked the claim against the whole input; the
		// codec stopped where the context would start, after the secret.
		// An empty secret is a match with nothing to blank.
		ws := walkSecrets(src, i, kind)
		if len(ws) == 0 {
			return span{}, true, false
		}
		return ws[0], true, false
	}
	return span{}, false, false
}

// decodeLogin runs the codec's prefix decoder of a login shape and returns
// the lengths that place its secret: the secret ends 4+contextLen bytes
// before the end of the decode.
func decodeLogin(b []byte, kind string) (secretLen, contextLen, n int, err error) {
	if kind == kindLoginPAT {
		l, n, err := codec.DecodeLoginRegisterPAT(b)
		return len(l.Token), len(l.Context), n, err
	}
	l, n, err := codec.DecodeLoginRegister(b)
	return len(l.Password), len(l.Context), n, err
}

// decodesAt reports whether the server's prefix decode of a login shape
// accepts src[i:] (with secretAt's allowance for long contexts).
func decodesAt(src []byte, i int, kind string) bool {
	_, decodes, _ := secretAt(src, i, kind)
	return decodes
}

// walkSecrets returns the secret of one login shape walked from start to
// the end of the input, whatever a size field says: a walk checks lengths
// only, so it finds where the shape puts its secret even in a body that
// does not decode.
func walkSecrets(src []byte, start int, kind string) []span {
	d, _ := bodyDecoderFor(kind)
	w := newWalker(src, start, len(src))
	d.walk(w)
	var out []span
	for _, f := range w.fields {
		if f.Secret && f.Size > 0 {
			out = append(out, span{f.Offset, f.end()})
		}
	}
	return out
}

// frameSecrets returns the secrets of the bodies that follow the headers at
// frameStarts. The command byte only rules out the two frames that put
// other fields at the request's operation and code offsets (Reply and
// Eviction): a stray command byte does not make a login body public.
//
//   - After a Register-looking header (operation byte 1), the body is read
//     to the end of the input, past any size field: the secrets of the
//     shapes that decode, or, when neither does (truncated, a malformed
//     prefix), of both shapes as far as their walks reach. This
//     over-redacts what two walks of a malformed body take for secrets,
//     such as a username read as a token.
//   - After a login code sent as NonReplicated, the layout is not one this
//     codec decodes, so the whole body is blanked, to the end of the frame
//     and at least legacyReach bytes, whatever the size field says.
func frameSecrets(src []byte) []span {
	var out []span
	for _, f := range frameStarts(src) {
		h := src[f : f+codec.HeaderSize]
		if cmd := codec.Command(h[offCommand]); cmd == codec.CommandReply || cmd == codec.CommandEviction {
			continue
		}
		body := f + codec.HeaderSize
		switch codec.Operation(h[offReqOperation]) {
		case codec.OperationRegister:
			out = append(out, shapeSecrets(src, body, true)...)
		case codec.OperationNonReplicated:
			code := codec.Code(binary.LittleEndian.Uint32(h[offReqCode:]))
			if end := withheldEnd(src, f); isLoginCode(code) && end > body {
				out = append(out, span{body, end})
			}
		}
	}
	return out
}

// withheldEnd is where the blanked body of a legacy login frame at f ends:
// the end of the frame by its size field, but never before legacyReach
// bytes of body, and the end of the input when the size cannot be used.
func withheldEnd(src []byte, f int) int {
	end := len(src)
	if size, ok := usableSize(src, f); ok {
		end = min(end, max(f+size, f+codec.HeaderSize+legacyReach))
	}
	return end
}

// usableSize returns the size field of the header at f when a reader could
// use it to find the next frame.
func usableSize(src []byte, f int) (int, bool) {
	size := binary.LittleEndian.Uint32(src[f+offSize:])
	return int(size), size >= codec.HeaderSize && size <= codec.MaxFrameSize
}

// frameStarts returns every offset at which some reading of src starts a
// whole header: offset 0, and from each start f, the frame its size field
// points to (f+size) and the one a header-only reading points to (f+256),
// which is where the body starts when the size field lies. Each offset is
// listed once, so the walk is linear in the length of the input.
func frameStarts(src []byte) []int {
	last := len(src) - codec.HeaderSize
	if last < 0 {
		return nil
	}
	seen := make([]uint64, last/64+1)
	var out []int
	for todo := []int{0}; len(todo) > 0; {
		f := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if f > last || seen[f/64]&(1<<(f%64)) != 0 {
			continue
		}
		seen[f/64] |= 1 << (f % 64)
		out = append(out, f)
		todo = append(todo, f+codec.HeaderSize)
		if size, ok := usableSize(src, f); ok {
			todo = append(todo, f+size)
		}
	}
	return out
}
