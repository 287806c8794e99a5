//go:build 386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm

package codec

// littleEndian reports whether this machine stores integers as the wire
// does, so that a Uint128 in memory (Lo then Hi) is its 16 wire bytes. It
// is a constant, chosen by GOARCH, so that copy128 and get128 compile to
// one 16-byte move with no test; TestLittleEndian holds it to the
// machine's byte order.
const littleEndian = true
