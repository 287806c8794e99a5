package fuzz

import (
	"bytes"

	fuzzheaders "github.com/AdaLogics/go-fuzz-headers"

	"github.com/iggywire/iggywire/codec"
)

// gen builds field values from fuzz bytes, leaning towards the values that
// break a rule: empty text, text over 255 bytes, invalid UTF-8, zero ids
// and sessions, edge sizes, unknown operations and reasons. Once the input
// runs out every getter returns zero values, which are interesting too.
//
// The committed seeds of the structured targets (corpus/FuzzBuildBodies,
// FuzzBuildHeaders, FuzzClient) were written by mirroring the order and
// width of these reads; a change here makes them other inputs, still valid.
type gen struct{ c *fuzzheaders.ConsumeFuzzer }

func newGen(data []byte) gen { return gen{fuzzheaders.NewConsumer(data)} }

func (g gen) u8() uint8 {
	b, _ := g.c.GetByte()
	return b
}

func (g gen) u32() uint32 {
	v, _ := g.c.GetUint32()
	return v
}

// u64 is two big-endian u32 reads, high half first, so that a seed
// generator can write one without GetUint64's trailing byte-order flag.
func (g gen) u64() uint64 {
	hi := g.u32()
	return uint64(hi)<<32 | uint64(g.u32())
}

// maybeZero64 returns 0 one time in three, else any u64.
func (g gen) maybeZero64() uint64 {
	if g.u8()%3 == 0 {
		return 0
	}
	return g.u64()
}

func (g gen) u128() codec.Uint128 {
	if g.u8()%3 == 0 {
		return codec.Uint128{}
	}
	return codec.Uint128{Lo: g.u64(), Hi: g.u64()}
}

// text returns a text field in one of the shapes the rules care about.
func (g gen) text() []byte {
	switch g.u8() % 8 {
	case 0:
		return nil
	case 1:
		return []byte{}
	case 2: // too long for a u8 length
		return bytes.Repeat([]byte("x"), 256+int(g.u8()))
	case 3: // exactly the longest a u8 length allows
		return append(bytes.Repeat([]byte("é"), 127), 'x')
	case 4: // invalid UTF-8 somewhere inside otherwise good text
		b := []byte("go-sdk/0.11.0")
		i := int(g.u8()) % (len(b) + 1)
		return append(b[:i:i], append([]byte{0xff}, b[i:]...)...)
	}
	b, _ := g.c.GetNBytes(int(g.u8()))
	return b
}

func (g gen) version() codec.Version {
	if g.u8()%2 == 0 {
		return codec.Version(g.u32())
	}
	return codec.Version(uint32(g.u8()%3)<<20 | uint32(g.u8()%16)<<10 | uint32(g.u8()%4))
}

// size returns a frame size near and across the 256..64 MiB edges.
func (g gen) size() uint32 {
	switch g.u8() % 4 {
	case 0:
		return codec.HeaderSize + uint32(g.u8())
	case 1:
		return g.u32()
	case 2:
		return codec.HeaderSize - uint32(g.u8()%2)
	}
	return codec.MaxFrameSize - 1 + uint32(g.u8()%3)
}

// edgeOperations are the bounds of every known range and their neighbours.
var edgeOperations = [...]codec.Operation{0, 1, 2, 3, 4, 63, 64, 68, 69, 127, 128, 149, 150, 159, 160, 162, 163, 255}

func (g gen) operation() codec.Operation {
	if b := g.u8(); b%2 == 0 {
		return edgeOperations[int(b/2)%len(edgeOperations)]
	}
	return codec.Operation(g.u8())
}

// revision returns a login body's revision and bind secret, drawn after
// its other fields so that a seed written before revisions stays the
// 0.11.0 body it was. By the first byte modulo 4: the 0.11.0 layout
// without a secret (0, or no byte left), the 0.11.1 layout with 32 bytes,
// the 0.11.0 layout with a secret of 1..40 bytes, or the 0.11.1 layout
// with a secret of 0..39 bytes.
func (g gen) revision() (codec.Revision, codec.Secret) {
	var n int
	switch g.u8() % 4 {
	case 0:
		return codec.RevisionBase, codec.Secret{}
	case 1:
		n = codec.BindSecretLen
	case 2:
		secret, _ := g.c.GetNBytes(1 + int(g.u8()%40))
		return codec.RevisionBase, codec.NewSecret(secret)
	default:
		n = int(g.u8() % 40)
	}
	secret, _ := g.c.GetNBytes(n)
	return codec.RevisionBindSecret, codec.NewSecret(secret)
}

func (g gen) info() codec.ClientVersionInfo {
	return codec.ClientVersionInfo{Protocol: g.version(), SDKName: g.text(), SDKVersion: g.text()}
}

func (g gen) window() codec.Window {
	switch g.u8() % 3 {
	case 0:
		return codec.Window{}
	case 1:
		return codec.DefaultWindow(g.version())
	}
	return codec.Window{Min: g.version(), Max: g.version()}
}

func (g gen) request() codec.RequestHeader {
	return codec.RequestHeader{
		Checksum: g.u128(), ChecksumBody: g.u128(), Cluster: g.u128(),
		Size: g.size(), View: g.u32(), Release: g.u32(), Replica: g.u8(),
		Client: g.u128(), RequestChecksum: g.u128(), Timestamp: g.u64(),
		Request: g.maybeZero64(), Operation: g.operation(), Session: g.maybeZero64(),
		UserID: g.u32(), Code: codec.Code(g.maybeZero64()),
	}
}

func (g gen) reply() codec.ReplyHeader {
	return codec.ReplyHeader{
		Checksum: g.u128(), ChecksumBody: g.u128(), Cluster: g.u128(),
		Size: g.size(), View: g.u32(), Release: g.u32(), Replica: g.u8(),
		RequestChecksum: g.u128(), Context: g.u128(), Client: g.u128(),
		Op: g.u64(), Commit: g.u64(), Timestamp: g.u64(), Request: g.u64(),
		Operation: g.operation(), Status: codec.Status(g.maybeZero64()),
	}
}

func (g gen) eviction() codec.Eviction {
	return codec.Eviction{
		Checksum: g.u128(), ChecksumBody: g.u128(), Cluster: g.u128(),
		View: g.u32(), Release: g.u32(), Replica: g.u8(),
		Client: g.u128(), Window: g.window(), Reason: codec.EvictionReason(g.u8() % 20),
	}
}
