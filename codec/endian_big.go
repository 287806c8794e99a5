//go:build !(386 || amd64 || arm || arm64 || loong64 || mips64le || mipsle || ppc64le || riscv64 || wasm)

package codec

// littleEndian is false on every GOARCH not listed in endian_little.go
// (mips, mips64, ppc64, s390x): copy128 and get128 then take the
// byte-order-independent path. TestLittleEndian holds it to the machine.
const littleEndian = false
