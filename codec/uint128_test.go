package codec_test

import (
	"testing"

	"github.com/iggywire/iggywire/codec"
)

// TestUint128 checks the text form (high half first) and IsZero.
func TestUint128(t *testing.T) {
	for _, c := range []struct {
		u    codec.Uint128
		want string
	}{
		{clientBig, "0x0123456789abcdeffedcba9876543210"},
		{client5, "0x00000000000000000000000000000005"},
		{codec.Uint128{}, "0x00000000000000000000000000000000"},
		{codec.Uint128{Lo: ^uint64(0), Hi: ^uint64(0)}, "0xffffffffffffffffffffffffffffffff"},
	} {
		if got := c.u.String(); got != c.want {
			t.Fatalf("Uint128{Lo: %#x, Hi: %#x}.String() = %q, want %q", c.u.Lo, c.u.Hi, got, c.want)
		}
	}
	if got, want := codec.Uint128From(42), (codec.Uint128{Lo: 42}); got != want {
		t.Fatalf("Uint128From(42) = %+v, want %+v", got, want)
	}
	if !(codec.Uint128{}).IsZero() {
		t.Fatalf("zero: Uint128{}.IsZero() = false, want true")
	}
	if (codec.Uint128{Hi: 1}).IsZero() {
		t.Fatalf("hi only: Uint128{Hi: 1}.IsZero() = true, want false")
	}
	if (codec.Uint128{Lo: 1}).IsZero() {
		t.Fatalf("lo only: Uint128{Lo: 1}.IsZero() = true, want false")
	}
}
