package codec

import "strconv"

// Uint128 is a little-endian u128 as it travels in a header: Lo at the lower
// offset, Hi eight bytes later. The zero value is 0, which is not a valid
// client id.
type Uint128 struct {
	Lo, Hi uint64 // the low and high 64 bits
}

// IsZero reports whether u is 0.
func (u Uint128) IsZero() bool { return u.Lo|u.Hi == 0 }

// String returns u as 32 hexadecimal digits, high half first, prefixed 0x.
func (u Uint128) String() string {
	var b [34]byte
	return string(u.appendHex(b[:0]))
}

func (u Uint128) appendHex(dst []byte) []byte {
	const digits = "0123456789abcdef"
	dst = append(dst, '0', 'x')
	for _, half := range [2]uint64{u.Hi, u.Lo} {
		for shift := 60; shift >= 0; shift -= 4 {
			dst = append(dst, digits[half>>uint(shift)&0xf])
		}
	}
	return dst
}

// Uint128From returns the u128 whose value is the unsigned integer x.
func Uint128From(x uint64) Uint128 { return Uint128{Lo: x} }

// itoa is strconv.Itoa for the table-backed String methods below.
func itoa(v uint64) string { return strconv.FormatUint(v, 10) }
