package codec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/iggywire/iggywire/codec"
)

// TestUint128 checks the text form (high half first) and IsZero.
func TestUint128(t *testing.T) {
	require.Equal(t, "0x0123456789abcdeffedcba9876543210", clientBig.String(), "String")
	require.Equal(t, "0x00000000000000000000000000000005", client5.String(), "String")
	require.Equal(t, "0x00000000000000000000000000000000", codec.Uint128{}.String(), "String")
	require.Equal(t, "0xffffffffffffffffffffffffffffffff", codec.Uint128{Lo: ^uint64(0), Hi: ^uint64(0)}.String(), "String")
	require.Equal(t, codec.Uint128{Lo: 42}, codec.Uint128From(42), "Uint128From")
	require.Equal(t, true, codec.Uint128{}.IsZero(), "zero")
	require.Equal(t, false, codec.Uint128{Hi: 1}.IsZero(), "hi only")
	require.Equal(t, false, codec.Uint128{Lo: 1}.IsZero(), "lo only")
}
