package tcp

import (
	"encoding/binary"
	"testing"

	"github.com/iggywire/iggywire/codec"
)

func TestIsLegacyFrame(t *testing.T) {
	prefix := func(length, code uint32) []byte {
		return binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, length), code)
	}
	for _, c := range []struct {
		name string
		b    []byte
		want bool
	}{
		{"an old login", prefix(20, uint32(codec.CodeLoginUser)), true},
		{"an old ping", prefix(4, uint32(codec.CodePing)), true},
		{"an old token login", prefix(40, uint32(codec.CodeLoginPAT)), true},
		{"a VSR header's zero checksum", make([]byte, 8), false},
		{"an unknown code", prefix(20, 9999), false},
		{"a length above the frame cap", prefix(codec.MaxFrameSize+1, uint32(codec.CodePing)), false},
	} {
		if got := isLegacyFrame(c.b); got != c.want {
			t.Errorf("%s (%x): isLegacyFrame = %t, want %t", c.name, c.b, got, c.want)
		}
	}
}
