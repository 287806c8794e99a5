package tcp

import (
	"encoding/binary"
	"errors"

	"github.com/iggywire/iggywire/codec"
)

// legacyPrefix is how many bytes tell the pre-VSR framing apart: its
// request is [length u32][code u32] then the payload, all little-endian,
// with no 256-byte header. A client speaking it (an old SDK's login, 38)
// would otherwise wait for an answer to a header that never completes.
const legacyPrefix = 8

// errLegacyFraming marks a frame that began in the pre-VSR framing.
var errLegacyFraming = errors.New("frame in the pre-VSR framing")

// isLegacyFrame reports whether the first 8 bytes of a frame are a pre-VSR
// prefix: a length no larger than the wire's frame cap and a command code
// this package knows. In a VSR header those bytes are the checksum's low
// half, which the SDKs send as zero (code 0 is no command) and which, when
// set, matches both rules by chance about once in 2^33 frames.
func isLegacyFrame(b []byte) bool {
	length := binary.LittleEndian.Uint32(b[0:4])
	code := codec.Code(binary.LittleEndian.Uint32(b[4:8]))
	return code != 0 && length <= codec.MaxFrameSize && code.IsKnown()
}

// sniff looks at what has arrived of a frame not logged in, until its
// first legacyPrefix bytes are in, and reports a pre-VSR prefix.
func (s *frameSource) sniff(p []byte) error {
	n := copy(s.prefix[s.got:], p)
	s.got += n
	if s.got == legacyPrefix {
		s.sniffing = false
		if isLegacyFrame(s.prefix[:]) {
			return errLegacyFraming
		}
	}
	return nil
}
