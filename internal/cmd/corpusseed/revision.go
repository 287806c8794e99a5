package main

import (
	"bytes"

	"github.com/iggywire/iggywire/codec"
)

// The seeds of protocol 0.11.1's bodies (WIRE.md section 10).

// info0111 is the ClientVersionInfo of a 0.11.1 client.
var info0111 = codec.ClientVersionInfo{Protocol: codec.Protocol0111, SDKName: []byte("go-sdk"), SDKVersion: []byte("0.1.0")}

// bindSecret is a bind secret whose bytes are all above 0x7f, as most
// random ones have some: the decoders' ASCII test must skip it.
var bindSecret = codec.NewSecret(bytes.Repeat([]byte{0xa5}, codec.BindSecretLen))

func bindSessionSeeds() []Seed {
	b := codec.BindSession{Info: info0111, ClientID: codec.Uint128{Lo: 0xc1, Hi: 0xc2}, Session: 7, MetadataWatermark: 7, BindSecret: bindSecret}
	valid := must(b.AppendBinary(nil))
	zero := b
	zero.Session, zero.MetadataWatermark = 0, 0
	ascii := b
	ascii.BindSecret = codec.NewSecret([]byte("0123456789abcdef0123456789abcdef"))
	n := info0111.EncodedLen() // offset of client_id
	return []Seed{
		{"valid-session-7", valid},
		{"valid-session-0-lost-login-reply", must(zero.AppendBinary(nil))},
		{"valid-ascii-secret", must(ascii.AppendBinary(nil))},
		{"valid-protocol-0.11.0-still-decodes", patch(valid, 0, 0x00, 0x2c, 0, 0)},
		{"bad-info-sdk-name-len-0", patch(valid, 4, 0)},
		{"bad-info-sdk-version-utf8", patch(valid, n-1, 0xff)},
		{"bad-client-id-truncated", valid[:n+8]},
		{"bad-session-truncated", valid[:n+20]},
		{"bad-watermark-truncated", valid[:n+31]},
		{"bad-secret-truncated", valid[:len(valid)-1]},
		{"bad-trailing-byte", cat(valid, []byte{0})},
	}
}

func loginSecretSeeds() []Seed {
	l := codec.LoginRegister{Info: info0111, Revision: codec.RevisionBindSecret, BindSecret: bindSecret,
		Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	valid := must(l.AppendBinary(nil))
	withCtx := l
	withCtx.Context = []byte("ctx")
	ctx := must(withCtx.AppendBinary(nil))
	n := info0111.EncodedLen()   // offset of the bind secret
	u := n + codec.BindSecretLen // offset of username_len
	return []Seed{
		{"valid-iggy-iggy", valid},
		{"valid-with-context", ctx},
		{"valid-secret-all-zero", patch(valid, n, make([]byte, codec.BindSecretLen)...)},
		{"bad-secret-truncated", valid[:n+20]},
		{"bad-username-len-missing-truncated", valid[:u]},
		{"bad-username-len-0", patch(valid, u, 0)},
		{"bad-username-utf8", patch(valid, u+1, 0xff)},
		{"bad-context-utf8", patch(ctx, len(ctx)-1, 0xff)},
		{"bad-trailing-byte", cat(valid, []byte{'x'})},
		{"bad-0.11.0-body", must(codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}.AppendBinary(nil))},
	}
}

func patSecretSeeds() []Seed {
	l := codec.LoginRegisterPAT{Info: info0111, Revision: codec.RevisionBindSecret, BindSecret: bindSecret, Token: codec.NewSecret([]byte("token-1"))}
	valid := must(l.AppendBinary(nil))
	n := info0111.EncodedLen() + codec.BindSecretLen // offset of token_len
	return []Seed{
		{"valid-token", valid},
		{"bad-secret-truncated", valid[:n-1]},
		{"bad-token-utf8", patch(valid, n+1, 0xfe)},
		{"bad-token-truncated", valid[:n+3]},
		{"bad-trailing-bytes", cat(valid, []byte("more"))},
	}
}
