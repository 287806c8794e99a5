package main

import (
	"bytes"

	"github.com/iggywire/iggywire/codec"
)

func clientInfoSeeds() []Seed {
	valid := must(info.AppendBinary(nil))
	long := bytes.Repeat([]byte("n"), 255)
	return []Seed{
		{"valid-rust-sdk-0.11.0", valid},
		{"valid-go-sdk-1.0.0", must(codec.ClientVersionInfo{Protocol: codec.MustPack(1, 0, 0), SDKName: []byte("go-sdk"), SDKVersion: []byte("1.0.0")}.AppendBinary(nil))},
		{"valid-names-255-bytes", must(codec.ClientVersionInfo{Protocol: protocol, SDKName: long, SDKVersion: long}.AppendBinary(nil))},
		{"valid-protocol-reserved-bits-set", patch(valid, 0, 0xff, 0xff, 0xff, 0xff)},
		{"valid-protocol-zero", patch(valid, 0, 0, 0, 0, 0)},
		{"bad-empty-input-truncated", nil},
		{"bad-protocol-truncated", valid[:3]},
		{"bad-sdk-name-len-missing-truncated", valid[:4]},
		{"bad-sdk-name-truncated", valid[:7]},
		{"bad-sdk-version-truncated", valid[:len(valid)-1]},
		{"bad-sdk-name-len-0", patch(valid, 4, 0)},
		{"bad-sdk-version-len-0", cat(valid[:13], []byte{0})},
		{"bad-sdk-name-utf8", patch(valid, 6, 0xff)},
		{"bad-sdk-version-utf8", patch(valid, len(valid)-1, 0xc3)},
		{"bad-trailing-byte", cat(valid, []byte{0})},
	}
}

func loginSeeds() []Seed {
	l := codec.LoginRegister{Info: info, Username: []byte("iggy"), Password: codec.NewSecret([]byte("iggy"))}
	valid := must(l.AppendBinary(nil))
	withCtx := l
	withCtx.Context = []byte("ctx")
	ctx := must(withCtx.AppendBinary(nil))
	emptyPw := l
	emptyPw.Password = codec.Secret{}
	n := info.EncodedLen() // offset of username_len
	return []Seed{
		{"valid-iggy-iggy", valid},
		{"valid-with-context", ctx},
		{"valid-empty-password-no-context", must(emptyPw.AppendBinary(nil))},
		{"bad-info-sdk-name-len-0", patch(valid, 4, 0)},
		{"bad-username-len-0", patch(valid, n, 0)},
		{"bad-username-utf8", patch(valid, n+1, 0xff)},
		{"bad-password-utf8", patch(valid, n+6, 0x80)},
		{"bad-context-utf8", patch(ctx, len(ctx)-1, 0xff)},
		{"bad-context-len-claims-more-truncated", patch(ctx, len(ctx)-7, 4)},
		{"bad-context-len-max-u32-truncated", patch(valid, len(valid)-4, 0xff, 0xff, 0xff, 0xff)},
		{"bad-context-len-missing-truncated", valid[:len(valid)-4]},
		{"bad-password-truncated", valid[:n+7]},
		{"bad-trailing-byte", cat(valid, []byte{'x'})},
	}
}

func patSeeds() []Seed {
	l := codec.LoginRegisterPAT{Info: info, Token: codec.NewSecret([]byte("token-1"))}
	valid := must(l.AppendBinary(nil))
	withCtx := l
	withCtx.Context = []byte("ctx")
	ctx := must(withCtx.AppendBinary(nil))
	empty := l
	empty.Token = codec.Secret{}
	n := info.EncodedLen() // offset of token_len
	return []Seed{
		{"valid-token", valid},
		{"valid-with-context", ctx},
		{"valid-empty-token", must(empty.AppendBinary(nil))},
		{"bad-info-sdk-version-len-0", patch(valid, 13, 0)},
		{"bad-token-utf8", patch(valid, n+1, 0xfe)},
		{"bad-token-truncated", valid[:n+3]},
		{"bad-context-utf8", patch(ctx, len(ctx)-2, 0xc0)},
		{"bad-context-len-claims-more-truncated", patch(ctx, len(ctx)-7, 9)},
		{"bad-trailing-bytes", cat(valid, []byte("more"))},
	}
}

func loginReplySeeds() []Seed {
	r := codec.LoginReply{UserID: 1, Session: 7, ServerProtocol: protocol, ServerVersion: []byte("0.11.0")}
	valid := must(r.AppendBinary(nil))
	long := r
	long.ServerVersion = bytes.Repeat([]byte("v"), 255)
	return []Seed{
		{"valid-session-7", valid},
		{"valid-server-version-255-bytes", must(long.AppendBinary(nil))},
		{"valid-session-max", patch(valid, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)},
		{"bad-session-0", patch(valid, 4, 0, 0, 0, 0, 0, 0, 0, 0)},
		{"bad-session-0-before-truncation", patch(valid, 4, 0, 0, 0, 0, 0, 0, 0, 0)[:13]},
		{"bad-user-id-truncated", valid[:2]},
		{"bad-session-truncated", valid[:9]},
		{"bad-server-version-len-0", patch(valid, 16, 0)},
		{"bad-server-version-utf8", patch(valid, 17, 0xff)},
		{"bad-server-version-truncated", valid[:len(valid)-1]},
		{"bad-trailing-byte", cat(valid, []byte{0})},
	}
}

func versionSeeds() []Seed {
	texts := []struct{ name, text string }{
		{"text-valid-0.11.0", "0.11.0"},
		{"text-valid-max-1023.1023.1023", "1023.1023.1023"},
		{"text-valid-leading-zeros", "001.002.003"},
		{"text-valid-prerelease-ignored", "0.11.0-edge.2"},
		{"text-valid-build-ignored", "1.2.3+build.5"},
		{"text-valid-empty-suffix", "1.2.3-"},
		{"text-range-major-1024", "1024.0.0"},
		{"text-range-patch-many-digits", "1.2.99999999999999999999"},
		{"text-syntax-empty", ""},
		{"text-syntax-v-prefix", "v1.2.3"},
		{"text-syntax-two-components", "1.2"},
		{"text-syntax-empty-component", "1..3"},
		{"text-syntax-trailing-garbage", "1.2.3x"},
		{"text-syntax-space", " 1.2.3"},
		{"text-syntax-sign", "+1.2.3"},
	}
	var out []Seed
	for _, t := range texts {
		out = append(out, Seed{t.name, []byte(t.text)})
	}
	windows := []struct {
		name          string
		min, max, ver uint32
	}{
		{"window-0x-accepts-lower-patch", 0x2C00, 0x2C05, 0x2C01},
		{"window-0x-accepts-higher-patch", 0x2C00, 0x2C05, 0x2C09},
		{"window-0x-refuses-next-minor", 0x2C00, 0x2C05, 0x3000},
		{"window-0x-refuses-below-min", 0x2C00, 0x2C05, 0x2BFF},
		{"window-1x-accepts-same-major", 1 << 20, 1<<20 | 5<<10, 1<<20 | 9<<10},
		{"window-1x-refuses-next-major", 1 << 20, 1<<20 | 5<<10, 2 << 20},
		{"window-ill-formed-min-above-max", 0x2C05, 0x2C00, 0x2C01},
		{"window-ill-formed-min-0", 0, 0x2C00, 0x2C00},
		{"window-version-reserved-bits", 1, 0x3FFFFFFF, 0xC0002C00},
		{"window-max-reserved-bits", 1, 0xC0002C00, 0x2C00},
		{"window-tiny-versions-pack-in-range", 1, 2, 3},
	}
	for _, w := range windows {
		out = append(out, Seed{w.name, cat(u32(w.min), u32(w.max), u32(w.ver))})
	}
	return out
}

func splitSeeds() []Seed {
	return []Seed{
		{"valid-count-0-empty", u32(0)},
		{"valid-count-0-login-reply", cat(u32(0), must(codec.LoginReply{UserID: 1, Session: 7, ServerProtocol: protocol, ServerVersion: []byte("0.11.0")}.AppendBinary(nil)))},
		{"valid-count-1-result-0-payload", cat(u32(1), u32(0), u32(0), []byte("payload"))},
		{"valid-count-1-result-42-code", cat(u32(1), u32(0), u32(42), []byte("ignored"))},
		{"valid-count-2-first-result-wins", cat(u32(2), u32(0), u32(0), u32(1), u32(3))},
		{"bad-empty-truncated", nil},
		{"bad-count-3-bytes-truncated", []byte{0, 0, 0}},
		{"bad-entries-truncated", cat(u32(2), u32(0), u32(0))},
		{"bad-count-max-u32-truncated", cat(u32(0xffffffff), u32(0), u32(0))},
	}
}
